#include "layers/max_pool.hpp"

#include "layers/conv_geometry.hpp"

#include <cstdint>
#include <cstring>

namespace tb {

MaxPool2D::MaxPool2D(std::string name, Shape in, int ph, int pw, int sh, int sw, bool same)
    : Layer(std::move(name), in, in), m_ph(ph), m_pw(pw), m_sh(sh), m_sw(sw)
{
    int ho, wo;
    kerasPadding(same, in.h, ph, sh, ho, m_padTop);
    kerasPadding(same, in.w, pw, sw, wo, m_padLeft);
    m_out = Shape::image(ho, wo, in.c);
}

void MaxPool2D::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    const ConvGeometry g{m_in.c, m_in.h, m_in.w, m_in.c, m_out.h, m_out.w, m_ph, m_pw, m_sh, m_sw, m_padTop, m_padLeft};
    int32_t* arg = ctx.training ? reinterpret_cast<int32_t*>(s.cache) : nullptr;
    ctx.kernels->maxPool(g, s.x, s.y, arg, int64_t(m_in.c) * s.n);
}

void MaxPool2D::backward(const PassContext&, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t HW = m_in.plane(), OHW = m_out.plane();
    const int64_t planes = int64_t(m_in.c) * s.n;
    const auto* arg = reinterpret_cast<const int32_t*>(s.cache);
    std::memset(s.dx, 0, sizeof(float) * size_t(planes * HW));
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t j = 0; j < OHW; ++j)
            s.dx[p * HW + arg[p * OHW + j]] += s.dy[p * OHW + j];
}

} // namespace tb
