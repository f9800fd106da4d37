// SHA-256, used to fingerprint trained weights (same seed -> same hash on any thread count).
// A short, test-vector-checked implementation (tst_core) instead of linking OpenSSL: the engine only
// hashes its own buffers, never outside input, and stays at two dependencies (Eigen, zlib).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tb {

class Sha256 {
public:
    Sha256();
    void update(const void* data, size_t len);
    std::array<uint8_t, 32> digest();
    std::string hexDigest();

private:
    void block(const uint8_t* p);
    uint32_t m_h[8];
    uint8_t m_buf[64];
    size_t m_bufLen = 0;
    uint64_t m_total = 0;
};

// The hex SHA-256 of `bytes` (a file's, for the run record and the report).
std::string sha256Hex(const std::string& bytes);

} // namespace tb
