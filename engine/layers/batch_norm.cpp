#include "layers/batch_norm.hpp"

#include <cmath>

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
typedef float Floats8 __attribute__((vector_size(8 * sizeof(float))));
typedef double Doubles8 __attribute__((vector_size(8 * sizeof(double))));

// sum over j < len of f(a[j], b[j]) -> (u, v), in double: eight lanes, each taking every eighth
// element in order, then the lanes in order (a fixed order, so the same on any thread count).
template <bool HasB, typename F>
void laneSums(const float* a, const float* b, int64_t len, F f, double& su, double& sv)
{
    Doubles8 accU = {}, accV = {};
    int64_t j = 0;
    for (; j + 8 <= len; j += 8) {
        Floats8 u, v;
        for (int l = 0; l < 8; ++l)
            f(a[j + l], HasB ? b[j + l] : 0.0f, u[l], v[l]);
        accU += __builtin_convertvector(u, Doubles8);
        accV += __builtin_convertvector(v, Doubles8);
    }
    su = 0.0;
    sv = 0.0;
    for (int l = 0; l < 8; ++l) {
        su += accU[l];
        sv += accV[l];
    }
    for (; j < len; ++j) {
        float u, v;
        f(a[j], HasB ? b[j] : 0.0f, u, v);
        su += u;
        sv += v;
    }
}
}  // namespace

template <typename F>
void BatchNorm::channelSums(const ShardView& s, const float* a, const float* b, F f) const
{
    const int C = m_in.c;
    double* p = s.partial;
    for (int i = 0; i < 2 * C; ++i)
        p[i] = 0.0;
    if (m_in.spatial) {
        const int64_t len = int64_t(s.n) * m_in.plane();
        for (int c = 0; c < C; ++c) {
            auto fc = [&f, c](float x, float y, float& u, float& v) { f(x, y, c, u, v); };
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

void BatchNorm::applyAffine(const ShardView& s, const float* x, float* y, const std::vector<float>& mul,
                            const std::vector<float>& add) const
{
    const int C = m_in.c;
    if (m_in.spatial) {
        const int64_t len = int64_t(s.n) * m_in.plane();
        for (int c = 0; c < C; ++c) {
            const float m = mul[size_t(c)], a = add[size_t(c)];
            const float* px = x + c * len;
            float* py = y + c * len;
            for (int64_t j = 0; j < len; ++j)
                py[j] = px[j] * m + a;
        }
    } else {
        for (int i = 0; i < s.n; ++i)
            for (int c = 0; c < C; ++c)
                y[int64_t(i) * C + c] = x[int64_t(i) * C + c] * mul[size_t(c)] + add[size_t(c)];
    }
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
        channelSums(s, s.x, nullptr, [](float x, float, int, float& u, float& v) {
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
    const int C = m_in.c;
    if (phase == 0) {
        // sum(dy) and sum(dy * xhat) per channel.
        const float* mean = m_mean.data();
        const float* inv = m_invStd.data();
        channelSums(s, s.dy, s.x, [mean, inv](float dy, float x, int c, float& u, float& v) {
            u = dy;
            v = dy * (x - mean[c]) * inv[c];
        });
        return;
    }
    if (!s.dx)
        return;
    // dx = gamma * invStd * (dy - mean(dy) - xhat * mean(dy * xhat)), with one channel's constants
    // read once (so the spatial loop vectorizes).
    struct ChannelDx {
        float k, mean, inv, dMean, dXhat;
        float operator()(float dy, float x) const { return k * (dy - dMean - (x - mean) * inv * dXhat); }
    };
    auto channelDx = [&](int c) {
        const size_t i = size_t(c);
        return ChannelDx{gammaOf(c) * m_invStd[i], m_mean[i], m_invStd[i], m_dMean[i], m_dXhat[i]};
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

}  // namespace tb
