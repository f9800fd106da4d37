// Dense applied at every time step of a sequence (Keras' Dense on a 3-D input, or
// TimeDistributed(Dense)): (T, F) -> (T, units), the same kernel (F, units) Glorot-uniform and bias
// at every step. The shard's n x T rows go through one product each way.
#pragma once

#include "layers/layer.hpp"

namespace tb {

class TimeDense : public Layer {
public:
    TimeDense(std::string name, Shape in, int units, bool bias, Activation act);
    int units() const { return m_units; }
    bool hasBias() const { return m_bias; }
    Activation activation() const { return m_act; }
    int64_t paramCount() const override { return int64_t(m_in.c) * m_units + (m_bias ? m_units : 0); }
    void initParams(float* params, float* state, Rng& rng) const override;
    void beginPass(const Kernels& k, bool training, const ParallelFor& parallel) override;
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    // y (rows, units) = x (rows, F) K + b, then the activation (softmax: left to the caller), as forward.
    void applyRows(const Kernels& k, const float* x, int rows, float* y) const;
    std::string stepRefusal(bool) const override { return {}; }
    void stepForward(const Kernels& k, const std::vector<float>& x, int n, std::vector<float>& out,
                     std::vector<float>& carried) const override;

private:
    int m_units;
    bool m_bias;
    Activation m_act;
    std::vector<float> m_kernelT; // (units, F): for dX
};

} // namespace tb
