// Embedding with Keras semantics: token ids (T) -> vectors (T, output_dim) read from a table
// (input_dim, output_dim) initialised uniform in [-0.05, 0.05] (Keras' default). The ids arrive as
// floats (the executor's input buffers); an id outside [0, input_dim) is refused where the model is
// built (the vocabulary must fit) and clamped here. Backward adds dY's rows into the table's rows;
// there is no input gradient (the ids are not differentiable), so the layer must come first.
#pragma once

#include "layers/layer.hpp"

#include <algorithm>

namespace tb {

class Embedding : public Layer {
public:
    Embedding(std::string name, Shape in, int inputDim, int outputDim);
    int inputDim() const { return m_inputDim; }
    int outputDim() const { return m_outputDim; }
    int64_t paramCount() const override { return int64_t(m_inputDim) * m_outputDim; }
    void initParams(float* params, float* state, Rng& rng) const override;
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    // The table's row for an id (clamped to the table).
    int index(int id) const { return std::clamp(id, 0, m_inputDim - 1); }
    // The vector of one id.
    const float* row(int id) const;
    const float* table() const { return m_params; } // (input_dim, output_dim)
    // The LSTM after it reads the ids and this table itself (Lstm::readEmbedding): the executor gives
    // that LSTM the ids, and the LSTM writes this layer's gradient.
    void setFusedIntoNext() { m_fused = true; }
    bool passThrough() const override { return m_fused; }
    bool usesShardGradient() const override { return !m_fused; }
    std::string stepRefusal(bool) const override { return {}; }
    void stepForward(const Kernels&, const std::vector<float>& ids, int n, std::vector<float>& out,
                     std::vector<float>& carried) const override;

private:
    int m_inputDim, m_outputDim;
    bool m_fused = false;
};

} // namespace tb
