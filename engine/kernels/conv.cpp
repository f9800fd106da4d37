// The convolution's im2col and col2im (the layout of Conv2D's GEMM path), and the bias and
// activation over channel planes.
#include "kernels/isa_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace tb::TB_ISA {

namespace {
// Output columns ox in [lo, hi) whose input column ox * sw + off lies inside the image.
std::pair<int, int> insideColumns(const ConvGeometry& g, int off)
{
    int lo = off >= 0 ? 0 : (-off + g.sw - 1) / g.sw;
    int hi = g.w - off > 0 ? (g.w - off + g.sw - 1) / g.sw : 0;
    lo = std::min(lo, g.wo);
    hi = std::clamp(hi, lo, g.wo);
    return {lo, hi};
}

// One column row of a stride-1 convolution whose output is the size of its input: the image
// shifted by `shift` floats (ky and kx's offset), so one copy of the part that lies in the image,
// zero around it, then zero in the columns that wrapped around from the row before or after (ox
// outside [lo, hi)). The same values as row by row, without a libc call for every row of 28 pixels
// (im2col took 2.4% of tpu-mnist-cnn's evaluation, half of it in memmove).
void shiftedPlane(const float* img, int64_t hw, int w, int64_t shift, int lo, int hi, float* dst)
{
    const int64_t d0 = std::clamp<int64_t>(-shift, 0, hw), d1 = std::clamp<int64_t>(hw - shift, d0, hw);
    std::fill(dst, dst + d0, 0.0f);
    std::memcpy(dst + d0, img + d0 + shift, sizeof(float) * size_t(d1 - d0));
    std::fill(dst + d1, dst + hw, 0.0f);
    if (lo == 0 && hi == w)
        return;
    for (int64_t row = 0; row < hw; row += w) {
        std::fill(dst + row, dst + row + lo, 0.0f);
        std::fill(dst + row + hi, dst + row + w, 0.0f);
    }
}
} // namespace

void im2col(const ConvGeometry& g, const float* x, int n, int s0, int cn, float* cols)
{
    const int64_t hw = int64_t(g.h) * g.w;
    const int64_t ohw = int64_t(g.ho) * g.wo;
    const int64_t rowLen = int64_t(cn) * ohw;
    const bool shifted = g.sh == 1 && g.sw == 1 && g.ho == g.h && g.wo == g.w; // shiftedPlane
    for (int ci = 0; ci < g.cin; ++ci)
        for (int ky = 0; ky < g.kh; ++ky)
            for (int kx = 0; kx < g.kw; ++kx) {
                float* row = cols + ((int64_t(ci) * g.kh + ky) * g.kw + kx) * rowLen;
                const int off = kx - g.padLeft;
                const auto [oxLo, oxHi] = insideColumns(g, off);
                for (int s = 0; s < cn; ++s) {
                    const float* img = x + (int64_t(ci) * n + s0 + s) * hw;
                    if (shifted) {
                        shiftedPlane(img, hw, g.w, int64_t(ky - g.padTop) * g.w + off, oxLo, oxHi,
                                     row + int64_t(s) * ohw);
                        continue;
                    }
                    for (int oy = 0; oy < g.ho; ++oy) {
                        float* dst = row + int64_t(s) * ohw + int64_t(oy) * g.wo;
                        const int iy = oy * g.sh + ky - g.padTop;
                        if (iy < 0 || iy >= g.h) {
                            std::memset(dst, 0, sizeof(float) * size_t(g.wo));
                            continue;
                        }
                        const float* src = img + int64_t(iy) * g.w + off;
                        for (int ox = 0; ox < oxLo; ++ox)
                            dst[ox] = 0.0f;
                        if (g.sw == 1) {
                            std::memcpy(dst + oxLo, src + oxLo, sizeof(float) * size_t(oxHi - oxLo));
                        } else if (g.sw == 2) { // a constant stride vectorizes
                            for (int ox = oxLo; ox < oxHi; ++ox)
                                dst[ox] = src[ox * 2];
                        } else {
                            for (int ox = oxLo; ox < oxHi; ++ox)
                                dst[ox] = src[ox * g.sw];
                        }
                        for (int ox = oxHi; ox < g.wo; ++ox)
                            dst[ox] = 0.0f;
                    }
                }
            }
}

void col2im(const ConvGeometry& g, const float* cols, int n, int s0, int cn, float* dx)
{
    const int64_t hw = int64_t(g.h) * g.w;
    const int64_t ohw = int64_t(g.ho) * g.wo;
    const int64_t rowLen = int64_t(cn) * ohw;
    for (int ci = 0; ci < g.cin; ++ci)
        for (int ky = 0; ky < g.kh; ++ky)
            for (int kx = 0; kx < g.kw; ++kx) {
                const float* row = cols + ((int64_t(ci) * g.kh + ky) * g.kw + kx) * rowLen;
                const int off = kx - g.padLeft;
                const auto [oxLo, oxHi] = insideColumns(g, off);
                for (int s = 0; s < cn; ++s) {
                    float* img = dx + (int64_t(ci) * n + s0 + s) * hw;
                    for (int oy = 0; oy < g.ho; ++oy) {
                        const int iy = oy * g.sh + ky - g.padTop;
                        if (iy < 0 || iy >= g.h)
                            continue;
                        const float* src = row + int64_t(s) * ohw + int64_t(oy) * g.wo;
                        float* dst = img + int64_t(iy) * g.w + off;
                        if (g.sw == 2) { // a constant stride vectorizes
                            for (int ox = oxLo; ox < oxHi; ++ox)
                                dst[ox * 2] += src[ox];
                        } else {
                            for (int ox = oxLo; ox < oxHi; ++ox)
                                dst[ox * g.sw] += src[ox];
                        }
                    }
                }
            }
}

void channelBiasActivate(Activation a, float* y, int channels, int64_t len, int64_t ld, const float* bias)
{
    for (int c = 0; c < channels; ++c) {
        float* row = y + c * ld;
        if (bias) {
            const float b = bias[c];
            for (int64_t j = 0; j < len; ++j)
                row[j] += b;
        }
        activate(a, row, len);
    }
}

} // namespace tb::TB_ISA
