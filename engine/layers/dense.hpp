// Dense (fully connected) with Keras semantics: kernel (F, units) Glorot-uniform, optional bias,
// fused activation. Y[n][units] = X[n][F] * K[F][units] + b.
// In training the products run over the whole batch (layer.hpp's batchForward/batchBackward), in
// blocks that keep a slice of the kernel in cache while every sample passes: the kernel (2.5 MB for
// tpu-mnist-cnn) is read from memory about once per step instead of once per shard.
#pragma once

#include "layers/layer.hpp"

#include <vector>

namespace tb {

class Dense : public Layer {
public:
    Dense(std::string name, Shape in, int units, bool bias, Activation act);
    LayerKind kind() const override { return LayerKind::Dense; }
    int units() const { return m_units; }
    bool hasBias() const { return m_bias; }
    Activation activation() const { return m_act; }
    int64_t paramCount() const override { return m_in.size() * m_units + (m_bias ? m_units : 0); }
    void initParams(float* params, float* state, Rng& rng) const override;
    void beginPass(const Kernels& k, bool training, const ParallelFor& parallel) override;
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    int batchForwardTasks() const override;
    void batchForward(const PassContext& ctx, std::span<ShardView> shards, int task) override;
    int batchBackwardTasks(std::span<const ShardView> shards) const override;
    void batchBackward(const PassContext& ctx, std::span<const ShardView> shards, int task) override;
    bool usesShardGradient() const override { return false; }

private:
    // Training runs the products batch-wide when the units are a multiple of 8 (the blocks of
    // outputs are cut in 8s); other sizes (the 10-unit classifier) run per shard.
    bool batchWide() const { return m_units % 8 == 0; }
    std::pair<int64_t, int64_t> batchGradientRange(int task) const override;
    int kernelGradientTasks() const;
    int inputGradientTasks() const;
    void kernelGradient(const Kernels& k, std::span<const ShardView> shards, int task);
    void inputGradient(const Kernels& k, std::span<const ShardView> shards, int task);
    void biasAndActivation(const Kernels& k, float* y, int n, int j0, int j1) const; // columns [j0, j1) of y[n][units]
    std::vector<float> m_kernelT; // (units, F) the kernel transposed, for dX; written by batchForward
    std::vector<float> m_packed;  // (F, units) the kernel packed (packB) for forward, by beginPass
    int m_units;
    bool m_bias;
    Activation m_act;
};

} // namespace tb
