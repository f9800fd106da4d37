#include "device/kernel_cache.hpp"

#include "core/sha256.hpp"

#include <array>
#include <cstdint>
#include <cstring>

namespace tb {

namespace {
constexpr char kMagic[] = "TBKCACH1";
constexpr size_t kMagicSize = 8, kKeySize = 64, kLengthSize = 8, kHashSize = 32;
constexpr size_t kHeaderSize = kMagicSize + kKeySize + kLengthSize + kHashSize;

std::string digestOf(const std::string& bytes, size_t offset)
{
    Sha256 h;
    h.update(bytes.data() + offset, bytes.size() - offset);
    const std::array<uint8_t, 32> d = h.digest();
    return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}
} // namespace

std::string kernelCacheDir(const char* xdgCacheHome, const char* home)
{
    if (xdgCacheHome && xdgCacheHome[0] == '/')
        return std::string(xdgCacheHome) + "/trainbench";
    if (home && home[0] == '/')
        return std::string(home) + "/.cache/trainbench";
    return {};
}

std::string encodeKernelCacheEntry(const std::string& key, const std::string& binary)
{
    std::string out(kMagic, kMagicSize);
    out += key.substr(0, kKeySize);
    out.resize(kMagicSize + kKeySize, '0');
    const uint64_t n = binary.size();
    for (size_t i = 0; i < kLengthSize; ++i)
        out += char((n >> (8 * i)) & 0xff);
    out += digestOf(binary, 0);
    out += binary;
    return out;
}

std::optional<std::string> decodeKernelCacheEntry(const std::string& bytes, const std::string& key, std::string& why)
{
    if (bytes.size() < kHeaderSize) {
        why = "holds " + std::to_string(bytes.size()) + " bytes, less than its " + std::to_string(kHeaderSize) +
              "-byte header (truncated)";
        return std::nullopt;
    }
    if (std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) {
        why = "is not a Trainbench kernel cache entry";
        return std::nullopt;
    }
    if (bytes.compare(kMagicSize, kKeySize, key) != 0 || key.size() != kKeySize) {
        why = "was written for another program or device (its key differs)";
        return std::nullopt;
    }
    uint64_t n = 0;
    for (size_t i = 0; i < kLengthSize; ++i)
        n |= uint64_t(uint8_t(bytes[kMagicSize + kKeySize + i])) << (8 * i);
    const uint64_t present = bytes.size() - kHeaderSize;
    if (n != present) {
        why = "holds " + std::to_string(present) + " bytes of a " + std::to_string(n) + "-byte binary" +
              (present < n ? " (truncated)" : "");
        return std::nullopt;
    }
    std::string binary = bytes.substr(kHeaderSize);
    if (digestOf(binary, 0) != bytes.substr(kMagicSize + kKeySize + kLengthSize, kHashSize)) {
        why = "holds a binary whose SHA-256 differs from the one recorded (damaged)";
        return std::nullopt;
    }
    why.clear();
    return binary;
}

} // namespace tb
