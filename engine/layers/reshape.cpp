#include "layers/reshape.hpp"

#include <cstring>
#include <vector>

namespace tb {

void spatialToFlat(Shape in, int n, const float* src, float* dst)
{
    const int64_t plane = in.plane(), F = in.size();
    for (int c = 0; c < in.c; ++c)
        for (int i = 0; i < n; ++i) {
            const float* p = src + (int64_t(c) * n + i) * plane;
            float* q = dst + int64_t(i) * F + c;
            for (int64_t j = 0; j < plane; ++j)
                q[j * in.c] = p[j];
        }
}

void flatToSpatial(Shape out, int n, const float* src, float* dst)
{
    const int64_t plane = out.plane(), F = out.size();
    for (int c = 0; c < out.c; ++c)
        for (int i = 0; i < n; ++i) {
            const float* q = src + int64_t(i) * F + c;
            float* p = dst + (int64_t(c) * n + i) * plane;
            for (int64_t j = 0; j < plane; ++j)
                p[j] = q[j * out.c];
        }
}

namespace {
// Moves a shard from shape `from` to shape `to` (same size) through the channels-last order.
void convert(Shape from, Shape to, int n, const float* src, float* dst)
{
    if (!from.spatial && !to.spatial) {
        std::memcpy(dst, src, sizeof(float) * size_t(n * from.size()));
    } else if (from.spatial && !to.spatial) {
        spatialToFlat(from, n, src, dst);
    } else if (!from.spatial && to.spatial) {
        flatToSpatial(to, n, src, dst);
    } else {
        std::vector<float> tmp(size_t(n * from.size()));
        spatialToFlat(from, n, src, tmp.data());
        flatToSpatial(to, n, tmp.data(), dst);
    }
}
}  // namespace

void Reshape::forward(const PassContext&, int, ShardView& s, float*) { convert(m_in, m_out, s.n, s.x, s.y); }

void Reshape::backward(const PassContext&, int, ShardView& s, float*)
{
    if (s.dx)
        convert(m_out, m_in, s.n, s.dy, s.dx);
}

}  // namespace tb
