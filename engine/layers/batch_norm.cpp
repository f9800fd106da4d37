#include "layers/batch_norm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

BatchNorm::BatchNorm(std::string name, Shape in, bool center, bool scale, float momentum, float epsilon)
    : Layer(std::move(name), in, in), m_center(center), m_scale(scale), m_momentum(momentum), m_epsilon(epsilon),
      m_mean(size_t(in.c)), m_invStd(size_t(in.c)), m_mul(size_t(in.c)), m_add(size_t(in.c)), m_dMean(size_t(in.c)),
      m_dXhat(size_t(in.c)), m_dxScale(size_t(in.c))
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

kernel::BnShard BatchNorm::shardOf(const ShardView& s) const
{
    kernel::BnShard b;
    b.spatial = m_in.spatial;
    b.channels = m_in.c;
    b.n = s.n;
    b.plane = m_in.spatial ? m_in.plane() : 1;
    b.relu = m_relu;
    return b;
}

void BatchNorm::forward(const PassContext& ctx, int phase, ShardView& s, float*)
{
    const Kernels& kern = *ctx.kernels;
    const int C = m_in.c;
    if (!ctx.training) {
        // Evaluation shards run concurrently: compute the fold locally instead of in members.
        std::vector<float> mul(static_cast<size_t>(C)), add(static_cast<size_t>(C));
        for (int c = 0; c < C; ++c) {
            const float inv = 1.0f / std::sqrt(m_state[C + c] + m_epsilon);
            mul[size_t(c)] = gammaOf(c) * inv;
            add[size_t(c)] = betaOf(c) - m_state[c] * gammaOf(c) * inv;
        }
        kern.bnAffine(shardOf(s), s.x, s.y, mul.data(), add.data());
        return;
    }
    if (phase == 0)
        kern.bnSums(shardOf(s), s.x, s.partial);
    else
        kern.bnAffine(shardOf(s), s.x, s.y, m_mul.data(), m_add.data());
}

void BatchNorm::reduceForward(const PassContext& ctx, int phase, std::span<ShardView> shards)
{
    if (!ctx.training || phase != 0)
        return;
    const int C = m_in.c;
    const double m = double(ctx.batchSize) * double(m_in.plane());
    // Precise BN's k-th batch: the moving statistics become the average of the k batches' statistics.
    const float keep = ctx.bnAverageOf > 0 ? float(ctx.bnAverageOf - 1) / float(ctx.bnAverageOf) : m_momentum;
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
        m_state[c] = m_state[c] * keep + float(mean) * (1.0f - keep);
        m_state[C + c] = m_state[C + c] * keep + float(var) * (1.0f - keep);
    }
}

void BatchNorm::backward(const PassContext& ctx, int phase, ShardView& s, float*)
{
    const kernel::BnChannels ch{m_mean.data(),  m_invStd.data(), m_mul.data(),    m_add.data(),
                                m_dMean.data(), m_dXhat.data(),  m_dxScale.data()};
    if (phase == 0)
        ctx.kernels->bnBackwardSums(shardOf(s), ch, s.dy, s.x, s.partial);
    else if (s.dx)
        ctx.kernels->bnBackwardDx(shardOf(s), ch, s.dy, s.x, s.dx);
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
        m_dxScale[size_t(c)] = gammaOf(c) * m_invStd[size_t(c)];
        int64_t p = 0;
        if (m_scale)
            m_grad[p++ * C + c] += float(sdyx);
        if (m_center)
            m_grad[p * C + c] += float(sdy);
    }
}

} // namespace tb
