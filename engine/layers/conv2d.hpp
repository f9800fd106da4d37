// Conv2D with Keras semantics: kernel (kh, kw), strides, "same"/"valid" padding placed as Keras
// places it (the odd pixel goes bottom/right), optional bias and fused activation.
// Computed as im2col + one GEMM per chunk of the shard: Y[Cout][n*Ho*Wo] = W[Cout][K] * cols[K][n*Ho*Wo]
// (for a thin input, the same arithmetic straight from the images: Kernels::convDirect), except where
// Winograd applies (kernels/winograd.hpp; channel counts multiples of 8): stride-1 "same" 5x5
// convolutions use F(4x4, 5x5) (6.25x fewer multiplications), stride-1 "same" 3x3 ones F(4x4, 3x3)
// (4x), F(5x5, 3x3) (4.6x) or, FP32 only, F(7x7, 3x3) (5.4x), whichever needs the fewest products,
// and 6x6 stride-2 "same" ones on even-sized images one of those after a space-to-depth fold; same
// results within about 1e-5 of the largest output (with F(7x7, 3x3), up to 1.3e-4 seen, growing with
// the channels).
#pragma once

#include "kernels/conv_geometry.hpp"
#include "kernels/winograd.hpp"
#include "layers/layer.hpp"

#include <vector>

namespace tb {

class Conv2D : public Layer {
public:
    Conv2D(std::string name, Shape in, int filters, int kh, int kw, int sh, int sw, bool same, bool bias,
           Activation act);
    LayerKind kind() const override { return LayerKind::Conv2D; }
    const ConvGeometry& geometry() const { return m_g; }
    bool hasBias() const { return m_bias; }
    Activation activation() const { return m_act; }

    int64_t paramCount() const override { return int64_t(m_g.cout) * m_g.k() + (m_bias ? m_g.cout : 0); }
    void initParams(float* params, float* state, Rng& rng) const override;
    int64_t workspaceFloats(int n) const override;
    void beginPass(const Kernels& k, bool training, const ParallelFor& parallel) override;
    void beginBackward(const Kernels& k, const ParallelFor& parallel) override;

    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    bool foldsInferenceAffine() const override { return true; } // on each chunk's outputs
    // A max-pooling whose windows do not overlap, on each chunk's outputs in forward; in backward,
    // its gradient and the activation's in one pass that writes dy (unpool).
    bool absorbs(const Layer& next) const override;
    int64_t absorbingWorkspaceFloats(int n) const override;
    bool usesWinograd() const { return m_winograd; }
    int winogradFold() const { return m_fold; }
    // The variant for products of this precision.
    winograd::Kind winogradKind(Precision p = Precision::Fp32) const { return m_grids[p == Precision::Bf16].kind; }

private:
    void forwardWinograd(const Kernels& k, ShardView& s, float* ws, float* pooling, bool training);
    void pool(const Kernels& k, const ShardView& s, bool training, int s0, int cn, const float* y) const;
    void unpool(const Kernels& k, const ShardView& s) const;
    void backwardWinograd(const Kernels& k, ShardView& s, float* ws);
    // The biases, or null.
    const float* bias() const { return m_bias ? m_params + int64_t(m_g.cout) * m_g.k() : nullptr; }
    int winogradChunk(const winograd::TileGrid& grid) const;       // samples per chunk in backward
    int forwardChunk(const winograd::TileGrid& grid, int n) const; // and in forward (both paths; its chunks
                                                                   // change no bit)
    // Backward's output channels per block of dU and dW for a shard of n samples (all of them when
    // the shard is several chunks).
    int gradientBlockRows(const winograd::TileGrid& grid, int n) const;
    void winogradProducts(const Kernels& k, int rows, int N, int K, const float* A, const float* B, float* C) const;
    int chunkSamples(int n) const;
    void packTransformedKernels(const Kernels& k, bool forBackward, const ParallelFor& parallel);
    ConvGeometry m_g;
    bool m_bias;
    Activation m_act;
    int64_t foldedKernelFloats() const { return m_fold == 2 ? int64_t(m_g.cout) * m_wcin * 9 : 0; }
    bool m_winograd = false;
    int m_fold = 1;                // 2: space-to-depth before the Winograd convolution
    int m_wcin = 0;                // input channels the Winograd convolution sees (cin * fold^2)
    winograd::TileGrid m_grids[2]; // the variant for FP32 products, and for bf16 ones
    winograd::TileGrid m_grid;     // this pass's (beginPass)
    std::vector<float> m_folded;   // (Cout, 4 Cin, 3, 3) the folded kernel, when m_fold == 2
    // The transformed kernels of one direction, each of the E packed (packB): forward's U (E, Cin',
    // Cout), or backward's rotated, transposed Ut (E, Cout, Cin') for dX in their place.
    std::vector<float> m_packed;
    bool m_packedForBackward = false;
};

} // namespace tb
