#include "layers/dropout.hpp"

#include <cstring>

namespace tb {

template <typename F>
void Dropout::forEachMask(const PassContext& ctx, const ShardView& s, F f) const
{
    const uint64_t layerKey = hashKey(ctx.dropoutKey, uint64_t(m_layerIndex));
    // Flat tensors are one "channel" whose plane is the feature vector.
    const int channels = m_in.spatial ? m_in.c : 1;
    const int64_t plane = m_in.spatial ? m_in.plane() : m_in.size();
    for (int i = 0; i < s.n; ++i) {
        const uint64_t sampleKey = hashKey(layerKey, uint64_t(s.firstSample + i));
        for (int c = 0; c < channels; ++c) {
            const int64_t base = m_in.spatial ? (int64_t(c) * s.n + i) * plane : int64_t(i) * plane;
            for (int64_t j = 0; j < plane; ++j) {
                const uint64_t feature = uint64_t(c) * uint64_t(plane) + uint64_t(j);
                f(base + j, unitFloat(mix64(sampleKey + feature * 0x9E3779B97F4A7C15ull)) >= m_rate);
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
    forEachMask(ctx, s, [&](int64_t at, bool keep) { s.y[at] = keep ? s.x[at] * scale : 0.0f; });
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
    forEachMask(ctx, s, [&](int64_t at, bool keep) { s.dx[at] = keep ? s.dy[at] * scale : 0.0f; });
}

}  // namespace tb
