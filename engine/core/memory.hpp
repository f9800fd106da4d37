// How much memory this machine has, for refusing a model, a batch or a dataset that could not fit
// before anything is allocated (the message gives the estimate and the machine's size).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace tb {

// The number a file of one line holds ("max" or a value too large to be a limit: none), else 0.
inline uint64_t cgroupValue(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    const bool read = std::fscanf(f, "%llu", &v) == 1;
    std::fclose(f);
    return read && v < (uint64_t(1) << 60) ? uint64_t(v) : 0;
}

// The memory limit of this process's control group (a container's, a systemd slice's, a batch
// scheduler's), the lowest of its own and its ancestors' up to the hierarchy's root; 0 when there is
// none. cgroup v2 ("0::/path" in /proc/self/cgroup, memory.max) and v1 ("N:memory:/path",
// memory/memory.limit_in_bytes). Beyond it the kernel kills the process without a word, so the
// refusals measure against it. The files are parameters for the tests.
inline uint64_t cgroupMemoryLimit(const std::string& procCgroup = "/proc/self/cgroup",
                                  const std::string& root = "/sys/fs/cgroup")
{
    std::FILE* f = std::fopen(procCgroup.c_str(), "r");
    if (!f)
        return 0;
    uint64_t limit = 0;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
        std::string text(line);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
            text.pop_back();
        const size_t a = text.find(':'), b = a == std::string::npos ? a : text.find(':', a + 1);
        if (b == std::string::npos)
            continue;
        const std::string controllers = text.substr(a + 1, b - a - 1);
        std::string path = text.substr(b + 1);
        std::string base, file;
        if (controllers.empty()) { // v2
            base = root;
            file = "memory.max";
        } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
            base = root + "/memory";
            file = "memory.limit_in_bytes";
        } else {
            continue;
        }
        // Up from the process's own group: an ancestor's limit holds too (and in a container whose
        // view starts at its own group, the path named may not exist, its root does).
        while (true) {
            if (const uint64_t v = cgroupValue(base + path + (path == "/" ? "" : "/") + file); v > 0)
                limit = limit == 0 ? v : std::min(limit, v);
            if (path.empty() || path == "/")
                break;
            const size_t slash = path.rfind('/');
            path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
        }
    }
    std::fclose(f);
    return limit;
}

// The memory this process may use in bytes: the machine's physical memory, or its control group's
// limit where that is lower (8 GiB when the system does not say).
inline uint64_t physicalMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    const uint64_t machine = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : uint64_t(8) << 30;
    const uint64_t group = cgroupMemoryLimit();
    return group > 0 ? std::min(machine, group) : machine;
}

// A field of /proc/meminfo in bytes ("MemTotal", "MemAvailable"; the file says kB); 0 when the system
// does not say.
inline int64_t meminfoBytes(const std::string& key)
{
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) {
        const std::string text(line);
        const size_t colon = text.find(':');
        found = colon != std::string::npos && text.compare(0, colon, key) == 0 &&
                std::sscanf(line + colon + 1, "%lld", &kib) == 1;
    }
    std::fclose(f);
    return found ? kib * 1024 : 0;
}

// The memory the system could give now without swapping (MemAvailable), which other programs' use
// lowers; physicalMemoryBytes() when the system does not say.
inline uint64_t availableMemoryBytes()
{
    const int64_t available = meminfoBytes("MemAvailable");
    const uint64_t limit = physicalMemoryBytes(); // the control group's limit, where it is lower
    return available > 0 ? std::min(uint64_t(available), limit) : limit;
}

// What a failed allocation (std::bad_alloc) tells the user, on the command line and, translated, in
// the window: the refusals that estimate a model's, a batch's or a dataset's memory come first; this
// is what they did not foresee.
constexpr const char* kOutOfMemory = "out of memory: this needs more memory than the machine could give; a "
                                     "smaller model, batch or dataset may fit";

// "1.5 GiB", "12.0 MiB".
inline std::string humanBytes(uint64_t b)
{
    char buf[64];
    if (b >= (uint64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / double(uint64_t(1) << 30));
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / double(1 << 20));
    return buf;
}

} // namespace tb
