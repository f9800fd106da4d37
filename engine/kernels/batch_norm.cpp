// BatchNorm's per-shard passes: the per-channel sums (in double, in a fixed order), the folded
// affine transform with its fused ReLU, and the input gradient. The reductions across shards and
// the per-channel constants stay in the layer (layers/batch_norm.cpp).
#include "kernels/isa_kernels.hpp"

#include <algorithm>

namespace tb::TB_ISA {

namespace {
typedef double Doubles8 __attribute__((vector_size(8 * sizeof(double))));

// sum over j < len of f(a[j], b[j]) -> (u, v), in double: eight lanes, each taking every eighth
// element in order, then the lanes in order (a fixed order, so the same on any thread count and
// at any level). f works on eight elements at a time (Floats8); the last block is padded with
// zeros, for which f must give zeros.
template <bool HasB, typename F> void laneSums(const float* a, const float* b, int64_t len, F f, double& su, double& sv)
{
    Doubles8 accU = {}, accV = {};
    auto add = [&](Floats8 va, Floats8 vb) {
        Floats8 u, v;
        f(va, vb, u, v);
        accU += __builtin_convertvector(u, Doubles8);
        accV += __builtin_convertvector(v, Doubles8);
    };
    int64_t j = 0;
    for (; j + 8 <= len; j += 8) {
        Floats8 va, vb = {};
        std::memcpy(&va, a + j, sizeof va);
        if constexpr (HasB)
            std::memcpy(&vb, b + j, sizeof vb);
        add(va, vb);
    }
    if (j < len) {
        Floats8 va = {}, vb = {};
        std::memcpy(&va, a + j, size_t(len - j) * sizeof(float));
        if constexpr (HasB)
            std::memcpy(&vb, b + j, size_t(len - j) * sizeof(float));
        add(va, vb);
    }
    su = 0.0;
    sv = 0.0;
    for (int l = 0; l < 8; ++l) {
        su += accU[l];
        sv += accV[l];
    }
}

// Per-channel sums of f over the shard into partial[0..2C); f(a, b, c, u, v) takes floats or Floats8.
template <typename F> void channelSums(const kernel::BnShard& s, const float* a, const float* b, F f, double* p)
{
    const int C = s.channels;
    for (int i = 0; i < 2 * C; ++i)
        p[i] = 0.0;
    if (s.spatial) {
        const int64_t len = int64_t(s.n) * s.plane;
        for (int c = 0; c < C; ++c) {
            auto fc = [&f, c](Floats8 x, Floats8 y, Floats8& u, Floats8& v) { f(x, y, c, u, v); };
            if (b)
                laneSums<true>(a + c * len, b + c * len, len, fc, p[c], p[C + c]);
            else
                laneSums<false>(a + c * len, nullptr, len, fc, p[c], p[C + c]);
        }
    } else {
        for (int i = 0; i < s.n; ++i)
            for (int c = 0; c < C; ++c) {
                float u, v;
                f(a[int64_t(i) * C + c], b ? b[int64_t(i) * C + c] : 0.0f, c, u, v);
                p[c] += u;
                p[C + c] += v;
            }
    }
}

template <bool Relu>
void affineLoop(const kernel::BnShard& s, const float* x, float* y, const float* mul, const float* add)
{
    const int C = s.channels;
    if (s.spatial) {
        const int64_t len = int64_t(s.n) * s.plane;
        for (int c = 0; c < C; ++c) {
            const float m = mul[c], a = add[c];
            const float* px = x + c * len;
            float* py = y + c * len;
            for (int64_t j = 0; j < len; ++j)
                py[j] = bnAffineOf<Relu>(px[j], m, a);
        }
    } else {
        for (int i = 0; i < s.n; ++i)
            for (int c = 0; c < C; ++c)
                y[int64_t(i) * C + c] = bnAffineOf<Relu>(x[int64_t(i) * C + c], mul[c], add[c]);
    }
}

// Relu: dy first goes through the fused ReLU's mask, recomputed from x (a select, so the loops
// still vectorize).
template <bool Relu>
void backwardSums(const kernel::BnShard& s, const kernel::BnChannels& ch, const float* dy, const float* x, double* p)
{
    const float *mean = ch.mean, *inv = ch.invStd, *mul = ch.mul, *add = ch.add;
    channelSums(
        s, dy, x,
        [=](auto d0, auto xv, int c, auto& u, auto& v) {
            using V = decltype(d0); // float, or Floats8 in the spatial layout
            const V d = Relu ? V(xv * mul[c] + add[c] > V{} ? d0 : V{}) : d0;
            u = d;
            v = d * (xv - mean[c]) * inv[c];
        },
        p);
}

// dx = gamma * invStd * (d - mean(d) - xhat * mean(d * xhat)), with one channel's constants read
// once (so the spatial loop vectorizes).
template <bool Relu>
void backwardDx(const kernel::BnShard& s, const kernel::BnChannels& ch, const float* dys, const float* xs, float* dxs)
{
    struct ChannelDx {
        float k, mean, inv, dMean, dXhat, mul, add;
        float operator()(float dy, float x) const
        {
            const float d = Relu ? (x * mul + add > 0.0f ? dy : 0.0f) : dy;
            return k * (d - dMean - (x - mean) * inv * dXhat);
        }
    };
    auto channelDx = [&](int c) {
        return ChannelDx{ch.dxScale[c], ch.mean[c], ch.invStd[c], ch.dMean[c], ch.dXhat[c], ch.mul[c], ch.add[c]};
    };
    const int C = s.channels;
    if (s.spatial) {
        const int64_t len = int64_t(s.n) * s.plane;
        for (int c = 0; c < C; ++c) {
            const ChannelDx f = channelDx(c);
            const float* dy = dys + c * len;
            const float* x = xs + c * len;
            float* dx = dxs + c * len;
            for (int64_t j = 0; j < len; ++j)
                dx[j] = f(dy[j], x[j]);
        }
    } else {
        for (int c = 0; c < C; ++c) {
            const ChannelDx f = channelDx(c);
            for (int i = 0; i < s.n; ++i) {
                const int64_t j = int64_t(i) * C + c;
                dxs[j] = f(dys[j], xs[j]);
            }
        }
    }
}
} // namespace

void bnSums(const kernel::BnShard& s, const float* x, double* partial)
{
    channelSums(
        s, x, nullptr,
        [](auto xv, auto, int, auto& u, auto& v) {
            u = xv;
            v = xv * xv;
        },
        partial);
}

void bnAffine(const kernel::BnShard& s, const float* x, float* y, const float* mul, const float* add)
{
    if (s.relu)
        affineLoop<true>(s, x, y, mul, add);
    else
        affineLoop<false>(s, x, y, mul, add);
}

void bnBackwardSums(const kernel::BnShard& s, const kernel::BnChannels& ch, const float* dy, const float* x,
                    double* partial)
{
    if (s.relu)
        backwardSums<true>(s, ch, dy, x, partial);
    else
        backwardSums<false>(s, ch, dy, x, partial);
}

void bnBackwardDx(const kernel::BnShard& s, const kernel::BnChannels& ch, const float* dy, const float* x, float* dx)
{
    if (s.relu)
        backwardDx<true>(s, ch, dy, x, dx);
    else
        backwardDx<false>(s, ch, dy, x, dx);
}

} // namespace tb::TB_ISA
