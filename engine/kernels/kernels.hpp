// The table of the engine's hot loops for one instruction-set level (kernels/isa.hpp). Layers,
// the executor and the optimizer call through it (PassContext::kernels), never a level directly,
// so one process can run two levels side by side (the comparison's "cpu:2@avx2" beside
// "cpu:2@avx512").
//
// Numerics: every output element is computed by the same sequence of operations whatever the
// level, the thread count or how a product is cut into blocks; only the matrix products differ
// between levels: AVX2 and AVX-512 use fused multiply-adds (identical to each other, to the bit),
// the baseline separate multiplies and adds.
#pragma once

#include "kernels/activation_kind.hpp"
#include "kernels/conv_geometry.hpp"
#include "kernels/isa.hpp"
#include "kernels/winograd.hpp"

#include <cstdint>

namespace tb {

namespace kernel {

// C[i][j] (+)= sum_k A[i * aRow + k * aCol] * B[k * ldb + j] for i < M, j < N, each element summed
// in k order: the register-blocked product with no packing (Winograd's products, Dense).
using TileGemm = void(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb,
                      float* C, int64_t ldc, bool accumulate);
// C (+)= op(A) op(B), row-major, op(A) M x K, op(B) K x N; lda/ldb/ldc are the stored row strides.
using Gemm = void(bool transA, bool transB, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                  float* C, int ldc, bool accumulate);
// B (K x N: B[k * ldb + j], or B[j * ldb + k] when transB) packed for GemmPacked into column panels
// of this level's block width, each K x width contiguous, the columns zero-padded to a multiple of
// 8: packedBFloats(K, N) floats. The layout is the level's own: pack and multiply with one table.
using PackB = void(int K, int N, const float* B, int64_t ldb, bool transB, float* packed);
inline int64_t packedBFloats(int K, int N)
{
    return int64_t(K) * ((N + 7) / 8 * 8);
}
// TileGemm's product with B packed by PackB (the same K and N): the same bits as TileGemm (and as
// Gemm above the baseline, whose Gemm is Eigen's).
using GemmPacked = void(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* packed, float* C,
                        int64_t ldc, bool accumulate);
// GemmPacked with A's M rows `aRow` floats apart in the products' own row format, as
// Kernels::winogradInputRows writes them: FP32 rows as they are; the bf16 kernels' rows start with
// the K values rounded and paired ((K + 1) / 2 words). The same bits as GemmPacked on FP32 rows.
using GemmPackedRows = void(int M, int N, int K, const float* A, int64_t aRow, const float* packed, float* C,
                            int64_t ldc, bool accumulate);
// C (M x N) (+)= A^T B over K, A (K x M) and B (K x N) given as rows over k in the products' own
// k-row format, as Kernels::winogradInputKRows and winogradOutputGradientKRows write them: FP32
// rows as they are (N floats long for B, and A's lda floats apart), the bf16 kernels' as pairs of
// consecutive rows, word i of row q holding rows 2q and 2q + 1 of column i (an odd K's last row
// paired with zero; A's pair rows lda words apart). A word is a float's size, so A + i is column
// i of a wider A (lda >= M) in either format. N is a multiple of 8. The same bits as
// TileGemm(M, N, K, A, 1, lda, B, N, C, ldc, accumulate).
using GemmKRows = void(int M, int N, int K, const float* A, int64_t lda, const float* B, float* C, int64_t ldc,
                       bool accumulate);
// dst[j * ldd + i] = src[i * lds + j] for i < rows, j < cols.
using Transpose = void(const float* src, int64_t rows, int64_t cols, int64_t lds, float* dst, int64_t ldd);

// In place over n values; backward multiplies dy by the derivative read from the output y.
using Activate = void(Activation a, float* v, int64_t n);
using ActivationBackward = void(Activation a, const float* y, float* dy, int64_t n);
// y [channels][len], rows ld apart, += bias[c] (when bias), then the activation.
using ChannelBiasActivate = void(Activation a, float* y, int channels, int64_t len, int64_t ld, const float* bias);
// Columns [j0, j1) of y [rows][ld] += bias[j] (when bias), then the activation.
using RowBiasActivate = void(Activation a, float* y, int rows, int64_t ld, int j0, int j1, const float* bias);

// cols[k][j] for k = (ci, ky, kx), j = (sample, oy, ox) over samples [s0, s0+cn) of a shard of n,
// and its adjoint, which adds the columns back into dx.
using Im2col = void(const ConvGeometry& g, const float* x, int n, int s0, int cn, float* cols);
using Col2im = void(const ConvGeometry& g, const float* cols, int n, int s0, int cn, float* dx);
// The convolution of samples [s0, s0+cn) of x straight from the images, for a geometry that
// convDirectApplies to: y[co * ldy + (s - s0) * Ho * Wo + pixel] = the sum over k = (ci, ky, kx) of
// w[co][k] times the input (zero outside the image), each output one chain of multiply-adds in k's
// order from zero: im2col then gemm's arithmetic, so the same bits, without the columns (im2col and
// a product over 9 taps were 7% of tpu-mnist-cnn's evaluation). The AVX-512 FP32 table's (bf16 rounds
// the products' inputs; at AVX2 it was slower than im2col and gemm): null elsewhere.
using ConvDirect = void(const ConvGeometry& g, const float* w, const float* x, int n, int s0, int cn, float* y,
                        int64_t ldy);
constexpr int kConvDirectMaxChannels = 4, kConvDirectMaxTaps = 64;
// Stride 1 with the output the input's size ("same"), a thin input (a first layer: gray, RGB, RGBA)
// and few taps. Wider inputs make a product im2col and gemm run faster (a 1x1 convolution of 64
// channels: no faster).
inline bool convDirectApplies(const ConvGeometry& g)
{
    return g.sh == 1 && g.sw == 1 && g.ho == g.h && g.wo == g.w && g.cin <= kConvDirectMaxChannels &&
           g.k() <= kConvDirectMaxTaps;
}

// An inference BatchNorm folded into the layer before it: y = y * mul[c] + add[c] per channel, then
// max(y, 0) when relu; BnAffine's arithmetic, so the same bits as the BatchNorm's own pass.
struct ChannelAffine {
    const float* mul = nullptr;
    const float* add = nullptr;
    bool relu = false;
};

// Winograd's transforms (kernels/winograd.hpp says what each computes). WinogradKernel writes rows
// [r0, r1) of its matrices (r0 even), in the table's packB layout.
using WinogradInput = void(const winograd::TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V,
                           int fold);
// after, when not null: an inference BatchNorm's y = y * mul[c] + add[c] (then its ReLU) on the
// outputs after the bias and the activation, BnAffine's arithmetic (ChannelAffine).
using WinogradOutput = void(const winograd::TileGrid& g, const float* M, int channels, int n, int s0, int cn, float* y,
                            int fold, const float* bias, Activation act, const ChannelAffine* after);
using WinogradOutputGradient = void(const winograd::TileGrid& g, const float* dy, int channels, int n, int s0, int cn,
                                    float* Z);
using WinogradKernel = void(winograd::Kind kind, const float* w, int cout, int cin, bool transposed, int r0, int r1,
                            float* U);
using WinogradKernelGradient = void(winograd::Kind kind, const float* dU, int cout, int cin, float* dW);

// Dropout over one shard: out = keep ? in * scale : 0, keep decided by a counter hash of
// (sampleKeys[i], feature index) against `threshold` (layers/dropout.hpp).
struct DropoutShard {
    const uint32_t* sampleKeys = nullptr; // (n)
    int n = 0;
    int channels = 1;  // spatial: C planes of `plane` floats per sample, [C][n][plane]; flat: 1
    int64_t plane = 0; // flat: the features of a sample, [n][plane]
    bool spatial = false;
    uint32_t threshold = 0;
    float scale = 1.0f;
};
using Dropout = void(const DropoutShard& d, const float* in, float* out);

// Max pooling over `planes` [H][W] planes, with the argmax of every window (plane-relative index,
// the first maximum on ties) in arg when not null.
using MaxPool = void(const ConvGeometry& g, const float* x, float* y, int32_t* arg, int64_t planes);

// BatchNorm over one shard, per channel (layers/batch_norm.hpp).
struct BnShard {
    bool spatial = true; // [C][n][plane], else [n][C]
    int channels = 0;
    int n = 0;
    int64_t plane = 1;
    bool relu = false; // a fused ReLU after the affine transform
};
struct BnChannels { // (C) each
    const float *mean, *invStd, *mul, *add;
    const float *dMean, *dXhat, *dxScale; // backward: sum(dy)/M, sum(dy*xhat)/M, gamma*invStd
};
// partial[c] = sum x, partial[C + c] = sum x^2 (double, in a fixed order).
using BnSums = void(const BnShard& s, const float* x, double* partial);
// y = x * mul[c] + add[c], then the ReLU.
using BnAffine = void(const BnShard& s, const float* x, float* y, const float* mul, const float* add);
// partial[c] = sum d, partial[C + c] = sum d * xhat, with d = dy through the ReLU's mask.
using BnBackwardSums = void(const BnShard& s, const BnChannels& ch, const float* dy, const float* x, double* partial);
// dx = gamma * invStd * (d - mean(d) - xhat * mean(d * xhat)).
using BnBackwardDx = void(const BnShard& s, const BnChannels& ch, const float* dy, const float* x, float* dx);

// Optimizer updates of elements [lo, hi) with Keras' rules; slots hold the optimizer's state
// (Adam: m then v, `stride` apart), next receives the new state and out the new weights.
struct UpdateRule {
    float rate = 0.0f; // this step's learning rate (Adam's bias correction folded in)
    float beta1 = 0.9f, beta2 = 0.999f, rho = 0.9f, momentum = 0.0f, epsilon = 1e-7f;
    bool nesterov = false;
    int64_t stride = 0;
};
using Update = void(const UpdateRule& r, const float* p, const float* g, const float* slots, float* next, float* out,
                    int64_t lo, int64_t hi);

// Whether every value is finite.
using AllFinite = bool(const float* v, int64_t n);
// dst[i] += src[i]; src[i] = 0 for i in [lo, hi).
using AccumulateAndClear = void(float* dst, float* src, int64_t lo, int64_t hi);
// The LSTM cell's elementwise work (layers/lstm.hpp), one time step over n rows. Forward: the gate
// pre-activations z (i, f, c, o; H each) become the activations in place, c = f * cPrev + i * g
// (cPrev null: zero state), h = o * tanh(c). Backward: dh (n, H) from the step after plus dy (row
// stride dyStride; null: none) at this step, dc (n, H) likewise; the gates in z become dZ in place;
// dc becomes dc * f for the step before (dh is left for the caller's dZ R^T). Elementwise operations
// only, exp from kernels/exp_poly.hpp: the same bits at every level.
struct LstmStep {
    int n = 0, units = 0;
    int64_t zStride = 0, cStride = 0, hStride = 0; // row strides of z, c and h
    const float* cPrev = nullptr;
    int64_t cPrevStride = 0;
};
using LstmCell = void(const LstmStep& s, float* z, float* c, float* h);
using LstmCellBackward = void(const LstmStep& s, float* z, const float* c, const float* dy, int64_t dyStride, float* dh,
                              float* dc);

} // namespace kernel

struct Kernels {
    Isa isa;
    Precision precision;  // of the six products below and the *Rows transforms; the other kernels are FP32
    const char* gemmName; // "Eigen 3.4.0", "own 12x32 FMA kernel", ...
    kernel::TileGemm* tileGemm;
    kernel::Gemm* gemm;
    kernel::PackB* packB;
    kernel::GemmPacked* gemmPacked;
    kernel::GemmPackedRows* gemmPackedRows;
    kernel::GemmKRows* gemmKRows;
    kernel::Transpose* transpose;
    kernel::Activate* activate;
    kernel::ActivationBackward* activationBackward;
    kernel::ChannelBiasActivate* channelBiasActivate;
    kernel::RowBiasActivate* rowBiasActivate;
    kernel::Im2col* im2col;
    kernel::Col2im* col2im;
    kernel::ConvDirect* convDirect; // null: im2col and gemm
    kernel::WinogradInput* winogradInput;
    // winogradInput's V as gemmPackedRows's left operand: its rows (of `channels` floats) in the
    // products' own row format. The table's products and this transform go together.
    kernel::WinogradInput* winogradInputRows;
    // winogradInput's V and winogradOutputGradient's Z as gemmKRows's operands (dW's products): in
    // the products' own k-row format.
    kernel::WinogradInput* winogradInputKRows;
    kernel::WinogradOutput* winogradOutput;
    kernel::WinogradOutputGradient* winogradOutputGradient;
    kernel::WinogradOutputGradient* winogradOutputGradientKRows;
    kernel::WinogradKernel* winogradKernel;
    kernel::WinogradKernelGradient* winogradKernelGradient;
    kernel::Dropout* dropout;
    kernel::MaxPool* maxPool;
    kernel::BnSums* bnSums;
    kernel::BnAffine* bnAffine;
    kernel::BnBackwardSums* bnBackwardSums;
    kernel::BnBackwardDx* bnBackwardDx;
    kernel::Update* adam;
    kernel::Update* sgd;
    kernel::Update* rmsprop;
    kernel::AllFinite* allFinite;
    kernel::AccumulateAndClear* accumulateAndClear;
    kernel::LstmCell* lstmCell;
    kernel::LstmCellBackward* lstmCellBackward;
};

// "avx512 (AVX-512; matrix products: own 12x32 FMA kernel)": for run headers and the About box.
std::string describeKernels(const Kernels& k);

} // namespace tb
