#include "layers/reshape.hpp"

#include <cstring>
#include <vector>

namespace tb {

// Per sample, the [C][plane] channel planes (rows n * plane apart) and the [plane][C] channels-last
// row are transposes of each other.
void spatialToFlat(const Kernels& k, Shape in, int n, const float* src, float* dst)
{
    const int64_t plane = in.plane();
    for (int i = 0; i < n; ++i)
        k.transpose(src + i * plane, in.c, plane, n * plane, dst + i * in.size(), in.c);
}

void flatToSpatial(const Kernels& k, Shape out, int n, const float* src, float* dst)
{
    const int64_t plane = out.plane();
    for (int i = 0; i < n; ++i)
        k.transpose(src + i * out.size(), plane, out.c, out.c, dst + i * plane, n * plane);
}

namespace {
// Moves a shard from shape `from` to shape `to` (same size) through the channels-last order.
void convert(const Kernels& k, Shape from, Shape to, int n, const float* src, float* dst)
{
    if (!from.spatial && !to.spatial) {
        std::memcpy(dst, src, sizeof(float) * size_t(n * from.size()));
    } else if (from.spatial && !to.spatial) {
        spatialToFlat(k, from, n, src, dst);
    } else if (!from.spatial && to.spatial) {
        flatToSpatial(k, to, n, src, dst);
    } else {
        std::vector<float> tmp(size_t(n * from.size()));
        spatialToFlat(k, from, n, src, tmp.data());
        flatToSpatial(k, to, n, tmp.data(), dst);
    }
}
} // namespace

void Reshape::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    convert(*ctx.kernels, m_in, m_out, s.n, s.x, s.y);
}

void Reshape::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (s.dx)
        convert(*ctx.kernels, m_out, m_in, s.n, s.dy, s.dx);
}

} // namespace tb
