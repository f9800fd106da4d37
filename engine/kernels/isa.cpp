#include "kernels/isa.hpp"

#include "core/errors.hpp"
#include "kernels/bf16_reference.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <cpuid.h>
#include <optional>
#include <sys/syscall.h>
#include <unistd.h>

namespace tb {

// One table per level, each defined by that level's build of kernels/table.cpp.
// winogradKernelRows: the transformed kernels row-major, bf16_reference's packB layout.
namespace isa_baseline {
extern const Kernels table;
kernel::WinogradKernel winogradKernelRows;
} // namespace isa_baseline
namespace isa_avx2 {
extern const Kernels table;
kernel::WinogradKernel winogradKernelRows;
} // namespace isa_avx2
namespace isa_avx512 {
extern const Kernels table;
kernel::WinogradKernel winogradKernelRows;
} // namespace isa_avx512
// AVX-512's level built once more with AVX512_BF16, for its products (kernels/gemm_bf16.cpp) and
// the transforms that feed them (kernels/winograd_bf16.cpp).
namespace isa_avx512bf16 {
kernel::TileGemm tileGemm;
kernel::Gemm gemm;
kernel::PackB packB;
kernel::GemmPacked gemmPacked;
kernel::GemmPackedRows gemmPackedRows;
kernel::GemmKRows gemmKRows;
kernel::WinogradInput winogradInputRows;
kernel::WinogradInput winogradInputKRows;
kernel::WinogradOutputGradient winogradOutputGradientKRows;
kernel::WinogradKernel winogradKernel;
} // namespace isa_avx512bf16
// kernels/gemm_bf16.cpp's products on AMX tiles, and the same with the tiles emulated
// (kernels/amx_tiles.hpp); their transforms are AVX512_BF16's.
namespace isa_amxbf16 {
kernel::TileGemm tileGemm;
kernel::Gemm gemm;
kernel::PackB packB;
kernel::GemmPacked gemmPacked;
kernel::GemmPackedRows gemmPackedRows;
kernel::GemmKRows gemmKRows;
} // namespace isa_amxbf16
namespace isa_amxemulated {
kernel::TileGemm tileGemm;
kernel::Gemm gemm;
kernel::PackB packB;
kernel::GemmPacked gemmPacked;
kernel::GemmPackedRows gemmPackedRows;
kernel::GemmKRows gemmKRows;
} // namespace isa_amxemulated

namespace {
constexpr Isa kLevels[] = {Isa::Baseline, Isa::Avx2, Isa::Avx512};

// The one of `values` named `text`; throws ConfigError ("unknown WHAT "text" (use NAMES)").
template <class T, size_t N>
T parseNamed(std::string_view text, const T (&values)[N], const char* (*name)(T), const char* what)
{
    std::string names;
    // Any case (the reports print FP32 and BF16, the names are lowercase), ASCII only: a locale's
    // tolower may not map 'I' to 'i'.
    const auto sameName = [text](std::string_view n) {
        return std::equal(text.begin(), text.end(), n.begin(), n.end(),
                          [](char a, char b) { return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b; });
    };
    for (size_t i = 0; i < N; ++i) {
        if (sameName(name(values[i])))
            return values[i];
        names += std::string(i == 0 ? "" : i + 1 < N ? ", " : " or ") + name(values[i]);
    }
    throw ConfigError(std::string("unknown ") + what + " \"" + std::string(text) + "\" (use " + names + ")");
}

std::string supportedList()
{
    std::string list;
    for (Isa isa : supportedIsas())
        list += (list.empty() ? "" : ", ") + std::string(isaName(isa));
    return list;
}
} // namespace

const char* isaName(Isa isa)
{
    switch (isa) {
    case Isa::Baseline:
        return "baseline";
    case Isa::Avx2:
        return "avx2";
    case Isa::Avx512:
        return "avx512";
    }
    return "?";
}

const char* isaDescription(Isa isa)
{
    switch (isa) {
    case Isa::Baseline:
        return "SSE4.2";
    case Isa::Avx2:
        return "AVX2+FMA";
    case Isa::Avx512:
        return "AVX-512";
    }
    return "?";
}

Isa parseIsa(std::string_view text)
{
    return parseNamed(text, kLevels, isaName, "instruction set");
}

bool isaSupported(Isa isa)
{
    // libgcc's CPUID check, which also asks the OS (XGETBV) whether it saves the wider registers.
    __builtin_cpu_init();
#if defined(__clang__)
    // clang (the fuzz build) has no level names: the levels' features one by one.
    const bool v2 = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt");
    const bool v3 =
        v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                    __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    switch (isa) {
    case Isa::Baseline:
        return v2;
    case Isa::Avx2:
        return v3;
    case Isa::Avx512:
        return v4;
    }
#else
    switch (isa) {
    case Isa::Baseline:
        return __builtin_cpu_supports("x86-64-v2");
    case Isa::Avx2:
        return __builtin_cpu_supports("x86-64-v3");
    case Isa::Avx512:
        return __builtin_cpu_supports("x86-64-v4");
    }
#endif
    return false;
}

Isa detectIsa()
{
    static const Isa best = [] {
        Isa found = Isa::Baseline;
        for (Isa isa : kLevels)
            if (isaSupported(isa))
                found = isa;
        return found;
    }();
    return best;
}

std::vector<Isa> supportedIsas()
{
    std::vector<Isa> out;
    for (Isa isa : kLevels)
        if (isaSupported(isa))
            out.push_back(isa);
    return out;
}

void requireIsa(Isa isa)
{
    if (!isaSupported(isa))
        throw ConfigError(std::string("this CPU has no ") + isaDescription(isa) + " (it supports " + supportedList() +
                          ")");
}

namespace {
std::optional<Isa> g_chosenIsa; // setDefaultIsa's; written at start-up, before any pass reads it
} // namespace

Isa defaultIsa()
{
    return g_chosenIsa ? *g_chosenIsa : detectIsa();
}

void setDefaultIsa(Isa isa)
{
    requireIsa(isa);
    g_chosenIsa = isa;
}

const Kernels& kernelsFor(Isa isa)
{
    requireIsa(isa);
    switch (isa) {
    case Isa::Avx512:
        return isa_avx512::table;
    case Isa::Avx2:
        return isa_avx2::table;
    case Isa::Baseline:
        break;
    }
    return isa_baseline::table;
}

std::string describeKernels(const Kernels& k)
{
    return std::string(isaName(k.isa)) + " kernels (" + isaDescription(k.isa) + "; matrix products: " + k.gemmName +
           ")";
}

const char* precisionName(Precision p)
{
    return p == Precision::Bf16 ? "bf16" : "fp32";
}

const char* precisionDescription(Precision p)
{
    return p == Precision::Bf16 ? "bfloat16 products, FP32 accumulation" : "FP32";
}

std::string describePrecision(Precision p)
{
    if (p == Precision::Fp32)
        return precisionDescription(p);
    return std::string(precisionName(p)) + " (" + precisionDescription(p) + ")";
}

Precision parsePrecision(std::string_view text)
{
    constexpr Precision kPrecisions[] = {Precision::Fp32, Precision::Bf16};
    return parseNamed(text, kPrecisions, precisionName, "precision");
}

namespace {
bool cpuHasAvx512Bf16()
{
    __builtin_cpu_init();
    return isaSupported(Isa::Avx512) && __builtin_cpu_supports("avx512bf16");
}

// The bf16 products, and the transforms that write their operands in their formats.
struct Bf16Products {
    const char* name;
    kernel::TileGemm* tileGemm;
    kernel::Gemm* gemm;
    kernel::PackB* packB;
    kernel::GemmPacked* gemmPacked;
    kernel::GemmPackedRows* gemmPackedRows;
    kernel::GemmKRows* gemmKRows;
    kernel::WinogradInput* winogradInputRows;
    kernel::WinogradInput* winogradInputKRows;
    kernel::WinogradOutputGradient* winogradOutputGradientKRows;
    kernel::WinogradKernel* winogradKernel; // into packB's layout
};

// `base` with the bf16 products given.
Kernels withProducts(const Kernels& base, const Bf16Products& p)
{
    Kernels k = base;
    k.precision = Precision::Bf16;
    k.gemmName = p.name;
    k.tileGemm = p.tileGemm;
    k.gemm = p.gemm;
    k.packB = p.packB;
    k.gemmPacked = p.gemmPacked;
    k.gemmPackedRows = p.gemmPackedRows;
    k.gemmKRows = p.gemmKRows;
    k.winogradInputRows = p.winogradInputRows;
    k.winogradInputKRows = p.winogradInputKRows;
    k.winogradOutputGradientKRows = p.winogradOutputGradientKRows;
    k.winogradKernel = p.winogradKernel;
    k.convDirect = nullptr; // FP32 products
    return k;
}

// The avx512 table with the products of one build of kernels/gemm_bf16.cpp and AVX512_BF16's
// transforms, which write the operands in the layouts every such build reads.
template <auto* TileGemm, auto* Gemm, auto* PackB, auto* GemmPacked, auto* GemmPackedRows, auto* GemmKRows>
Kernels avx512WithProducts(const char* name)
{
    return withProducts(isa_avx512::table,
                        {name, TileGemm, Gemm, PackB, GemmPacked, GemmPackedRows, GemmKRows,
                         &isa_avx512bf16::winogradInputRows, &isa_avx512bf16::winogradInputKRows,
                         &isa_avx512bf16::winogradOutputGradientKRows, &isa_avx512bf16::winogradKernel});
}
} // namespace

std::string precisionUnavailableReason(Precision p, Isa isa)
{
    if (p == Precision::Fp32)
        return isaSupported(isa) ? std::string() : std::string("this CPU has no ") + isaDescription(isa);
    if (!cpuHasAvx512Bf16())
        return "this CPU has no AVX512_BF16, which bf16 needs (AMD Zen 4 and later, Intel Cooper Lake, Sapphire "
               "Rapids and later); it is not emulated";
    if (isa != Isa::Avx512)
        return std::string("bf16 runs on the avx512 kernels, not on ") + isaName(isa);
    return {};
}

const char* bf16KernelsName(Bf16Kernels k)
{
    return k == Bf16Kernels::Amx ? "amx" : "avx512bf16";
}

Bf16Kernels parseBf16Kernels(std::string_view text)
{
    constexpr Bf16Kernels kBf16Kernels[] = {Bf16Kernels::Avx512Bf16, Bf16Kernels::Amx};
    return parseNamed(text, kBf16Kernels, bf16KernelsName, "bf16 kernels");
}

namespace {
bool cpuHasAmxBf16()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx >> 22 & 1u) && (edx >> 24 & 1u); // BF16, TILE
}

// Why the OS does not let this process use the tiles, or empty: XCR0 must enable their state
// (XTILECFG, XTILEDATA: bits 17 and 18), and Linux hands the data out only on request.
std::string amxOsRefusal()
{
    static const std::string why = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1u)) // OSXSAVE
            return std::string("the OS does not enable XSAVE");
        unsigned lo = 0, hi = 0;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo >> 17 & 3u) != 3u)
            return std::string("the OS does not save the AMX tiles' state (XCR0)");
        constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
        if (syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) != 0)
            return std::string("Linux refused this process the AMX tiles (arch_prctl ARCH_REQ_XCOMP_PERM)");
        return std::string();
    }();
    return why;
}

std::optional<Bf16Kernels> g_chosenBf16Kernels; // setDefaultBf16Kernels's; written at start-up
} // namespace

std::string bf16KernelsUnavailableReason(Bf16Kernels k)
{
    if (std::string why = precisionUnavailableReason(Precision::Bf16, Isa::Avx512); !why.empty())
        return why;
    if (k == Bf16Kernels::Avx512Bf16)
        return {};
    if (!cpuHasAmxBf16())
        return "this CPU has no AMX-BF16 (Intel Sapphire Rapids and later)";
    return amxOsRefusal();
}

Bf16Kernels defaultBf16Kernels()
{
    if (g_chosenBf16Kernels)
        return *g_chosenBf16Kernels;
    static const Bf16Kernels best =
        bf16KernelsUnavailableReason(Bf16Kernels::Amx).empty() ? Bf16Kernels::Amx : Bf16Kernels::Avx512Bf16;
    return best;
}

void setDefaultBf16Kernels(Bf16Kernels k)
{
    if (std::string why = bf16KernelsUnavailableReason(k); !why.empty())
        throw ConfigError(why);
    g_chosenBf16Kernels = k;
}

std::string precisionSpeedNote(Precision p, bool intelAmx, Bf16Kernels kernels)
{
    if (p != Precision::Bf16)
        return {};
    if (kernels == Bf16Kernels::Amx)
        return "bf16 on this CPU's AMX-BF16 tiles: they sum in an order of their own, so its bf16 weights differ in "
               "their last bits from those of CPUs without them (TRAINBENCH_BF16_KERNELS=avx512bf16 gives those)";
    if (!intelAmx)
        return {};
    return "bf16 on this Intel CPU: its cores run vdpbf16ps at half the multiply-adds per cycle of FP32's FMA, so "
           "bf16 trains slower than FP32 where the matrix products dominate (colab-fashion-cnn) and faster only "
           "where they do not; AMX-BF16 is not used";
}

std::string precisionSpeedNote(Precision p)
{
    if (!precisionUnavailableReason(p, Isa::Avx512).empty())
        return {};
    __builtin_cpu_init();
    return precisionSpeedNote(p, __builtin_cpu_is("intel") && cpuHasAmxBf16(), defaultBf16Kernels());
}

const Kernels& bf16KernelsFor(Bf16Kernels k)
{
    if (const std::string why = bf16KernelsUnavailableReason(k); !why.empty())
        throw ConfigError(why);
    static const Kernels vectors =
        avx512WithProducts<&isa_avx512bf16::tileGemm, &isa_avx512bf16::gemm, &isa_avx512bf16::packB,
                           &isa_avx512bf16::gemmPacked, &isa_avx512bf16::gemmPackedRows, &isa_avx512bf16::gemmKRows>(
            "own 12x32 AVX512_BF16 kernel (bf16 inputs, FP32 sums)");
    static const Kernels tiles =
        avx512WithProducts<&isa_amxbf16::tileGemm, &isa_amxbf16::gemm, &isa_amxbf16::packB, &isa_amxbf16::gemmPacked,
                           &isa_amxbf16::gemmPackedRows, &isa_amxbf16::gemmKRows>(
            "own 32x32 AMX-BF16 tile kernel (bf16 inputs, FP32 sums)");
    return k == Bf16Kernels::Amx ? tiles : vectors;
}

const Kernels& amxEmulatedKernels()
{
    if (const std::string why = precisionUnavailableReason(Precision::Bf16, Isa::Avx512); !why.empty())
        throw ConfigError(why);
    static const Kernels emulated =
        avx512WithProducts<&isa_amxemulated::tileGemm, &isa_amxemulated::gemm, &isa_amxemulated::packB,
                           &isa_amxemulated::gemmPacked, &isa_amxemulated::gemmPackedRows, &isa_amxemulated::gemmKRows>(
            "AMX-BF16 tile kernel, tiles emulated (tests)");
    return emulated;
}

const Kernels& kernelsFor(Isa isa, Precision p)
{
    if (p == Precision::Fp32)
        return kernelsFor(isa);
    const std::string why = precisionUnavailableReason(p, isa);
    if (!why.empty())
        throw ConfigError(why);
    return bf16KernelsFor(defaultBf16Kernels());
}

const Kernels& bf16ReferenceKernels(Isa isa)
{
    requireIsa(isa);
    const auto reference = [](const Kernels& base, kernel::WinogradKernel* kernelRows) {
        // The reference's rows are FP32 (it rounds as it multiplies), so its transforms are FP32's,
        // and its packed B is B row-major.
        return withProducts(base, {"bf16 reference (one element at a time)", &bf16_reference::tileGemm,
                                   &bf16_reference::gemm, &bf16_reference::packB, &bf16_reference::gemmPacked,
                                   &bf16_reference::gemmPackedRows, &bf16_reference::gemmKRows, base.winogradInput,
                                   base.winogradInput, base.winogradOutputGradient, kernelRows});
    };
    static const Kernels tables[] = {reference(isa_baseline::table, &isa_baseline::winogradKernelRows),
                                     reference(isa_avx2::table, &isa_avx2::winogradKernelRows),
                                     reference(isa_avx512::table, &isa_avx512::winogradKernelRows)};
    return tables[int(isa)];
}

const Kernels& defaultKernels()
{
    static const Kernels& kernels = kernelsFor(defaultIsa());
    return kernels;
}

} // namespace tb
