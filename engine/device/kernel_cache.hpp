// The compiled-kernel cache's folder and file format. An accelerator keeps there what its driver
// compiled from the engine's kernels (device/opencl/: the OpenCL program binaries), so that the next
// run on the same device loads them instead of compiling. One file per entry, named by the SHA-256
// of everything that changes the binary (its key); a file holds a header that repeats the key, the
// binary's length and its SHA-256, so a truncated, damaged or misnamed entry is recognised and
// rebuilt rather than handed to the driver. Builds without OpenCL too (the fuzz target reads it).
#pragma once

#include <optional>
#include <string>

namespace tb {

// The cache folder of the XDG base directories: $XDG_CACHE_HOME/trainbench when that is an absolute
// path, else $HOME/.cache/trainbench, else empty (no cache). The front ends read the environment and
// pass the values; the engine reads none.
std::string kernelCacheDir(const char* xdgCacheHome, const char* home);

// An entry's bytes: "TBKCACH1", the 64 hex digits of `key`, the binary's length (8 bytes, little
// endian), the binary's SHA-256 (32 bytes), then the binary.
std::string encodeKernelCacheEntry(const std::string& key, const std::string& binary);

// The binary an entry holds for `key`, or nothing with `why` saying what is wrong with the bytes
// ("holds 1200 of 52344 bytes (truncated)", "was written for another key", ...). Never throws.
std::optional<std::string> decodeKernelCacheEntry(const std::string& bytes, const std::string& key, std::string& why);

} // namespace tb
