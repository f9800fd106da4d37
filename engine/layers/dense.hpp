// Dense (fully connected) with Keras semantics: kernel (F, units) Glorot-uniform, optional bias,
// fused activation. Y[n][units] = X[n][F] * K[F][units] + b.
#pragma once

#include "layers/layer.hpp"

namespace tb {

class Dense : public Layer {
public:
    Dense(std::string name, Shape in, int units, bool bias, Activation act)
        : Layer(std::move(name), in, Shape::flat(units)), m_units(units), m_bias(bias), m_act(act)
    {
    }
    LayerKind kind() const override { return LayerKind::Dense; }
    int units() const { return m_units; }
    bool hasBias() const { return m_bias; }
    Activation activation() const { return m_act; }
    int64_t paramCount() const override { return m_in.size() * m_units + (m_bias ? m_units : 0); }
    void initParams(float* params, float* state, Rng& rng) const override;
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    int batchGradientTasks() const override;
    void batchGradient(const PassContext& ctx, std::span<const ShardView> shards, int task) override;
    bool usesShardGradient() const override { return false; }

private:
    int m_units;
    bool m_bias;
    Activation m_act;
};

}  // namespace tb
