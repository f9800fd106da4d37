// The engine's readers take paths: a fuzz input goes to a scratch file first, in a folder of this
// process' own (under TMPDIR, /dev/shm when it exists, so the disk is not worn by millions of writes).
#pragma once

#include "core/sha256.hpp"

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

// The same, with the SHA-256 of the bytes appended: the native weights file and checkpoints end in
// one, which random bytes never match, so the targets add it to reach the header and the blocks.
inline std::string writeScratchWithSha256(const std::string& name, const uint8_t* data, size_t size)
{
    std::string bytes(reinterpret_cast<const char*>(data), size);
    tb::Sha256 sha;
    sha.update(bytes.data(), bytes.size());
    const auto digest = sha.digest();
    bytes.append(reinterpret_cast<const char*>(digest.data()), digest.size());
    return writeScratch(name, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

} // namespace fuzz
