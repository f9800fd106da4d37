#include "layers/max_pool.hpp"

#include "layers/conv2d.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

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
    const int H = m_in.h, W = m_in.w, Ho = m_out.h, Wo = m_out.w;
    const int64_t planes = int64_t(m_in.c) * s.n;
    auto* arg = reinterpret_cast<int32_t*>(s.cache);
    if (m_ph == 2 && m_pw == 2 && m_sh == 2 && m_sw == 2 && m_padTop == 0 && m_padLeft == 0 && 2 * Ho <= H &&
        2 * Wo <= W) {
        // The common 2x2/2 window, without bounds checks. Ties keep the first, as below.
        for (int64_t p = 0; p < planes; ++p) {
            const float* x = s.x + p * H * W;
            float* y = s.y + p * Ho * Wo;
            int32_t* a = ctx.training ? arg + p * Ho * Wo : nullptr;
            for (int oy = 0; oy < Ho; ++oy) {
                const float* r0 = x + 2 * oy * W;
                const float* r1 = r0 + W;
                for (int ox = 0; ox < Wo; ++ox) {
                    const int c = 2 * ox;
                    float best = r0[c];
                    int32_t at = 2 * oy * W + c;
                    if (r0[c + 1] > best) {
                        best = r0[c + 1];
                        at = 2 * oy * W + c + 1;
                    }
                    if (r1[c] > best) {
                        best = r1[c];
                        at = (2 * oy + 1) * W + c;
                    }
                    if (r1[c + 1] > best) {
                        best = r1[c + 1];
                        at = (2 * oy + 1) * W + c + 1;
                    }
                    y[oy * Wo + ox] = best;
                    if (a)
                        a[oy * Wo + ox] = at;
                }
            }
        }
        return;
    }
    for (int64_t p = 0; p < planes; ++p) {
        const float* x = s.x + p * H * W;
        float* y = s.y + p * Ho * Wo;
        int32_t* a = arg ? arg + p * Ho * Wo : nullptr;
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox) {
                float best = -std::numeric_limits<float>::infinity();
                int32_t at = -1;
                const int y0 = oy * m_sh - m_padTop, x0 = ox * m_sw - m_padLeft;
                for (int ky = 0; ky < m_ph; ++ky) {
                    const int iy = y0 + ky;
                    if (iy < 0 || iy >= H)
                        continue;
                    for (int kx = 0; kx < m_pw; ++kx) {
                        const int ix = x0 + kx;
                        if (ix < 0 || ix >= W)
                            continue;
                        const float v = x[iy * W + ix];
                        if (v > best || at < 0) {
                            best = v;
                            at = iy * W + ix;
                        }
                    }
                }
                y[oy * Wo + ox] = best;
                if (ctx.training)
                    a[oy * Wo + ox] = at;
            }
    }
}

void MaxPool2D::backward(const PassContext&, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t HW = m_in.plane(), OHW = m_out.plane();
    const int64_t planes = int64_t(m_in.c) * s.n;
    std::memset(s.dx, 0, sizeof(float) * size_t(planes * HW));
    const auto* arg = reinterpret_cast<const int32_t*>(s.cache);
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t j = 0; j < OHW; ++j)
            s.dx[p * HW + arg[p * OHW + j]] += s.dy[p * OHW + j];
}

}  // namespace tb
