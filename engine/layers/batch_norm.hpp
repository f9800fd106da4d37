// BatchNormalization with Keras semantics: momentum 0.99, epsilon 1e-3, optional center (beta)
// and scale (gamma). Training normalizes with the batch's statistics, reduced over all shards in
// shard order; evaluation uses the moving statistics. Params: [gamma if scale][beta if center];
// state: [moving_mean][moving_variance].
#pragma once

#include "layers/layer.hpp"

#include <vector>

namespace tb {

class BatchNorm : public Layer {
public:
    BatchNorm(std::string name, Shape in, bool center, bool scale, float momentum, float epsilon);
    LayerKind kind() const override { return LayerKind::BatchNorm; }
    bool center() const { return m_center; }
    bool scale() const { return m_scale; }
    int channels() const { return m_in.c; }
    float momentum() const { return m_momentum; }
    // Applies a ReLU to its output (the Activation layer after it then passes through): one pass over
    // the activations instead of two each way. Backward recovers the ReLU's mask from x.
    void fuseRelu() { m_relu = true; }
    bool fusedRelu() const { return m_relu; }
    bool readsOutputInBackward() const override { return false; } // x, the batch's statistics and dy

    int64_t paramCount() const override { return int64_t(m_in.c) * ((m_center ? 1 : 0) + (m_scale ? 1 : 0)); }
    int64_t stateCount() const override { return 2 * int64_t(m_in.c); }
    void initParams(float* params, float* state, Rng& rng) const override;
    int64_t partialDoubles() const override { return 2 * int64_t(m_in.c); }
    int phases(bool training) const override { return training ? 2 : 1; }
    // An evaluation folds the moving statistics into m_mul and m_add once, for every shard.
    void beginPass(const Kernels& k, bool training, const ParallelFor& parallel) override;
    const kernel::ChannelAffine* inferenceAffine() const override { return m_in.spatial ? &m_inference : nullptr; }

    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void reduceForward(const PassContext& ctx, int phase, std::span<ShardView> shards) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void reduceBackward(const PassContext& ctx, int phase, std::span<ShardView> shards) override;
    bool usesShardGradient() const override { return false; } // reduceBackward writes it

private:
    float gammaOf(int c) const { return m_scale ? m_params[c] : 1.0f; }
    float betaOf(int c) const { return m_center ? m_params[(m_scale ? m_in.c : 0) + c] : 0.0f; }
    kernel::BnShard shardOf(const ShardView& s) const;

    bool m_center, m_scale;
    bool m_relu = false;
    float m_momentum, m_epsilon;
    // Batch statistics of the current training step, shared by all shards.
    std::vector<float> m_mean, m_invStd; // (C)
    // (C) the folded affine transform: the batch's in a training step, the moving statistics' in an
    // evaluation (beginPass), also as m_inference.
    std::vector<float> m_mul, m_add;
    kernel::ChannelAffine m_inference;
    std::vector<float> m_dMean, m_dXhat; // (C) backward: sum(dy)/M, sum(dy*xhat)/M
    std::vector<float> m_dxScale;        // (C) backward: gamma * invStd
};

} // namespace tb
