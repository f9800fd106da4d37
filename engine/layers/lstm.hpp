// LSTM with Keras semantics: input (T, F), `units` H, gates in Keras' order i, f, c, o; parameters
// kernel (F, 4H) Glorot-uniform, recurrent_kernel (H, 4H) orthogonal, bias (4H) zero but the forget
// gate's ones (unit_forget_bias). Output (T, H) with return_sequences, else (H), the last step.
//
//   z_t = x_t K + h_{t-1} R + b;  i, f, o = sigmoid(z_i, z_f, z_o);  g = tanh(z_c)
//   c_t = f * c_{t-1} + i * g;    h_t = o * tanh(c_t);               h_0 = c_0 = 0
//
// The input projections X K run as one product over all T steps of the shard; the recurrent
// products h_{t-1} R step by step; both through the engine's GEMM kernels (PassContext::kernels).
// Backward is exact backpropagation through time. Training starts every sequence from zero state
// (the samples of a batch are unrelated windows of the text); `stateful` is kept for the model file
// and is what generation does: it carries (h, c) from one call to the next (stepForward).
#pragma once

#include "layers/layer.hpp"

#include <vector>

namespace tb {

class Embedding;

class Lstm : public Layer {
public:
    Lstm(std::string name, Shape in, int units, bool returnSequences, bool stateful);
    int units() const { return m_units; }
    int inputFeatures() const { return m_in.c; }
    bool returnSequences() const { return m_returnSequences; }
    bool stateful() const { return m_stateful; }
    int64_t paramCount() const override;
    void initParams(float* params, float* state, Rng& rng) const override;
    int64_t cacheFloats(int n) const override;
    int64_t workspaceFloats(int n) const override;
    void beginPass(const Kernels& k, bool training, const ParallelFor& parallel) override;
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    // Reads the ids and `e`'s table itself (the model's first layer, right before it): the input
    // projections of a vocabulary of V ids are the V rows of E K, made once per pass, so forward
    // looks the rows up instead of multiplying every step by K (the same bits: each row of E K is
    // the sum X K makes for that id). Backward sums dZ's rows by id (S, the used ids' rows) and
    // makes both gradients from the sums: dK += E_used^T S and dE_used += S K^T, instead of
    // X^T dZ and dZ K^T over every step of the shard.
    void readEmbedding(Embedding& e);
    int64_t gradientBefore() const override;

    // One step for n sequences: x (n, F) -> h (n, H); `carried` is (h, c), (n, H) each. Same
    // operations as forward's, so it gives forward's values to the bit.
    std::string stepRefusal(bool lastLayer) const override;
    void stepForward(const Kernels& k, const std::vector<float>& x, int n, std::vector<float>& out,
                     std::vector<float>& carried) const override;

private:
    // Rows [t] of a shard: z (n, T, 4H) -> gates in place, c (n, T, H), h with row stride hStride.
    // packedR: R packed by beginPass; null: R read in place (one step of a few rows, generation).
    void runSteps(const Kernels& k, const float* packedR, float* z, float* c, float* h, int64_t hStride, int n, int T,
                  const float* h0, const float* c0) const;
    void embeddingBackward(const Kernels& k, ShardView& s, const float* dz, float* ws) const;
    int m_units;
    bool m_returnSequences, m_stateful;
    // R (H, 4H) and R^T (4H, H) packed for the recurrent products (kernels' PackB), constant during a
    // pass; the kernel transposed (4H, F) for backward's dX.
    std::vector<float> m_packedR, m_packedRT, m_kernelT;
    const Embedding* m_embedding = nullptr; // readEmbedding
    std::vector<float> m_table;             // E K (V, 4H), made by beginPass when m_embedding
};

} // namespace tb
