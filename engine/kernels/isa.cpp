#include "kernels/isa.hpp"

#include "core/errors.hpp"
#include "kernels/kernels.hpp"

#include <optional>

namespace tb {

// One table per level, each defined by that level's build of kernels/table.cpp.
namespace isa_baseline {
extern const Kernels table;
}
namespace isa_avx2 {
extern const Kernels table;
}
namespace isa_avx512 {
extern const Kernels table;
}

namespace {
constexpr Isa kLevels[] = {Isa::Baseline, Isa::Avx2, Isa::Avx512};

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
    for (Isa isa : kLevels)
        if (text == isaName(isa))
            return isa;
    throw ConfigError("unknown instruction set \"" + std::string(text) + "\" (use baseline, avx2 or avx512)");
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

const Kernels& defaultKernels()
{
    static const Kernels& kernels = kernelsFor(defaultIsa());
    return kernels;
}

} // namespace tb
