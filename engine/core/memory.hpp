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

// The value of `key` in a memory.stat file ("file 123" lines), else 0.
inline uint64_t cgroupStatValue(const std::string& path, const std::string& key)
{
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long v = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) {
        const std::string text(line);
        found = text.size() > key.size() && text.compare(0, key.size(), key) == 0 && text[key.size()] == ' ' &&
                std::sscanf(line + key.size() + 1, "%llu", &v) == 1;
    }
    std::fclose(f);
    return found ? uint64_t(v) : 0;
}

// What this process's control group (a container's, a systemd slice's, a batch scheduler's) lets it
// use: the lowest limit of its own group and its ancestors' up to the hierarchy's root, and the lowest
// room left under one of them (the limit less what the group holds that the kernel could not take
// back: its use less its clean page cache, which reclaim frees before the group runs out). 0 for
// both when there is no limit. cgroup v2 ("0::/path" in /proc/self/cgroup: memory.max,
// memory.current, memory.stat's file, shmem, file_dirty and file_writeback) and v1
// ("N:memory:/path": memory.limit_in_bytes, memory.usage_in_bytes, memory.stat's total_cache,
// total_shmem, total_dirty and total_writeback). Beyond the limit the kernel
// kills the process without a word, so the refusals measure against it. The files are parameters
// for the tests.
struct MemoryGroup {
    uint64_t limit = 0;
    uint64_t available = 0;
};

inline MemoryGroup cgroupMemory(const std::string& procCgroup = "/proc/self/cgroup",
                                const std::string& root = "/sys/fs/cgroup")
{
    std::FILE* f = std::fopen(procCgroup.c_str(), "r");
    if (!f)
        return {};
    MemoryGroup group;
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
        const bool v2 = controllers.empty();
        if (!v2 && ("," + controllers + ",").find(",memory,") == std::string::npos)
            continue;
        const std::string base = v2 ? root : root + "/memory";
        // Up from the process's own group: an ancestor's limit holds too (and in a container whose
        // view starts at its own group, the path named may not exist, its root does).
        while (true) {
            const std::string dir = base + path + (path == "/" ? "" : "/");
            if (const uint64_t limit = cgroupValue(dir + (v2 ? "memory.max" : "memory.limit_in_bytes")); limit > 0) {
                const uint64_t used = cgroupValue(dir + (v2 ? "memory.current" : "memory.usage_in_bytes"));
                const uint64_t cache = cgroupStatValue(dir + "memory.stat", v2 ? "file" : "total_cache");
                // Of the page cache, tmpfs files and pages not yet written back are not free to take.
                uint64_t busy = cgroupStatValue(dir + "memory.stat", v2 ? "shmem" : "total_shmem");
                busy += cgroupStatValue(dir + "memory.stat", v2 ? "file_dirty" : "total_dirty");
                busy += cgroupStatValue(dir + "memory.stat", v2 ? "file_writeback" : "total_writeback");
                const uint64_t held = used - std::min(used, cache - std::min(cache, busy));
                const uint64_t room = limit - std::min(limit, held);
                group.available = group.limit == 0 ? room : std::min(group.available, room);
                group.limit = group.limit == 0 ? limit : std::min(group.limit, limit);
            }
            if (path.empty() || path == "/")
                break;
            const size_t slash = path.rfind('/');
            path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
        }
    }
    std::fclose(f);
    return group;
}

// The memory the machine has in bytes (8 GiB when the system does not say).
inline uint64_t machineMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : uint64_t(8) << 30;
}

// The memory this process may use in bytes: the machine's, or its control group's limit where that is
// lower.
inline uint64_t physicalMemoryBytes()
{
    const uint64_t group = cgroupMemory().limit;
    return group > 0 ? std::min(machineMemoryBytes(), group) : machineMemoryBytes();
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
// lowers, and no more than the control group has left; the machine's memory when neither says.
inline uint64_t availableMemoryBytes()
{
    const int64_t available = meminfoBytes("MemAvailable");
    const MemoryGroup group = cgroupMemory(); // what the control group has left, where it has a limit
    uint64_t room = machineMemoryBytes();
    if (available > 0)
        room = std::min(room, uint64_t(available));
    return group.limit > 0 ? std::min(room, group.available) : room;
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

// physicalMemoryBytes() in words for the refusals: "this machine's 23.5 GiB of memory", or "the 4.0
// GiB memory limit of this process's control group" where a container's or a job's limit is lower
// (the machine's size would mislead there).
inline std::string memoryLimitText()
{
    const uint64_t group = cgroupMemory().limit;
    if (group > 0 && group < machineMemoryBytes())
        return "the " + humanBytes(group) + " memory limit of this process's control group";
    return "this machine's " + humanBytes(machineMemoryBytes()) + " of memory";
}

} // namespace tb
