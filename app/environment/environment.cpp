#include "environment.hpp"

#include "core/errors.hpp"
#include "device/kernel_cache.hpp"
#include "kernels/isa.hpp"
#include "train/run_folder.hpp"

#include "device/opencl/opencl_devices.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace tb::env {

namespace {

// The value, or empty when unset.
std::string value(const Lookup& lookup, const char* name)
{
    const char* v = lookup(name);
    return v ? v : "";
}

// A whole decimal integer ("3", "-1"), or false.
bool parseInt(const std::string& text, long long& out)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    errno = 0;
    out = std::strtoll(text.c_str(), &end, 10);
    return errno == 0 && end == text.c_str() + text.size();
}

} // namespace

void applyToEngine(const Lookup& lookup)
{
    // Each setting applied or refused on its own; the refusals named together at the end.
    std::string refused;
    const auto apply = [&](const char* name, auto set) {
        const std::string text = value(lookup, name);
        if (text.empty())
            return;
        try {
            set(text);
        } catch (const ConfigError& e) {
            refused += (refused.empty() ? "" : "; ") + std::string(name) + "=" + text + ": " + e.what();
        }
    };
    apply("TRAINBENCH_ISA", [](const std::string& v) { setDefaultIsa(parseIsa(v)); });
    apply("TRAINBENCH_BF16_KERNELS", [](const std::string& v) { setDefaultBf16Kernels(parseBf16Kernels(v)); });
    OpenClSettings cl;
    apply("TRAINBENCH_OPENCL_MEMORY_LIMIT", [&](const std::string& v) { cl.memoryLimit = parseByteSize(v); });
    const std::string profile = value(lookup, "TRAINBENCH_OPENCL_PROFILE");
    cl.profile = !profile.empty() && profile != "0";
    cl.extraBuildOptions = value(lookup, "TRAINBENCH_OPENCL_BUILD_OPTIONS");
    setOpenClSettings(std::move(cl));
    if (!refused.empty())
        throw ConfigError(refused);
}

ProcessLaunch processLaunch(const Lookup& lookup)
{
    ProcessLaunch launch;
    // What mpirun (Open MPI), srun (PMIx, PMI-2) and MPICH's hydra give the processes they start.
    launch.byLauncher = lookup("OMPI_COMM_WORLD_SIZE") || lookup("PMI_SIZE") || lookup("PMIX_RANK");
    long long n = 0;
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (parseInt(value(lookup, name), n)) {
            launch.size = int(n);
            break;
        }
    for (const char* name : {"PMIX_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK"})
        if (parseInt(value(lookup, name), n)) {
            launch.rank = int(n);
            break;
        }
    if (const std::string t = value(lookup, "TRAINBENCH_MPI_TIMEOUT"); !t.empty()) {
        char* end = nullptr;
        const double seconds = std::strtod(t.c_str(), &end);
        // Said by processCommunicator, not thrown here: the error path reads the launch too.
        if (end != t.c_str() + t.size() || !std::isfinite(seconds) || seconds <= 0.0)
            launch.timeoutProblem = "TRAINBENCH_MPI_TIMEOUT=" + t + ": expected a positive number of seconds";
        else
            launch.mpiTimeoutSeconds = seconds;
    }
    return launch;
}

std::string runsDir(const Lookup& lookup)
{
    return defaultRunsDir(lookup("XDG_DATA_HOME"), lookup("HOME"));
}

std::string kernelCacheDir(const Lookup& lookup)
{
    return tb::kernelCacheDir(lookup("XDG_CACHE_HOME"), lookup("HOME"));
}

} // namespace tb::env
