#include "layers/batch_norm.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

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

void BatchNorm::beginPass(const Kernels&, bool training, const ParallelFor&)
{
    if (training)
        return; // reduceForward folds the batch's statistics
    const int C = m_in.c;
    for (int c = 0; c < C; ++c) {
        const float inv = 1.0f / std::sqrt(m_state[C + c] + m_epsilon);
        m_mul[size_t(c)] = gammaOf(c) * inv;
        m_add[size_t(c)] = betaOf(c) - m_state[c] * gammaOf(c) * inv;
    }
    m_inference = kernel::ChannelAffine{m_mul.data(), m_add.data(), m_relu};
}

void BatchNorm::forward(const PassContext& ctx, int phase, ShardView& s, float*)
{
    const Kernels& kern = *ctx.kernels;
    if (ctx.training && phase == 0)
        kern.bnSums(shardOf(s), s.x, s.partial);
    else // the batch's statistics (training's phase 1) or the moving ones (beginPass)
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

// ---- The BatchNormalization kind (layers/layer_type.hpp) ----
namespace {
void parseBatchNorm(const LayerArgs& r, LayerSpec& l)
{
    l.center = r.boolean("center", true);
    l.scale = r.boolean("scale", true);
    l.momentum = float(r.number("momentum", 0.99, 0.0, 1.0, false, true));
    l.epsilon = float(r.number("epsilon", 1e-3, 0.0, 1.0, true, false));
}

std::unique_ptr<Layer> buildBatchNorm(const LayerBuild& b)
{
    const LayerSpec& ls = b.spec;
    if (b.in.sequence)
        b.fail("BatchNormalization over a sequence " + b.in.keras() + " is not supported");
    return std::make_unique<BatchNorm>(b.name, b.in, ls.center, ls.scale, ls.momentum, ls.epsilon);
}

uint64_t batchNormFloats(const LayerSpec&, Shape& s, int)
{
    // weight, bias, running mean and variance: an export writes all four, trained or not.
    return uint64_t(s.spatial ? s.c : s.size()) * 4;
}

void batchNormOnnx(OnnxLayer& o)
{
    const LayerSpec& ls = o.spec;
    const Shape li = o.layer.inShape();
    const std::string& name = o.layer.name();
    const int C = o.spatial ? li.c : int(li.size());
    std::vector<float> gamma(size_t(C), 1.0f), beta(size_t(C), 0.0f);
    if (ls.scale)
        std::copy(o.params, o.params + C, gamma.begin());
    if (ls.center)
        std::copy(o.params + (ls.scale ? C : 0), o.params + (ls.scale ? C : 0) + C, beta.begin());
    o.graph.floats(name + ".gamma", {C}, gamma.data(), C);
    o.graph.floats(name + ".beta", {C}, beta.data(), C);
    o.graph.floats(name + ".moving_mean", {C}, o.state, C);
    o.graph.floats(name + ".moving_variance", {C}, o.state + C, C);
    o.graph.node("BatchNormalization", name,
                 {o.cur, name + ".gamma", name + ".beta", name + ".moving_mean", name + ".moving_variance"}, {name},
                 {OnnxAttr::real("epsilon", ls.epsilon), OnnxAttr::real("momentum", ls.momentum)});
    o.cur = name;
}

// BatchNorm2d (on images) or BatchNorm1d (flat), eps as in Keras, PyTorch momentum = 1 - Keras
// momentum: weight, bias, running_mean, running_var, num_batches_tracked (int64, written 0).
// Without scale the weight is all ones, without center the bias all zeros (and must be so on import).
void batchNormTorch(TorchLayer& t)
{
    const LayerSpec& ls = t.spec;
    const Shape in = t.layer.inShape();
    const int64_t C = in.spatial ? in.c : in.size();
    std::vector<int64_t> feature(static_cast<size_t>(C));
    for (int64_t k = 0; k < C; ++k)
        feature[size_t(k)] = in.spatial ? k : t.kerasFeature(k);
    auto at = [&](int64_t base) {
        std::vector<int64_t> v(feature);
        for (int64_t& x : v)
            x += base;
        return v;
    };
    if (ls.scale)
        t.add("weight", {C}, TorchTensor::Source::Params, at(t.paramAt));
    else
        t.add("weight", {C}, TorchTensor::Source::Ones, {});
    if (ls.center)
        t.add("bias", {C}, TorchTensor::Source::Params, at(t.paramAt + (ls.scale ? C : 0)));
    else
        t.add("bias", {C}, TorchTensor::Source::Zeros, {});
    t.add("running_mean", {C}, TorchTensor::Source::State, at(t.stateAt));
    t.add("running_var", {C}, TorchTensor::Source::State, at(t.stateAt + C));
    t.add("num_batches_tracked", {}, TorchTensor::Source::Counter, {});
    ++t.module;
}
} // namespace

const LayerType& batchNormLayerType()
{
    static const LayerType t{"BatchNormalization", "batch_normalization", {"center", "scale", "momentum", "epsilon"},
                             parseBatchNorm,       buildBatchNorm,        batchNormFloats,
                             batchNormOnnx,        batchNormTorch};
    return t;
}

} // namespace tb
