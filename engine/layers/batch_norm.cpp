#include "layers/batch_norm.hpp"

#include "core/simd.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

BatchNorm::BatchNorm(std::string name, Shape in, bool center, bool scale, float momentum, float epsilon)
    : Layer(std::move(name), in, in), m_center(center), m_scale(scale), m_momentum(momentum), m_epsilon(epsilon),
      m_mean(size_t(in.c)), m_invStd(size_t(in.c)), m_mul(size_t(in.c)), m_add(size_t(in.c)), m_dMean(size_t(in.c)),
      m_dXhat(size_t(in.c))
{
}

void BatchNorm::initParams(float* params, float* state, Rng&) const
{
    const int c = m_in.c;
    int64_t p = 0;
    if (m_scale)
        for (int i = 0; i < c; ++i)
            params[p++] = 1.0f;
    if (m_center)
        for (int i = 0; i < c; ++i)
            params[p++] = 0.0f;
    for (int i = 0; i < c; ++i) {
        state[i] = 0.0f;
        state[c + i] = 1.0f;
    }
}

namespace {
typedef double Doubles8 __attribute__((vector_size(8 * sizeof(double))));

// sum over j < len of f(a[j], b[j]) -> (u, v), in double: eight lanes, each taking every eighth
// element in order, then the lanes in order (a fixed order, so the same on any thread count).
// f works on eight elements at a time (Floats8); the last block is padded with zeros, for which f
// must give zeros.
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
} // namespace

template <typename F> void BatchNorm::channelSums(const ShardView& s, const float* a, const float* b, F f) const
{
    const int C = m_in.c;
    double* p = s.partial;
    for (int i = 0; i < 2 * C; ++i)
        p[i] = 0.0;
    if (m_in.spatial) {
        const int64_t len = int64_t(s.n) * m_in.plane();
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

namespace {
// The affine transform and the fused ReLU. Backward recovers the ReLU's mask as x * mul + add > 0:
// the same two roundings (this file is built with -ffp-contract=off, so neither becomes an FMA).
template <bool Relu> inline float affine(float x, float mul, float add)
{
    const float v = x * mul + add;
    return Relu ? std::max(v, 0.0f) : v;
}

template <bool Relu>
void affineLoop(bool spatial, int C, int n, int64_t plane, const float* x, float* y, const float* mul, const float* add)
{
    if (spatial) {
        const int64_t len = int64_t(n) * plane;
        for (int c = 0; c < C; ++c) {
            const float m = mul[c], a = add[c];
            const float* px = x + c * len;
            float* py = y + c * len;
            for (int64_t j = 0; j < len; ++j)
                py[j] = affine<Relu>(px[j], m, a);
        }
    } else {
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < C; ++c)
                y[int64_t(i) * C + c] = affine<Relu>(x[int64_t(i) * C + c], mul[c], add[c]);
    }
}
} // namespace

void BatchNorm::applyAffine(const ShardView& s, const float* x, float* y, const std::vector<float>& mul,
                            const std::vector<float>& add) const
{
    if (m_relu)
        affineLoop<true>(m_in.spatial, m_in.c, s.n, m_in.plane(), x, y, mul.data(), add.data());
    else
        affineLoop<false>(m_in.spatial, m_in.c, s.n, m_in.plane(), x, y, mul.data(), add.data());
}

void BatchNorm::forward(const PassContext& ctx, int phase, ShardView& s, float*)
{
    const int C = m_in.c;
    if (!ctx.training) {
        // Evaluation shards run concurrently: compute the fold locally instead of in members.
        std::vector<float> mul(static_cast<size_t>(C)), add(static_cast<size_t>(C));
        for (int c = 0; c < C; ++c) {
            const float inv = 1.0f / std::sqrt(m_state[C + c] + m_epsilon);
            mul[size_t(c)] = gammaOf(c) * inv;
            add[size_t(c)] = betaOf(c) - m_state[c] * gammaOf(c) * inv;
        }
        applyAffine(s, s.x, s.y, mul, add);
        return;
    }
    if (phase == 0) {
        channelSums(s, s.x, nullptr, [](auto x, auto, int, auto& u, auto& v) {
            u = x;
            v = x * x;
        });
    } else {
        applyAffine(s, s.x, s.y, m_mul, m_add);
    }
}

void BatchNorm::reduceForward(const PassContext& ctx, int phase, std::span<ShardView> shards)
{
    if (!ctx.training || phase != 0)
        return;
    const int C = m_in.c;
    const double m = double(ctx.batchSize) * double(m_in.plane());
    for (int c = 0; c < C; ++c) {
        double sum = 0.0, sq = 0.0;
        for (const ShardView& s : shards) {
            sum += s.partial[c];
            sq += s.partial[C + c];
        }
        const double mean = sum / m;
        const double var = std::max(sq / m - mean * mean, 0.0);
        m_mean[size_t(c)] = float(mean);
        m_invStd[size_t(c)] = float(1.0 / std::sqrt(var + double(m_epsilon)));
        m_mul[size_t(c)] = gammaOf(c) * m_invStd[size_t(c)];
        m_add[size_t(c)] = betaOf(c) - float(mean) * m_mul[size_t(c)];
        m_state[c] = m_state[c] * m_momentum + float(mean) * (1.0f - m_momentum);
        m_state[C + c] = m_state[C + c] * m_momentum + float(var) * (1.0f - m_momentum);
    }
}

void BatchNorm::backward(const PassContext&, int phase, ShardView& s, float*)
{
    if (m_relu)
        backwardPhase<true>(phase, s);
    else
        backwardPhase<false>(phase, s);
}

// Relu: dy first goes through the fused ReLU's mask, recomputed from x (a select, so the loops
// still vectorize).
template <bool Relu> void BatchNorm::backwardPhase(int phase, ShardView& s) const
{
    const int C = m_in.c;
    if (phase == 0) {
        // sum(dy) and sum(dy * xhat) per channel.
        const float *mean = m_mean.data(), *inv = m_invStd.data(), *mul = m_mul.data(), *add = m_add.data();
        channelSums(s, s.dy, s.x, [=](auto dy, auto x, int c, auto& u, auto& v) {
            using V = decltype(dy); // float, or Floats8 in the spatial layout
            const V d = Relu ? V(x * mul[c] + add[c] > V{} ? dy : V{}) : dy;
            u = d;
            v = d * (x - mean[c]) * inv[c];
        });
        return;
    }
    if (!s.dx)
        return;
    // dx = gamma * invStd * (dy - mean(dy) - xhat * mean(dy * xhat)), with one channel's constants
    // read once (so the spatial loop vectorizes).
    struct ChannelDx {
        float k, mean, inv, dMean, dXhat, mul, add;
        float operator()(float dy, float x) const
        {
            const float d = Relu ? (x * mul + add > 0.0f ? dy : 0.0f) : dy;
            return k * (d - dMean - (x - mean) * inv * dXhat);
        }
    };
    auto channelDx = [&](int c) {
        const size_t i = size_t(c);
        return ChannelDx{gammaOf(c) * m_invStd[i], m_mean[i], m_invStd[i], m_dMean[i], m_dXhat[i], m_mul[i], m_add[i]};
    };
    if (m_in.spatial) {
        const int64_t len = int64_t(s.n) * m_in.plane();
        for (int c = 0; c < C; ++c) {
            const ChannelDx f = channelDx(c);
            const float* dy = s.dy + c * len;
            const float* x = s.x + c * len;
            float* dx = s.dx + c * len;
            for (int64_t j = 0; j < len; ++j)
                dx[j] = f(dy[j], x[j]);
        }
    } else {
        for (int c = 0; c < C; ++c) {
            const ChannelDx f = channelDx(c);
            for (int i = 0; i < s.n; ++i) {
                const int64_t j = int64_t(i) * C + c;
                s.dx[j] = f(s.dy[j], s.x[j]);
            }
        }
    }
}

void BatchNorm::reduceBackward(const PassContext& ctx, int phase, std::span<ShardView> shards)
{
    if (phase != 0)
        return;
    const int C = m_in.c;
    const double m = double(ctx.batchSize) * double(m_in.plane());
    for (int c = 0; c < C; ++c) {
        double sdy = 0.0, sdyx = 0.0;
        for (const ShardView& s : shards) {
            sdy += s.partial[c];
            sdyx += s.partial[C + c];
        }
        m_dMean[size_t(c)] = float(sdy / m);
        m_dXhat[size_t(c)] = float(sdyx / m);
        int64_t p = 0;
        if (m_scale)
            m_grad[p++ * C + c] += float(sdyx);
        if (m_center)
            m_grad[p * C + c] += float(sdy);
    }
}

} // namespace tb
