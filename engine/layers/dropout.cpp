#include "layers/dropout.hpp"

#include <cmath>
#include <cstring>

namespace tb {

namespace {
// MurmurHash3's 32-bit finalizer: 32-bit multiplies, so the mask loops vectorize (a 64-bit mix
// per element cost more than the rest of the layer).
inline uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    return h ^ (h >> 16);
}
} // namespace

Dropout::Dropout(std::string name, Shape in, float rate, int layerIndex)
    : Layer(std::move(name), in, in), m_rate(rate), m_layerIndex(layerIndex),
      m_threshold(uint32_t(std::ceil(double(rate) * 16777216.0)))
{
}

template <typename F> void Dropout::forEachMask(const PassContext& ctx, const ShardView& s, F f) const
{
    const uint64_t layerKey = hashKey(ctx.dropoutKey, uint64_t(m_layerIndex));
    // Flat tensors are one "channel" whose plane is the feature vector.
    const int channels = m_in.spatial ? m_in.c : 1;
    const int64_t plane = m_in.spatial ? m_in.plane() : m_in.size();
    const uint32_t threshold = m_threshold;
    for (int i = 0; i < s.n; ++i) {
        const uint32_t sampleKey = uint32_t(hashKey(layerKey, uint64_t(s.firstSample + i)));
        for (int c = 0; c < channels; ++c) {
            const int64_t base = m_in.spatial ? (int64_t(c) * s.n + i) * plane : int64_t(i) * plane;
            const uint32_t first = uint32_t(c) * uint32_t(plane);
            for (int64_t j = 0; j < plane; ++j) {
                // Kept when the hash's top 24 bits, as a fraction of 2^24, are at least the rate.
                const uint32_t h = mix32(sampleKey + (first + uint32_t(j)) * 0x9E3779B9u);
                f(base + j, (h >> 8) >= threshold);
            }
        }
    }
}

void Dropout::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    const int64_t n = int64_t(s.n) * m_in.size();
    if (!ctx.training || m_rate <= 0.0f) {
        std::memcpy(s.y, s.x, sizeof(float) * size_t(n));
        return;
    }
    const float scale = 1.0f / (1.0f - m_rate);
    // Plain pointers and an unconditional load, so the loop vectorizes.
    const float* x = s.x;
    float* y = s.y;
    forEachMask(ctx, s, [=](int64_t at, bool keep) {
        const float v = x[at] * scale;
        y[at] = keep ? v : 0.0f;
    });
}

void Dropout::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t n = int64_t(s.n) * m_in.size();
    if (m_rate <= 0.0f) {
        std::memcpy(s.dx, s.dy, sizeof(float) * size_t(n));
        return;
    }
    const float scale = 1.0f / (1.0f - m_rate);
    const float* dy = s.dy;
    float* dx = s.dx;
    forEachMask(ctx, s, [=](int64_t at, bool keep) {
        const float v = dy[at] * scale;
        dx[at] = keep ? v : 0.0f;
    });
}

} // namespace tb
