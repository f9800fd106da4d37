// The LSTM cell (kernels/kernels.hpp): loops over a row's H units that the compiler vectorizes at
// this level's width.
#include "kernels/exp_poly.hpp"
#include "kernels/isa_kernels.hpp"

namespace tb::TB_ISA {

namespace {
inline float sigmoid(float x)
{
    return 1.0f / (1.0f + expPoly(-x));
}
// tanh(x) = 1 - 2 / (exp(2x) + 1): exact limits at both ends.
inline float tanhPoly(float x)
{
    return 1.0f - 2.0f / (expPoly(2.0f * x) + 1.0f);
}

// One row of a step. The restrict pointers (a row's gate blocks, cell and output never overlap) let
// the compiler vectorize the loop, and each variant (with or without a previous cell, a dy) keeps
// the scalar expression, zero operands included: the same bits as one loop with those tests.
template <bool HasPrev>
void cellRow(int H, float* __restrict zi, float* __restrict zf, float* __restrict zg, float* __restrict zo,
             const float* __restrict cp, float* __restrict ci, float* __restrict hi)
{
    for (int j = 0; j < H; ++j) {
        const float gi = sigmoid(zi[j]), gf = sigmoid(zf[j]), gg = tanhPoly(zg[j]), go = sigmoid(zo[j]);
        zi[j] = gi;
        zf[j] = gf;
        zg[j] = gg;
        zo[j] = go;
        const float cn = gf * (HasPrev ? cp[j] : 0.0f) + gi * gg;
        ci[j] = cn;
        hi[j] = go * tanhPoly(cn);
    }
}

template <bool HasPrev, bool HasDy>
void cellBackwardRow(int H, float* __restrict zi, float* __restrict zf, float* __restrict zg, float* __restrict zo,
                     const float* __restrict ct, const float* __restrict cp, const float* __restrict dy,
                     float* __restrict dh, float* __restrict dc)
{
    for (int j = 0; j < H; ++j) {
        const float gi = zi[j], gf = zf[j], gg = zg[j], go = zo[j];
        const float dht = dh[j] + (HasDy ? dy[j] : 0.0f);
        const float tc = tanhPoly(ct[j]);
        const float dct = dc[j] + dht * go * (1.0f - tc * tc);
        const float cPrev = HasPrev ? cp[j] : 0.0f;
        dc[j] = dct * gf;
        zi[j] = dct * gg * gi * (1.0f - gi);
        zf[j] = dct * cPrev * gf * (1.0f - gf);
        zg[j] = dct * gi * (1.0f - gg * gg);
        zo[j] = dht * tc * go * (1.0f - go);
    }
}
} // namespace

void lstmCell(const kernel::LstmStep& s, float* z, float* c, float* h)
{
    const int H = s.units;
    for (int i = 0; i < s.n; ++i) {
        float* zi = z + i * s.zStride;
        float* ci = c + i * s.cStride;
        float* hi = h + i * s.hStride;
        if (s.cPrev)
            cellRow<true>(H, zi, zi + H, zi + 2 * H, zi + 3 * H, s.cPrev + i * s.cPrevStride, ci, hi);
        else
            cellRow<false>(H, zi, zi + H, zi + 2 * H, zi + 3 * H, nullptr, ci, hi);
    }
}

void lstmCellBackward(const kernel::LstmStep& s, float* z, const float* c, const float* dy, int64_t dyStride, float* dh,
                      float* dc)
{
    const int H = s.units;
    using Row = void (*)(int, float*, float*, float*, float*, const float*, const float*, const float*, float*, float*);
    const Row row = s.cPrev ? (dy ? &cellBackwardRow<true, true> : &cellBackwardRow<true, false>)
                            : (dy ? &cellBackwardRow<false, true> : &cellBackwardRow<false, false>);
    for (int i = 0; i < s.n; ++i) {
        float* g4 = z + i * s.zStride;
        row(H, g4, g4 + H, g4 + 2 * H, g4 + 3 * H, c + i * s.cStride, s.cPrev ? s.cPrev + i * s.cPrevStride : nullptr,
            dy ? dy + i * dyStride : nullptr, dh + int64_t(i) * H, dc + int64_t(i) * H);
    }
}

} // namespace tb::TB_ISA
