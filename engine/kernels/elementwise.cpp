// Elementwise and small-window kernels: activations, dropout, max pooling, the optimizers' updates
// and the finiteness checks and gradient sums around them. Plain loops the compiler vectorizes at
// each level's width; every element's arithmetic is the same at every level.
#include "kernels/exp_poly.hpp"
#include "kernels/isa_kernels.hpp"

#include <cmath>

namespace tb::TB_ISA {

namespace {
// MurmurHash3's 32-bit finalizer: 32-bit multiplies, so the mask loops vectorize.
inline uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    return h ^ (h >> 16);
}

// Up to 8 outputs of a 2x2/2 window row: r0 is the window's top-left input, index0 its index in
// the plane. The max and the index of the first maximum (strict >, so ties keep the first) are
// selected lane by lane: random data mispredicts half of any branches.
inline void pool2x2Block(const float* r0, int W, int32_t index0, int count, float* y, int32_t* arg)
{
    // Only the windows' floats: the row may end right after them.
    const int first = 2 * count < 8 ? 2 * count : 8, second = 2 * count - first;
    const Floats8 top[2] = {loadFirst(r0, first), loadFirst(r0 + 8, second)};
    const Floats8 bottom[2] = {loadFirst(r0 + W, first), loadFirst(r0 + W + 8, second)};
    const Ints8 even = {0, 2, 4, 6, 8, 10, 12, 14};
    // Constant indices (__builtin_shufflevector, which GCC and clang both have).
    const Floats8 v[4] = {__builtin_shufflevector(top[0], top[1], 0, 2, 4, 6, 8, 10, 12, 14),
                          __builtin_shufflevector(top[0], top[1], 1, 3, 5, 7, 9, 11, 13, 15),
                          __builtin_shufflevector(bottom[0], bottom[1], 0, 2, 4, 6, 8, 10, 12, 14),
                          __builtin_shufflevector(bottom[0], bottom[1], 1, 3, 5, 7, 9, 11, 13, 15)};
    const Ints8 topLeft = index0 + even;
    const int32_t offset[4] = {0, 1, W, W + 1};
    Floats8 best = v[0];
    Ints8 at = topLeft;
    for (int k = 1; k < 4; ++k) {
        const Ints8 more = v[k] > best;
        at = more ? topLeft + offset[k] : at;
        best = more ? v[k] : best;
    }
    storeFirst(y, best, count);
    if (arg)
        storeFirst(arg, at, count);
}

// The common 2x2/2 window without padding.
bool fastWindow(const ConvGeometry& g)
{
    return g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.padTop == 0 && g.padLeft == 0 && 2 * g.ho <= g.h &&
           2 * g.wo <= g.w;
}
} // namespace

void activate(Activation a, float* v, int64_t n)
{
    switch (a) {
    case Activation::Linear:
    case Activation::Softmax: // fused into the loss
        return;
    case Activation::ReLU:
        for (int64_t i = 0; i < n; ++i)
            v[i] = v[i] < 0.0f ? 0.0f : v[i]; // std::max(v, 0): NaN and -0 pass through
        return;
    case Activation::ELU:
        // Branch-free so that it vectorizes: exp is computed for every lane, of min(x, 0).
        for (int64_t i = 0; i < n; ++i) {
            const float x = v[i];
            const float e = expPoly(x < 0.0f ? x : 0.0f) - 1.0f; // exp(x) - 1 (std::expm1 is a libm call)
            v[i] = x > 0.0f ? x : e;
        }
        return;
    }
}

void activationBackward(Activation a, const float* y, float* dy, int64_t n)
{
    switch (a) {
    case Activation::Linear:
    case Activation::Softmax:
        return;
    case Activation::ReLU:
        for (int64_t i = 0; i < n; ++i)
            dy[i] = y[i] > 0.0f ? dy[i] : 0.0f;
        return;
    case Activation::ELU:
        // For x <= 0, y = e^x - 1, so dy/dx = y + 1.
        for (int64_t i = 0; i < n; ++i)
            dy[i] = y[i] > 0.0f ? dy[i] : dy[i] * (y[i] + 1.0f);
        return;
    }
}

void rowBiasActivate(Activation a, float* y, int rows, int64_t ld, int j0, int j1, const float* bias)
{
    for (int i = 0; i < rows; ++i) {
        float* row = y + i * ld;
        if (bias)
            for (int j = j0; j < j1; ++j)
                row[j] += bias[j];
        activate(a, row + j0, j1 - j0);
    }
}

void dropout(const kernel::DropoutShard& d, const float* in, float* out)
{
    for (int i = 0; i < d.n; ++i) {
        const uint32_t sampleKey = d.sampleKeys[i];
        for (int c = 0; c < d.channels; ++c) {
            const int64_t base = d.spatial ? (int64_t(c) * d.n + i) * d.plane : int64_t(i) * d.plane;
            const uint32_t first = uint32_t(c) * uint32_t(d.plane);
            const float* x = in + base;
            float* y = out + base;
            for (int64_t j = 0; j < d.plane; ++j) {
                // Kept when the hash's top 24 bits, as a fraction of 2^24, are at least the rate.
                const uint32_t h = mix32(sampleKey + (first + uint32_t(j)) * 0x9E3779B9u);
                const float v = x[j] * d.scale;
                y[j] = (h >> 8) >= d.threshold ? v : 0.0f;
            }
        }
    }
}

void maxPool(const ConvGeometry& g, const float* xs, float* ys, int32_t* arg, int64_t planes)
{
    const int H = g.h, W = g.w, Ho = g.ho, Wo = g.wo;
    if (fastWindow(g)) {
        // Without bounds checks. Ties keep the first, as below.
        for (int64_t p = 0; p < planes; ++p) {
            const float* x = xs + p * H * W;
            float* y = ys + p * Ho * Wo;
            int32_t* a = arg ? arg + p * Ho * Wo : nullptr;
            for (int oy = 0; oy < Ho; ++oy) {
                const float* r0 = x + 2 * oy * W;
                // Eight outputs at a time; a row whose width is not a multiple of 8 ends with a
                // block that overlaps the one before (narrower rows: one partial block).
                for (int ox = 0; ox < Wo; ox += 8) {
                    const int o = Wo >= 8 ? (ox < Wo - 8 ? ox : Wo - 8) : 0;
                    const int count = Wo - o < 8 ? Wo - o : 8;
                    pool2x2Block(r0 + 2 * o, W, 2 * oy * W + 2 * o, count, y + oy * Wo + o,
                                 a ? a + oy * Wo + o : nullptr);
                }
            }
        }
        return;
    }
    for (int64_t p = 0; p < planes; ++p) {
        const float* x = xs + p * H * W;
        float* y = ys + p * Ho * Wo;
        int32_t* a = arg ? arg + p * Ho * Wo : nullptr;
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox) {
                float best = -__builtin_inff();
                int32_t at = -1;
                const int y0 = oy * g.sh - g.padTop, x0 = ox * g.sw - g.padLeft;
                for (int ky = 0; ky < g.kh; ++ky) {
                    const int iy = y0 + ky;
                    if (iy < 0 || iy >= H)
                        continue;
                    for (int kx = 0; kx < g.kw; ++kx) {
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
                if (a)
                    a[oy * Wo + ox] = at;
            }
    }
}

// Keras: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; p -= lr_t * m / (sqrt(v) + eps).
void adam(const kernel::UpdateRule& r, const float* p, const float* g, const float* slots, float* next, float* out,
          int64_t lo, int64_t hi)
{
    const float lr = r.rate, b1 = r.beta1, b2 = r.beta2, eps = r.epsilon;
    const int64_t n = r.stride;
    for (int64_t i = lo; i < hi; ++i) {
        const float m = b1 * slots[i] + (1.0f - b1) * g[i];
        const float v = b2 * slots[n + i] + (1.0f - b2) * g[i] * g[i];
        next[i] = m;
        next[n + i] = v;
        out[i] = p[i] - lr * m / (std::sqrt(v) + eps);
    }
}

// Keras: v = momentum * v - lr * g; p += v (Nesterov: p += momentum * v - lr * g).
void sgd(const kernel::UpdateRule& r, const float* p, const float* g, const float* slots, float* next, float* out,
         int64_t lo, int64_t hi)
{
    const float lr = r.rate, mom = r.momentum;
    for (int64_t i = lo; i < hi; ++i) {
        const float vel = mom * slots[i] - lr * g[i];
        next[i] = vel;
        out[i] = p[i] + (r.nesterov ? mom * vel - lr * g[i] : vel);
    }
}

// Keras: ms = rho * ms + (1 - rho) * g^2; p -= lr * g / (sqrt(ms) + eps).
void rmsprop(const kernel::UpdateRule& r, const float* p, const float* g, const float* slots, float* next, float* out,
             int64_t lo, int64_t hi)
{
    const float lr = r.rate, rho = r.rho, eps = r.epsilon;
    for (int64_t i = lo; i < hi; ++i) {
        const float ms = rho * slots[i] + (1.0f - rho) * g[i] * g[i];
        next[i] = ms;
        out[i] = p[i] - lr * g[i] / (std::sqrt(ms) + eps);
    }
}

// Exponent bits not all ones, in a loop that vectorizes.
bool allFinite(const float* v, int64_t n)
{
    uint32_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, v + i, sizeof bits);
        bad |= uint32_t((bits & 0x7F800000u) == 0x7F800000u);
    }
    return bad == 0;
}

void accumulateAndClear(float* dst, float* src, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; ++i) {
        dst[i] += src[i];
        src[i] = 0.0f;
    }
}

} // namespace tb::TB_ISA
