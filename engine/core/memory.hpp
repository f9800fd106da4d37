// How much memory this machine has, for refusing a model, a batch or a dataset that could not fit
// before anything is allocated (the message gives the estimate and the machine's size).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace tb {

// Physical memory in bytes (8 GiB when the system does not say).
inline uint64_t physicalMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0)
        return uint64_t(pages) * uint64_t(pageSize);
    return uint64_t(8) << 30;
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
    return available > 0 ? uint64_t(available) : physicalMemoryBytes();
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
