#include "layers/winograd.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tb::winograd {

namespace {
// F(2, 5) on the points 0, 1, -1, 2, -2 and infinity (exact in binary except G's sixths).
constexpr float BT[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                            {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constexpr float G[6][5] = {{1.0f / 4, 0, 0, 0, 0},
                           {-1.0f / 6, -1.0f / 6, -1.0f / 6, -1.0f / 6, -1.0f / 6},
                           {-1.0f / 6, 1.0f / 6, -1.0f / 6, 1.0f / 6, -1.0f / 6},
                           {1.0f / 24, 1.0f / 12, 1.0f / 6, 1.0f / 3, 2.0f / 3},
                           {1.0f / 24, -1.0f / 12, 1.0f / 6, -1.0f / 3, 2.0f / 3},
                           {0, 0, 0, 0, 1}};
constexpr float AT[2][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 1}};

template <int R, int C>
struct Mat {
    float v[R][C];
};
template <int R, int C>
constexpr Mat<C, R> transpose(const float (&m)[R][C])
{
    Mat<C, R> t{};
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            t.v[c][r] = m[r][c];
    return t;
}
constexpr Mat<6, 2> A = transpose(AT);
constexpr Mat<5, 6> GT = transpose(G);

// out[r][s] = sum_k sum_t L[r][k] in[k][t] Rm[s][t], for kLanes independent lanes:
// in is [K][T][lanes], out is [R][S][lanes].
template <int R, int K, int S, int T>
[[gnu::always_inline]] inline void sandwich(const float (&L)[R][K], const float (&Rm)[S][T], const float* in,
                                            float* out)
{
    // Fully unrolled, so the constant coefficients become immediates and the zeros drop out.
    float tmp[R][T][kLanes];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int t = 0; t < T; ++t) {
            float acc[kLanes] = {};
#pragma GCC unroll 8
            for (int k = 0; k < K; ++k) {
                const float c = L[r][k];
                if (c == 0.0f)
                    continue;
                const float* src = in + (k * T + t) * kLanes;
                for (int l = 0; l < kLanes; ++l)
                    acc[l] += c * src[l];
            }
            for (int l = 0; l < kLanes; ++l)
                tmp[r][t][l] = acc[l];
        }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
        for (int s = 0; s < S; ++s) {
            float acc[kLanes] = {};
#pragma GCC unroll 8
            for (int t = 0; t < T; ++t) {
                const float c = Rm[s][t];
                if (c == 0.0f)
                    continue;
                for (int l = 0; l < kLanes; ++l)
                    acc[l] += c * tmp[r][t][l];
            }
            for (int l = 0; l < kLanes; ++l)
                out[(r * S + s) * kLanes + l] = acc[l];
        }
}

// A zero-padded channels-last copy of one image: [rows][cols][C] with `pad` zero pixels before
// and enough after that every tile reads inside it. Per thread, allocated once.
struct Hwc {
    int rows = 0, cols = 0, channels = 0;
    float* data = nullptr;
    const float* at(int y, int x) const { return data + (int64_t(y) * cols + x) * channels; }
};
Hwc toHwc(const TileGrid& g, const float* x, int channels, int n, int sample, int pad)
{
    thread_local std::vector<float> buffer;
    Hwc h;
    // Every tile reads rows ty*2 .. ty*2+5; the image itself sits at (pad, pad).
    h.rows = (g.tilesH - 1) * kOut + kTile;
    h.cols = (g.tilesW - 1) * kOut + kTile;
    h.channels = channels;
    const size_t size = size_t(h.rows) * h.cols * channels;
    if (buffer.size() < size)
        buffer.resize(size);
    h.data = buffer.data();
    std::fill(buffer.begin(), buffer.begin() + int64_t(size), 0.0f);
    const int64_t hw = int64_t(g.h) * g.w;
    for (int c = 0; c < channels; ++c) {
        const float* img = x + (int64_t(c) * n + sample) * hw;
        for (int y = 0; y < g.h; ++y)
            for (int xx = 0; xx < g.w; ++xx)
                h.data[(int64_t(y + pad) * h.cols + xx + pad) * channels + c] = img[y * g.w + xx];
    }
    return h;
}
}  // namespace

void transformInput(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V)
{
    const int64_t P = g.tiles(cn);
    float d[kElems * kLanes];
    float v[kElems * kLanes];
    int64_t p = 0;
    for (int s = 0; s < cn; ++s) {
        const Hwc img = toHwc(g, x, channels, n, s0 + s, kPad);
        for (int ty = 0; ty < g.tilesH; ++ty)
            for (int tx = 0; tx < g.tilesW; ++tx, ++p)
                for (int c0 = 0; c0 < channels; c0 += kLanes) {
                    for (int i = 0; i < kTile; ++i)
                        for (int j = 0; j < kTile; ++j)
                            std::memcpy(d + (i * kTile + j) * kLanes, img.at(ty * kOut + i, tx * kOut + j) + c0,
                                        sizeof(float) * kLanes);
                    sandwich(BT, BT, d, v);
                    for (int e = 0; e < kElems; ++e)
                        std::memcpy(V + (int64_t(e) * P + p) * channels + c0, v + e * kLanes, sizeof(float) * kLanes);
                }
    }
}

void transformKernel(const float* w, int cout, int cin, bool transposed, float* U)
{
    constexpr int kk = kKernel * kKernel;
    float gk[kk * kLanes];
    float u[kElems * kLanes];
    for (int co = 0; co < cout; ++co)
        for (int ci0 = 0; ci0 < cin; ci0 += kLanes) {
            const int lanes = std::min(kLanes, cin - ci0);
            for (int l = 0; l < kLanes; ++l)
                for (int k = 0; k < kk; ++k) {
                    // dX correlates with the kernel rotated by 180 degrees.
                    const int src = transposed ? kk - 1 - k : k;
                    gk[k * kLanes + l] = l < lanes ? w[(int64_t(co) * cin + ci0 + l) * kk + src] : 0.0f;
                }
            sandwich(G, G, gk, u);
            for (int e = 0; e < kElems; ++e)
                for (int l = 0; l < lanes; ++l) {
                    const int ci = ci0 + l;
                    const int64_t at = transposed ? (int64_t(e) * cin + ci) * cout + co : (int64_t(e) * cout + co) * cin + ci;
                    U[at] = u[e * kLanes + l];
                }
        }
}

void transformOutput(const TileGrid& g, const float* M, int channels, int n, int s0, int cn, float* y)
{
    const int64_t P = g.tiles(cn);
    const int64_t hw = int64_t(g.h) * g.w;
    float m[kElems * kLanes];
    float o[kOut * kOut * kLanes];
    int64_t p = 0;
    for (int s = 0; s < cn; ++s)
        for (int ty = 0; ty < g.tilesH; ++ty)
            for (int tx = 0; tx < g.tilesW; ++tx, ++p)
                for (int c0 = 0; c0 < channels; c0 += kLanes) {
                    for (int e = 0; e < kElems; ++e)
                        std::memcpy(m + e * kLanes, M + (int64_t(e) * P + p) * channels + c0, sizeof(float) * kLanes);
                    sandwich(AT, AT, m, o);
                    const int oy = ty * kOut, ox = tx * kOut;
                    for (int i = 0; i < kOut && oy + i < g.h; ++i)
                        for (int j = 0; j < kOut && ox + j < g.w; ++j) {
                            const float* src = o + (i * kOut + j) * kLanes;
                            float* dst = y + (int64_t(c0) * n + s0 + s) * hw + (oy + i) * g.w + ox + j;
                            for (int l = 0; l < kLanes; ++l)
                                dst[int64_t(l) * n * hw] = src[l];
                        }
                }
}

void transformOutputGradient(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z)
{
    const int64_t P = g.tiles(cn);
    float d[kOut * kOut * kLanes];
    float z[kElems * kLanes];
    int64_t p = 0;
    for (int s = 0; s < cn; ++s) {
        // No padding: a tile's 2x2 outputs start at its corner; past the edge the copy is zero.
        const Hwc img = toHwc(g, dy, channels, n, s0 + s, 0);
        for (int ty = 0; ty < g.tilesH; ++ty)
            for (int tx = 0; tx < g.tilesW; ++tx, ++p)
                for (int c0 = 0; c0 < channels; c0 += kLanes) {
                    for (int i = 0; i < kOut; ++i)
                        for (int j = 0; j < kOut; ++j)
                            std::memcpy(d + (i * kOut + j) * kLanes, img.at(ty * kOut + i, tx * kOut + j) + c0,
                                        sizeof(float) * kLanes);
                    sandwich(A.v, A.v, d, z);
                    for (int e = 0; e < kElems; ++e)
                        std::memcpy(Z + (int64_t(e) * P + p) * channels + c0, z + e * kLanes, sizeof(float) * kLanes);
                }
    }
}

void kernelGradient(const float* dU, int cout, int cin, float* dW)
{
    constexpr int kk = kKernel * kKernel;
    float u[kElems * kLanes];
    float gk[kk * kLanes];
    for (int co = 0; co < cout; ++co)
        for (int ci0 = 0; ci0 < cin; ci0 += kLanes) {
            const int lanes = std::min(kLanes, cin - ci0);
            for (int e = 0; e < kElems; ++e)
                for (int l = 0; l < kLanes; ++l)
                    u[e * kLanes + l] = l < lanes ? dU[(int64_t(e) * cout + co) * cin + ci0 + l] : 0.0f;
            sandwich(GT.v, GT.v, u, gk);
            for (int l = 0; l < lanes; ++l) {
                float* dst = dW + (int64_t(co) * cin + ci0 + l) * kk;
                for (int k = 0; k < kk; ++k)
                    dst[k] += gk[k * kLanes + l];
            }
        }
}

}  // namespace tb::winograd
