#include "device/device.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/thread_pool.hpp"
#include "device/opencl/opencl_devices.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace tb {

namespace {
std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

// The value of "key: value" lines in a /proc file, first match.
std::string procField(const char* path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const size_t colon = line.find(':');
        if (colon != std::string::npos && trim(line.substr(0, colon)) == key)
            return trim(line.substr(colon + 1));
    }
    return {};
}

std::string simdLevel()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "AVX-512";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "AVX2+FMA";
    if (__builtin_cpu_supports("avx"))
        return "AVX";
    if (__builtin_cpu_supports("sse4.2"))
        return "SSE4.2";
    return "SSE2";
#elif defined(__aarch64__)
    return "NEON";
#else
    return "scalar";
#endif
}

// The number `digits` after a device's colon; `device` is all of it, for the messages.
int parseCount(const std::string& digits, const std::string& what, const std::string& device)
{
    if (digits.empty())
        throw ConfigError("device '" + device + "': the " + what + " after the colon is missing");
    if (digits[0] == '-' && digits.size() > 1 && std::all_of(digits.begin() + 1, digits.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        }))
        throw ConfigError("device '" + device + "': the " + what + " cannot be negative");
    for (char c : digits)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw ConfigError("device '" + device + "': the " + what + " '" + digits + "' is not a number");
    const size_t first = std::min(digits.find_first_not_of('0'), digits.size() - 1); // "0004" is 4
    if (digits.size() - first > 6)
        throw ConfigError("device '" + device + "': the " + what + " " + digits + " is far too large");
    return std::stoi(digits.substr(first));
}
} // namespace

std::string DeviceSpec::id() const
{
    if (kind == DeviceKind::OpenCl)
        return "opencl:" + std::to_string(index);
    if (kind == DeviceKind::Cuda)
        return "cuda:" + std::to_string(index);
    return "cpu:" + std::to_string(threads) + (isa ? std::string("@") + isaName(*isa) : "") +
           (precision == Precision::Fp32 ? "" : std::string("+") + precisionName(precision));
}

DeviceSpec parseDeviceSpec(const std::string& raw, Precision unnamed)
{
    const std::string text = trim(raw);
    const size_t plus = text.find('+');
    const std::string head = text.substr(0, plus);
    const size_t at = head.find('@');
    const std::string base = head.substr(0, at);
    const size_t colon = base.find(':');
    std::string kind = base.substr(0, colon); // any case, as the instruction sets and precisions
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const bool counted = colon != std::string::npos; // "cpu:" is a count left out, not every core
    const std::string arg = counted ? base.substr(colon + 1) : "";
    DeviceSpec d;
    d.precision = unnamed;
    if (at != std::string::npos) {
        if (kind != "cpu")
            throw ConfigError("device '" + text + "': only CPU devices take an instruction set (cpu:2@avx2)");
        try {
            d.isa = parseIsa(head.substr(at + 1));
        } catch (const ConfigError& e) {
            throw ConfigError("device '" + text + "': " + e.what());
        }
    }
    if (plus != std::string::npos) {
        if (const size_t late = text.find('@', plus); kind == "cpu" && late != std::string::npos)
            throw ConfigError("device '" + text + "': the instruction set comes before the precision (" + head +
                              text.substr(late) + text.substr(plus, late - plus) + ")");
        if (kind != "cpu")
            throw ConfigError("device '" + text + "': only CPU devices take a precision (cpu:2+bf16)");
        try {
            d.precision = parsePrecision(text.substr(plus + 1));
        } catch (const ConfigError& e) {
            throw ConfigError("device '" + text + "': " + e.what());
        }
    }
    if (kind == "cpu") {
        d.kind = DeviceKind::Cpu;
        d.threads = !counted ? hardwareThreads() : parseCount(arg, "thread count", text);
        if (d.threads < 1 || d.threads > 1024)
            throw ConfigError("device '" + text + "': the thread count must be between 1 and 1024");
    } else if (kind == "cuda" || kind == "gpu") {
        d.kind = DeviceKind::Cuda;
        d.index = !counted ? 0 : parseCount(arg, "GPU index", text);
    } else if (kind == "opencl") {
        d.kind = DeviceKind::OpenCl;
        d.index = !counted ? 0 : parseCount(arg, "OpenCL device index", text);
    } else {
        throw ConfigError("unknown device '" + text +
                          "': use cpu, cpu:N (N threads), cpu:N@avx2 (N threads, AVX2 kernels), cpu:N+bf16 (bfloat16 "
                          "products), opencl:K "
                          "(OpenCL device K) or cuda:K (GPU K)");
    }
    return d;
}

std::vector<DeviceSpec> parseDeviceList(const std::string& text, Precision unnamed)
{
    std::vector<DeviceSpec> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (!trim(item).empty())
            out.push_back(parseDeviceSpec(item, unnamed));
        else if (!ss.eof()) // a trailing comma is fine; "cpu:1,,cpu:2" may have lost a device
            throw ConfigError("the device list \"" + text +
                              "\" has an empty entry between two commas: name a device there or remove a comma");
    }
    if (out.empty())
        throw ConfigError("no devices given: use e.g. cpu:1,cpu:2");
    return out;
}

CpuInfo detectCpu()
{
    CpuInfo c;
    c.model = procField("/proc/cpuinfo", "model name");
    if (c.model.empty())
        c.model = "unknown CPU";
    c.logicalCores = hardwareThreads();
    c.simd = simdLevel();
    c.isa = detectIsa();
    c.isas = supportedIsas();
    c.ramBytes = meminfoBytes("MemTotal");
    return c;
}

SystemInfo detectSystem()
{
    SystemInfo s;
    s.cpu = detectCpu();
    // Trainbench has no CUDA backend (an NVIDIA GPU trains through its OpenCL driver): say so rather
    // than probing a driver it cannot use.
    s.gpuUnavailableReason = "no CUDA backend: GPUs train through OpenCL";
    s.gpuUnavailableId = MessageId::GpuBuiltWithoutCuda;
    s.openclDevices = listOpenClDevices(s.openclUnavailableReason);
    return s;
}

std::optional<DeviceSpec> preferredAccelerator(const SystemInfo& system)
{
    DeviceSpec d;
    if (!system.gpus.empty()) {
        d.kind = DeviceKind::Cuda;
        d.index = system.gpus.front().index;
        return d;
    }
    d.kind = DeviceKind::OpenCl;
    for (const bool gpuOnly : {true, false})
        for (const OpenClDeviceInfo& o : system.openclDevices)
            if (o.unusableReason.empty() && (!gpuOnly || o.type == "GPU")) {
                d.index = o.index;
                return d;
            }
    return std::nullopt;
}

const Kernels& cpuKernels(const DeviceSpec& spec)
{
    if (spec.kind != DeviceKind::Cpu)
        return defaultKernels();
    return kernelsFor(spec.isa.value_or(defaultIsa()), spec.precision);
}

std::string precisionUnavailableOn(const DeviceSpec& device, Precision p)
{
    if (device.kind == DeviceKind::Cpu)
        return precisionUnavailableReason(p, device.isa.value_or(defaultIsa()));
    if (p != Precision::Fp32)
        return device.id() + " computes in FP32 only: " + precisionName(p) + " is for the CPU";
    return {};
}

std::string deviceUnavailableReason(const DeviceSpec& spec, const SystemInfo& system)
{
    if (spec.kind == DeviceKind::Cpu) {
        if (spec.isa && !isaSupported(*spec.isa))
            return std::string("this CPU has no ") + isaDescription(*spec.isa);
        return precisionUnavailableOn(spec, spec.precision);
    }
    if (std::string why = precisionUnavailableOn(spec, spec.precision); !why.empty())
        return why;
    if (spec.kind == DeviceKind::OpenCl) {
        for (const OpenClDeviceInfo& d : system.openclDevices)
            if (d.index == spec.index)
                return d.unusableReason.empty()
                           ? std::string()
                           : "opencl:" + std::to_string(d.index) + " (" + d.name + ") " + d.unusableReason;
        if (system.openclDevices.empty())
            return "no OpenCL device available: " + system.openclUnavailableReason;
        const size_t n = system.openclDevices.size();
        return "there is no OpenCL device " + std::to_string(spec.index) + " (this machine has " +
               (n == 1 ? "only opencl:0" : std::to_string(n) + ": opencl:0 .. opencl:" + std::to_string(n - 1)) + ")";
    }
    for (const GpuInfo& g : system.gpus)
        if (g.index == spec.index)
            return {};
    if (system.gpus.empty())
        return "no GPU available: " + system.gpuUnavailableReason;
    return "there is no GPU " + std::to_string(spec.index) + " (this machine has " +
           std::to_string(system.gpus.size()) + ")";
}

std::string threadsNote(int threads, int cores)
{
    if (threads <= cores)
        return {};
    return std::to_string(threads) + " threads on " + std::to_string(cores) + (cores == 1 ? " core" : " cores") +
           ": the same weights as on fewer threads, but the threads take turns on the cores, so it trains no "
           "faster than cpu:" +
           std::to_string(cores);
}

std::string describeDevice(const DeviceSpec& spec, const SystemInfo& system)
{
    if (spec.kind == DeviceKind::Cpu) {
        const Isa isa = spec.isa.value_or(system.cpu.isa);
        return "CPU, " + std::to_string(spec.threads) + (spec.threads == 1 ? " thread" : " threads") + " (" +
               system.cpu.model + ", " + isaName(isa) + " kernels" +
               (spec.precision == Precision::Fp32 ? "" : std::string(", ") + precisionDescription(spec.precision)) +
               ")";
    }
    if (spec.kind == DeviceKind::OpenCl) {
        for (const OpenClDeviceInfo& d : system.openclDevices)
            if (d.index == spec.index)
                return "OpenCL " + std::to_string(d.index) + " (" + d.name + ", " + d.platform + ")";
        return "OpenCL " + std::to_string(spec.index);
    }
    for (const GpuInfo& g : system.gpus)
        if (g.index == spec.index)
            return "GPU " + std::to_string(g.index) + " (" + g.name + ")";
    return "GPU " + std::to_string(spec.index);
}

MemoryUsage readMemoryUsage()
{
    MemoryUsage m;
    std::ifstream statm("/proc/self/statm");
    int64_t size = 0, resident = 0;
    if (statm >> size >> resident)
        m.processResident = resident * int64_t(sysconf(_SC_PAGESIZE));
    m.systemTotal = meminfoBytes("MemTotal");
    const int64_t available = meminfoBytes("MemAvailable");
    m.systemUsed = m.systemTotal > 0 ? m.systemTotal - available : 0;
    return m;
}

int64_t peakResidentBytes()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return int64_t(ru.ru_maxrss) * 1024;
}

} // namespace tb
