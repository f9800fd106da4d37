// The engine's readers take paths: a fuzz input goes to a scratch file first, in a folder of this
// process' own (under TMPDIR, /dev/shm when it exists, so the disk is not worn by millions of writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace fuzz {

inline const std::string& scratchDir()
{
    static const std::string dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string base = tmp && *tmp ? tmp : (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        std::string d = base + "/trainbench-fuzz-" + std::to_string(getpid());
        std::string cmd = "mkdir -p '" + d + "'";
        if (std::system(cmd.c_str()) != 0)
            std::abort();
        // Removed at exit (libFuzzer leaves through exit() after -max_total_time).
        static std::string atExit;
        atExit = d;
        std::atexit([] { std::system(("rm -rf '" + atExit + "'").c_str()); });
        return d;
    }();
    return dir;
}

// Writes `size` bytes to scratchDir()/name and returns the path.
inline std::string writeScratch(const std::string& name, const uint8_t* data, size_t size)
{
    const std::string path = scratchDir() + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0)
        std::abort();
    return path;
}

} // namespace fuzz
