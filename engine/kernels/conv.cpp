// The convolution's im2col and col2im (the layout of Conv2D's GEMM path), its direct form for thin
// inputs (convDirect), and the bias and activation over channel planes.
#include "kernels/isa_kernels.hpp"

#include <algorithm>
#include <array>
#include <cassert>
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

#if TB_ISA_LEVEL == 2
namespace {
// convDirect's register block: kDirectRows output channels x two 16-lane vectors of pixels (12 x 32:
// 24 accumulators of the 32 registers, as gemm's block). AVX-512 only: at AVX2, 8-lane vectors
// and 16 registers (6 x 16) made it slower than im2col and gemm.
constexpr int kDirectLanes = 16, kDirectRows = 12, kDirectVectors = 2;
constexpr int kDirectPixels = kDirectLanes * kDirectVectors;
typedef float DirectVec __attribute__((vector_size(kDirectLanes * sizeof(float))));
typedef int DirectInts __attribute__((vector_size(kDirectLanes * sizeof(int))));

// Where a block's taps read: tap t of pixel block b, vector v reads x at the sample's plane + b's first
// pixel + offset[t] + 16 v, in the lanes of mask[(b * taps + t) * kDirectVectors + v], the pixels whose
// tap lies inside the image (masked loads touch no memory in the other lanes, which may lie outside
// x). The same for every sample and block of output channels.
struct DirectTaps {
    int taps = 0, blocks = 0;
    const int64_t* offset = nullptr;
    const __mmask16* mask = nullptr;
    const __mmask16* store = nullptr; // [b * kDirectVectors + v]: the pixels that exist
};

// R output channels (co0 ..) of pixel block b of one sample (img: its plane of channel 0; out: its
// outputs of channel co0): each accumulator one chain of multiply-adds in tap order from zero, as
// gemm's block computes an element of W * cols.
template <int R> void directBlock(const DirectTaps& t, int b, const float* w, const float* img, float* out, int64_t ldy)
{
    DirectVec acc[R][kDirectVectors];
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 2
        for (int v = 0; v < kDirectVectors; ++v)
            acc[r][v] = DirectVec{};
    const __mmask16* mask = t.mask + int64_t(b) * t.taps * kDirectVectors;
    const float* at = img + int64_t(b) * kDirectPixels;
    for (int k = 0; k < t.taps; ++k) {
        DirectVec in[kDirectVectors];
#pragma GCC unroll 2
        for (int v = 0; v < kDirectVectors; ++v)
            in[v] = DirectVec(_mm512_maskz_loadu_ps(mask[k * kDirectVectors + v], at + t.offset[k] + v * kDirectLanes));
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
            // `a - DirectVec{}`: a broadcast from memory, as in gemm's block.
            const float a = w[int64_t(r) * t.taps + k];
#pragma GCC unroll 2
            for (int v = 0; v < kDirectVectors; ++v)
                acc[r][v] = madd(a - DirectVec{}, in[v], acc[r][v]);
        }
    }
    const __mmask16* store = t.store + int64_t(b) * kDirectVectors;
    float* o = out + int64_t(b) * kDirectPixels;
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 2
        for (int v = 0; v < kDirectVectors; ++v)
            _mm512_mask_storeu_ps(o + r * ldy + v * kDirectLanes, store[v], __m512(acc[r][v]));
}

using DirectBlockFn = void (*)(const DirectTaps&, int, const float*, const float*, float*, int64_t);
template <size_t... I> constexpr std::array<DirectBlockFn, kDirectRows> directBlocks(std::index_sequence<I...>)
{
    return {{&directBlock<int(I) + 1>...}};
}
constexpr std::array<DirectBlockFn, kDirectRows> kDirectBlocks = directBlocks(std::make_index_sequence<kDirectRows>{});
} // namespace

void convDirect(const ConvGeometry& g, const float* w, const float* x, int n, int s0, int cn, float* y, int64_t ldy)
{
    assert(kernel::convDirectApplies(g));
    const int64_t hw = int64_t(g.h) * g.w;
    const int taps = int(g.k());
    DirectTaps t;
    t.taps = taps;
    t.blocks = int((hw + kDirectPixels - 1) / kDirectPixels);
    thread_local Scratch<int64_t> offsetScratch;
    thread_local Scratch<__mmask16> maskScratch;
    int64_t* offset = offsetScratch.get(taps);
    __mmask16* mask = maskScratch.get(int64_t(t.blocks) * (taps + 1) * kDirectVectors);
    __mmask16* store = mask + int64_t(t.blocks) * taps * kDirectVectors;
    for (int ci = 0, k = 0; ci < g.cin; ++ci)
        for (int ky = 0; ky < g.kh; ++ky)
            for (int kx = 0; kx < g.kw; ++kx, ++k)
                offset[k] = int64_t(ci) * n * hw + int64_t(ky - g.padTop) * g.w + (kx - g.padLeft);
    DirectInts lane;
    for (int l = 0; l < kDirectLanes; ++l)
        lane[l] = l;
    for (int b = 0; b < t.blocks; ++b)
        for (int v = 0; v < kDirectVectors; ++v) {
            const DirectInts q = int(b * kDirectPixels + v * kDirectLanes) + lane; // pixel index
            const DirectInts oy = q / g.w, ox = q % g.w, exists = q < int(hw);
            store[b * kDirectVectors + v] = _mm512_movepi32_mask(__m512i(exists));
            for (int ci = 0, k = 0; ci < g.cin; ++ci)
                for (int ky = 0; ky < g.kh; ++ky)
                    for (int kx = 0; kx < g.kw; ++kx, ++k) {
                        const DirectInts iy = oy + (ky - g.padTop), ix = ox + (kx - g.padLeft);
                        const DirectInts inside = exists & (iy >= 0) & (iy < g.h) & (ix >= 0) & (ix < g.w);
                        mask[(int64_t(b) * taps + k) * kDirectVectors + v] = _mm512_movepi32_mask(__m512i(inside));
                    }
        }
    t.offset = offset;
    t.mask = mask;
    t.store = store;
    // Output channels in balanced blocks (13: 7 + 6, not 12 + 1), as gemm's rows.
    const int rowBlocks = (g.cout + kDirectRows - 1) / kDirectRows;
    for (int s = 0; s < cn; ++s) {
        const float* img = x + int64_t(s0 + s) * hw;
        float* out = y + int64_t(s) * hw;
        for (int rb = 0; rb < rowBlocks; ++rb) {
            const int co0 = g.cout * rb / rowBlocks, rows = g.cout * (rb + 1) / rowBlocks - co0;
            for (int b = 0; b < t.blocks; ++b)
                kDirectBlocks[rows - 1](t, b, w + int64_t(co0) * taps, img, out + co0 * ldy, ldy);
        }
    }
}
#endif

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
