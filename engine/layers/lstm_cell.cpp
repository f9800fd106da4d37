#include "layers/lstm_cell.hpp"

#include "kernels/exp_poly.hpp"

namespace tb {

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
} // namespace

void lstmCell(const LstmStep& s, float* z, float* c, float* h)
{
    const int H = s.units;
    for (int i = 0; i < s.n; ++i) {
        float* zi = z + i * s.zStride;
        const float* cp = s.cPrev ? s.cPrev + i * s.cPrevStride : nullptr;
        float* ci = c + i * s.cStride;
        float* hi = h + i * s.hStride;
        for (int j = 0; j < H; ++j) {
            const float gi = sigmoid(zi[j]), gf = sigmoid(zi[H + j]), gg = tanhPoly(zi[2 * H + j]),
                        go = sigmoid(zi[3 * H + j]);
            zi[j] = gi;
            zi[H + j] = gf;
            zi[2 * H + j] = gg;
            zi[3 * H + j] = go;
            const float cn = gf * (cp ? cp[j] : 0.0f) + gi * gg;
            ci[j] = cn;
            hi[j] = go * tanhPoly(cn);
        }
    }
}

void lstmCellBackward(const LstmStep& s, float* z, const float* c, const float* dy, int64_t dyStride, float* dh,
                      float* dc)
{
    const int H = s.units;
    for (int i = 0; i < s.n; ++i) {
        float* g4 = z + i * s.zStride;
        const float* ct = c + i * s.cStride;
        const float* cp = s.cPrev ? s.cPrev + i * s.cPrevStride : nullptr;
        const float* dyi = dy ? dy + i * dyStride : nullptr;
        float* dhi = dh + int64_t(i) * H;
        float* dci = dc + int64_t(i) * H;
        for (int j = 0; j < H; ++j) {
            const float gi = g4[j], gf = g4[H + j], gg = g4[2 * H + j], go = g4[3 * H + j];
            const float dht = dhi[j] + (dyi ? dyi[j] : 0.0f);
            const float tc = tanhPoly(ct[j]);
            const float dct = dci[j] + dht * go * (1.0f - tc * tc);
            const float cPrev = cp ? cp[j] : 0.0f;
            dci[j] = dct * gf;
            g4[j] = dct * gg * gi * (1.0f - gi);
            g4[H + j] = dct * cPrev * gf * (1.0f - gf);
            g4[2 * H + j] = dct * gi * (1.0f - gg * gg);
            g4[3 * H + j] = dht * tc * go * (1.0f - go);
        }
    }
}

} // namespace tb
