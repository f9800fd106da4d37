#include "layers/max_pool.hpp"

#include "core/simd.hpp"
#include "layers/conv2d.hpp"

#include <algorithm>

#include <cstdint>
#include <cstring>
#include <limits>

namespace tb {

namespace {
// Up to 8 outputs of a 2x2/2 window row: r0 is the window's top-left input, index0 its index in
// the plane. The max and the index of the first maximum (strict >, so ties keep the first) are
// selected lane by lane: random data mispredicts half of any branches.
inline void pool2x2Block(const float* r0, int W, int32_t index0, int count, float* y, int32_t* arg)
{
    Floats8 top[2] = {}, bottom[2] = {};
    if (count == 8) { // fixed-size copies become plain vector loads
        std::memcpy(top, r0, sizeof top);
        std::memcpy(bottom, r0 + W, sizeof bottom);
    } else { // only the windows stored: the row may end right after them
        std::memcpy(top, r0, sizeof(float) * size_t(2 * count));
        std::memcpy(bottom, r0 + W, sizeof(float) * size_t(2 * count));
    }
    const Ints8 even = {0, 2, 4, 6, 8, 10, 12, 14}, odd = even + 1;
    const Floats8 v[4] = {__builtin_shuffle(top[0], top[1], even), __builtin_shuffle(top[0], top[1], odd),
                          __builtin_shuffle(bottom[0], bottom[1], even), __builtin_shuffle(bottom[0], bottom[1], odd)};
    const Ints8 first = index0 + even;
    const int32_t offset[4] = {0, 1, W, W + 1};
    Floats8 best = v[0];
    Ints8 at = first;
    for (int k = 1; k < 4; ++k) {
        const Ints8 more = v[k] > best;
        at = more ? first + offset[k] : at;
        best = more ? v[k] : best;
    }
    if (count == 8) {
        std::memcpy(y, &best, sizeof best);
        if (arg)
            std::memcpy(arg, &at, sizeof at);
    } else {
        std::memcpy(y, &best, sizeof(float) * size_t(count));
        if (arg)
            std::memcpy(arg, &at, sizeof(int32_t) * size_t(count));
    }
}
} // namespace

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
    if (fastWindow()) {
        // The common 2x2/2 window, without bounds checks. Ties keep the first, as below.
        for (int64_t p = 0; p < planes; ++p) {
            const float* x = s.x + p * H * W;
            float* y = s.y + p * Ho * Wo;
            int32_t* a = ctx.training ? arg + p * Ho * Wo : nullptr;
            for (int oy = 0; oy < Ho; ++oy) {
                const float* r0 = x + 2 * oy * W;
                // Eight outputs at a time; a row whose width is not a multiple of 8 ends with a
                // block that overlaps the one before (narrower rows: one partial block).
                for (int ox = 0; ox < Wo; ox += 8) {
                    const int o = Wo >= 8 ? std::min(ox, Wo - 8) : 0;
                    pool2x2Block(r0 + 2 * o, W, 2 * oy * W + 2 * o, std::min(8, Wo - o), y + oy * Wo + o,
                                 a ? a + oy * Wo + o : nullptr);
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
    const auto* arg = reinterpret_cast<const int32_t*>(s.cache);
    std::memset(s.dx, 0, sizeof(float) * size_t(planes * HW));
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t j = 0; j < OHW; ++j)
            s.dx[p * HW + arg[p * OHW + j]] += s.dy[p * OHW + j];
}

} // namespace tb
