// The few pieces of the protobuf wire format the ONNX export needs: varints, 64-bit ints, floats,
// strings and nested messages, appended to a byte string in field order. Writing only (the engine
// never reads protobuf), so a hand-written encoder is smaller than depending on libprotobuf.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tb {

static_assert(std::endian::native == std::endian::little,
              "the exports write little-endian floats as they are in memory");

class ProtoWriter {
public:
    const std::string& bytes() const { return m_out; }

    void int64(int field, int64_t v)
    {
        tag(field, 0);
        varint(uint64_t(v));
    }
    void float32(int field, float v)
    {
        tag(field, 5);
        char b[4];
        std::memcpy(b, &v, 4);
        m_out.append(b, 4);
    }
    void string(int field, std::string_view s)
    {
        tag(field, 2);
        varint(s.size());
        m_out.append(s.data(), s.size());
    }
    void message(int field, const ProtoWriter& m) { string(field, m.bytes()); }

private:
    void tag(int field, int wireType) { varint((uint64_t(field) << 3) | uint64_t(wireType)); }
    void varint(uint64_t v)
    {
        while (v >= 0x80) {
            m_out += char((v & 0x7f) | 0x80);
            v >>= 7;
        }
        m_out += char(v);
    }
    std::string m_out;
};

} // namespace tb
