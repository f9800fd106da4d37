#include "layers/conv2d.hpp"

#include "kernels/kernels.hpp"
#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"
#include "layers/max_pool.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <utility>

namespace tb {

namespace {
// Bound on the im2col buffer per worker (floats); larger shards are processed in chunks.
constexpr int64_t kColsBudget = int64_t(6) << 20;
// Winograd's backward works on chunks of samples whose transformed tiles (81, 64, 49 or 36 x tiles x
// channels) stay within this many floats, so they are still in L2 when the products read them.
constexpr int64_t kWinogradBudget = int64_t(96) << 10;
constexpr int kWinogradMaxChunk = 16;
// Forward's chunks (Conv2D::forwardChunk) change no bit of the outputs (each tile's row of Winograd's
// products, each column of im2col's, is computed alone) and stream no dU: they are as large as
// keeps what they write within about an L2 (1 MB: Zen 4 and 5; Intel since Sapphire Rapids has 2).
// Winograd's: colab-fashion-cnn evaluates about 12% faster on a Zen 4 than in backward's chunks
// (docs/benchmarks.md).
constexpr int64_t kForwardBudget = int64_t(256) << 10;
// Minimum ratio of a chunk's tile floats to the kernel-side floats its products stream (below).
constexpr int64_t kKernelReuse = 2;
// When a shard's backward is one chunk, dW's products and their transform G^T dU G go by blocks of
// output channels whose dU ([rows][E][Cin']) stays within this many floats, in L2 from the products
// to the transform, instead of the whole dU through memory (8 MB for colab-fashion-cnn's last
// convolution, written then read back, once per shard). Rows in multiples of 12, every level's
// product block height (4, 6 or 12).
constexpr int64_t kGradientBlockBudget = int64_t(96) << 10;
constexpr int kGradientBlockRows = 12;
// The kernels' transform before each pass, in blocks of at least this many rows (Cin or Cout) and
// at most this many blocks: enough for the threads to share it (on one thread it was 4% of a
// colab-fashion-cnn step, which two threads spent one waiting for the other).
constexpr int kKernelRowsPerTask = 8;
constexpr int kMaxKernelTasks = 64;

// The sum of v[0, n) in 16 independent lanes (lane l takes the elements j = l mod 16), then the
// lanes pairwise: independent additions the compiler vectorizes, where one running sum waits on
// each addition's latency (it was 3% of a colab-fashion-cnn step). A fixed order, so the same bits
// on every CPU and thread count.
float laneSum(const float* v, int64_t n)
{
    constexpr int kLanes = 16;
    float acc[kLanes] = {};
    int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes)
        for (int l = 0; l < kLanes; ++l)
            acc[l] += v[j + l];
    for (int l = 0; j + l < n; ++l)
        acc[l] += v[j + l];
    for (int width = kLanes / 2; width > 0; width /= 2)
        for (int l = 0; l < width; ++l)
            acc[l] += acc[l + width];
    return acc[0];
}
} // namespace

void kerasPadding(bool same, int in, int kernel, int stride, int& out, int& padBefore)
{
    if (same) {
        out = (in + stride - 1) / stride;
        const int total = std::max((out - 1) * stride + kernel - in, 0);
        padBefore = total / 2;
    } else {
        out = in >= kernel ? (in - kernel) / stride + 1 : 0;
        padBefore = 0;
    }
}

Conv2D::Conv2D(std::string name, Shape in, int filters, int kh, int kw, int sh, int sw, bool same, bool bias,
               Activation act)
    : Layer(std::move(name), in, in), m_bias(bias), m_act(act)
{
    m_g.cin = in.c;
    m_g.h = in.h;
    m_g.w = in.w;
    m_g.cout = filters;
    m_g.kh = kh;
    m_g.kw = kw;
    m_g.sh = sh;
    m_g.sw = sw;
    kerasPadding(same, in.h, kh, sh, m_g.ho, m_g.padTop);
    kerasPadding(same, in.w, kw, sw, m_g.wo, m_g.padLeft);
    m_out = Shape::image(m_g.ho, m_g.wo, filters);
    // Transforms run on 8- or 16-channel vectors; thinner layers (like a first layer on gray images)
    // use im2col.
    using winograd::Kind;
    const bool evenInput = in.h % 2 == 0 && in.w % 2 == 0;
    // The variant for each precision of the products (winograd.hpp: F(7x7, 3x3) in FP32 only).
    const auto grids = [&](int h, int w, bool threeByThree) {
        for (bool bf16 : {false, true})
            m_grids[bf16] = winograd::TileGrid(threeByThree ? winograd::bestFor3x3(h, w, bf16) : Kind::F4x4_5x5, h, w);
    };
    if (same && sh == 1 && sw == 1 && kh == kw && (kh == 5 || kh == 3)) {
        m_winograd = winograd::supportsChannels(in.c, filters);
        grids(in.h, in.w, kh == 3);
    } else if (same && sh == 2 && sw == 2 && kh == 6 && kw == 6 && evenInput) {
        m_winograd = winograd::supportsChannels(4 * in.c, filters);
        m_fold = m_winograd ? 2 : 1;
        grids(m_g.ho, m_g.wo, true);
    }
    m_grid = m_grids[0];
    m_wcin = in.c * m_fold * m_fold;
}

int Conv2D::winogradChunk(const winograd::TileGrid& grid) const
{
    const int64_t tiles = grid.tiles(1);
    const int64_t byCache = kWinogradBudget / (grid.elems() * tiles * std::max(m_wcin, m_g.cout));
    // Each chunk's E products stream all of U (E x Cin' x Cout), and backward reads and writes all
    // of dU, so chunks get at least kKernelReuse times as many tiles' floats as that.
    const int64_t perSample = tiles * (m_wcin + m_g.cout);
    const int64_t byReuse = (kKernelReuse * m_g.cout * m_wcin + perSample - 1) / perSample;
    return int(std::clamp<int64_t>(std::max(byCache, byReuse), 1, kWinogradMaxChunk));
}

int Conv2D::gradientBlockRows(const winograd::TileGrid& grid, int n) const
{
    if (winogradChunk(grid) < n) // dU sums the chunks: whole
        return m_g.cout;
    const int64_t rows = kGradientBlockBudget / winograd::gradientRowStride(grid.elems(), m_wcin);
    return int(std::clamp<int64_t>(rows / kGradientBlockRows * kGradientBlockRows, kGradientBlockRows, m_g.cout));
}

int Conv2D::forwardChunk(const winograd::TileGrid& grid, int n) const
{
    if (m_winograd) { // V and M
        const int64_t perSample = grid.elems() * grid.tiles(1) * (m_wcin + m_g.cout);
        return int(std::clamp<int64_t>(kForwardBudget / perSample, 1, kWinogradMaxChunk));
    }
    // The columns and the outputs, so that the bias and the activation find the outputs in cache
    // (colab-fashion-cnn's first convolution: 3 samples, 0.8 MB, instead of the shard's 16, 4.5 MB).
    const int64_t perSample = (m_g.k() + m_g.cout) * m_g.ho * m_g.wo;
    return int(std::clamp<int64_t>(kForwardBudget / perSample, 1, chunkSamples(n)));
}

void Conv2D::beginPass(const Kernels& kern, bool, const ParallelFor& parallel)
{
    if (!m_winograd)
        return;
    m_grid = m_grids[kern.precision == Precision::Bf16];
    if (m_fold == 2) {
        m_folded.resize(size_t(foldedKernelFloats()));
        winograd::foldKernel(m_params, m_g.cout, m_g.cin, m_folded.data());
    }
    packTransformedKernels(kern, false, parallel);
}

// Backward's kernels replace forward's, which the step no longer needs: the two directions' never
// take memory at once (10 MB in FP32 for colab-fashion-cnn's last two convolutions).
void Conv2D::beginBackward(const Kernels& kern, const ParallelFor& parallel)
{
    assert(m_grid.kind == m_grids[kern.precision == Precision::Bf16].kind); // beginPass's, same kernels
    if (m_winograd)
        packTransformedKernels(kern, true, parallel);
}

// The E transformed kernels of one direction into m_packed, packed for the products (bf16 pairs
// when the products are bf16) as they are transformed: blocks of rows in parallel, each an even
// count (a bf16 pair's two rows go to one task), the same values however they are split.
void Conv2D::packTransformedKernels(const Kernels& kern, bool forBackward, const ParallelFor& parallel)
{
    const int rows = forBackward ? m_g.cout : m_wcin, cols = forBackward ? m_wcin : m_g.cout;
    m_packed.resize(size_t(m_grid.elems() * kernel::packedBFloats(rows, cols)));
    const float* w = m_fold == 2 ? m_folded.data() : m_params;
    const int tasks = std::clamp(rows / kKernelRowsPerTask, 1, kMaxKernelTasks);
    parallel(tasks, [&](int t) {
        const int r0 = rows * t / tasks / 2 * 2, r1 = t + 1 == tasks ? rows : rows * (t + 1) / tasks / 2 * 2;
        kern.winogradKernel(m_grid.kind, w, m_g.cout, m_wcin, forBackward, r0, r1, m_packed.data());
    });
    m_packedForBackward = forBackward;
}

void Conv2D::initParams(float* params, float*, Rng& rng) const
{
    // Glorot uniform, fans as Keras computes them for a conv kernel.
    const double fanIn = double(m_g.k());
    const double fanOut = double(m_g.kh) * m_g.kw * m_g.cout;
    const float limit = float(std::sqrt(6.0 / (fanIn + fanOut)));
    const int64_t nw = int64_t(m_g.cout) * m_g.k();
    for (int64_t i = 0; i < nw; ++i)
        params[i] = limit * (2.0f * rng.uniform() - 1.0f);
    if (m_bias)
        std::fill(params + nw, params + nw + m_g.cout, 0.0f);
}

int Conv2D::chunkSamples(int n) const
{
    const int64_t perSample = m_g.k() * m_g.ho * m_g.wo;
    return int(std::clamp<int64_t>(kColsBudget / std::max<int64_t>(perSample, 1), 1, n));
}

int64_t Conv2D::workspaceFloats(int n) const
{
    if (m_winograd) {
        // V or M(dX), M or Z or V(dY), dU and the folded dW, for the larger of the two precisions'
        // variants (a pass takes one of them; the workspace is sized before).
        using winograd::matrixStride;
        int64_t most = 0;
        for (const winograd::TileGrid& grid : m_grids) {
            const int64_t P = grid.tiles(std::min(n, std::max(winogradChunk(grid), forwardChunk(grid, n))));
            const int64_t E = grid.elems();
            most = std::max(most, E * (matrixStride(P, m_g.cout) + matrixStride(P, m_wcin)) +
                                      gradientBlockRows(grid, n) * winograd::gradientRowStride(E, m_wcin));
        }
        return most + foldedKernelFloats();
    }
    return m_g.k() * m_g.ho * m_g.wo * chunkSamples(n);
}

bool Conv2D::absorbs(const Layer& next) const
{
    return next.kind() == LayerKind::MaxPool2D && !static_cast<const MaxPool2D&>(next).windowsOverlap();
}

// A forward chunk's outputs, before the pooling (the backward's dy is the executor's buffer).
int64_t Conv2D::absorbingWorkspaceFloats(int n) const
{
    return std::max(forwardChunk(m_grids[0], n), forwardChunk(m_grids[1], n)) * m_out.size();
}

void Conv2D::forward(const PassContext& ctx, int, ShardView& s, float* ws)
{
    const Kernels& kern = *ctx.kernels;
    // With a pooling absorbed, each chunk's outputs go to the end of the workspace, and the pooling
    // reads them from there, in cache.
    float* pooling = s.next ? ws + workspaceFloats(s.n) : nullptr;
    assert(!pooling || !s.yAffine); // a pooling comes between the convolution and any BatchNorm
    if (m_winograd) {
        forwardWinograd(kern, s, ws, pooling, ctx.training); // with the bias, the activation and s.yAffine
        return;
    }
    const int64_t ohw = int64_t(m_g.ho) * m_g.wo;
    const int64_t ldy = int64_t(s.n) * ohw;
    const int64_t k = m_g.k();
    const float* w = m_params;
    const bool direct = kern.convDirect && kernel::convDirectApplies(m_g); // the same bits as im2col's
    const int chunk = forwardChunk(m_grid, s.n), chunks = (s.n + chunk - 1) / chunk;
    for (int c = 0; c < chunks; ++c) { // balanced
        const int s0 = s.n * c / chunks, cn = s.n * (c + 1) / chunks - s0;
        const int64_t cols = int64_t(cn) * ohw;
        // Backward makes the columns again: keeping them cost a batch tens of megabytes (the first
        // layer of colab-fashion-cnn: 10 MB at batch 128) and made no step measurably faster. Winograd
        // recomputes its input tiles too.
        float* y = pooling ? pooling : s.y + s0 * ohw;
        const int64_t ld = pooling ? cols : ldy;
        if (direct) {
            kern.convDirect(m_g, w, s.x, s.n, s0, cn, y, ld);
        } else {
            kern.im2col(m_g, s.x, s.n, s0, cn, ws);
            kern.gemm(false, false, m_g.cout, int(cols), int(k), w, int(k), ws, int(cols), y, int(ld), false);
        }
        kern.channelBiasActivate(m_act, y, m_g.cout, cols, ld, bias());
        if (pooling)
            pool(kern, s, ctx.training, s0, cn, y);
        else if (const kernel::ChannelAffine* a = s.yAffine) // while the chunk is in cache
            for (int co = 0; co < m_g.cout; ++co)
                kern.bnAffine(kernel::BnShard{true, 1, cn, ohw, a->relu}, y + co * ldy, y + co * ldy, a->mul + co,
                              a->add + co);
    }
}

// The absorbed pooling (MaxPool2D::forward) of samples [s0, s0 + cn) of the shard, from their outputs
// y ([Cout][cn][H][W]) into s.y, and in training their argmax into s.nextCache.
void Conv2D::pool(const Kernels& kern, const ShardView& s, bool training, int s0, int cn, const float* y) const
{
    const auto& p = static_cast<const MaxPool2D&>(*s.next);
    const ConvGeometry g = p.geometry();
    const int64_t hw = m_out.plane(), phw = p.outShape().plane();
    int32_t* arg = training ? reinterpret_cast<int32_t*>(s.nextCache) : nullptr;
    for (int co = 0; co < m_g.cout; ++co) {
        const int64_t at = (int64_t(co) * s.n + s0) * phw;
        kern.maxPool(g, y + int64_t(co) * cn * hw, s.y + at, arg ? arg + at : nullptr, cn);
    }
}

// The absorbed pooling's backward and then the activation's, into s.dy ([Cout][n][H][W]) from the
// pooling's gradient s.nextDy: each window's gradient at its maximum, whose output is the window's
// (in s.y), and zero at the other pixels (what the activation's backward makes of a zero gradient
// for a finite output). The windows do not overlap (absorbs): a pixel takes one window's at most.
// The arithmetic of MaxPool2D::backward then activationBackward, in one pass over s.dy.
void Conv2D::unpool(const Kernels& kern, const ShardView& s) const
{
    const int64_t hw = m_out.plane(), phw = s.next->outShape().plane(), planes = int64_t(m_g.cout) * s.n;
    float* g = s.nextDy; // ours to overwrite
    for (int64_t i = 0; i < planes * phw; ++i)
        g[i] = 0.0f + g[i]; // the pooling's sum into zeros, which makes a -0 +0
    kern.activationBackward(m_act, s.y, g, planes * phw);
    const auto* arg = reinterpret_cast<const int32_t*>(s.nextCache);
    for (int64_t p = 0; p < planes; ++p) {
        float* plane = s.dy + p * hw;
        std::memset(plane, 0, sizeof(float) * size_t(hw));
        for (int64_t j = p * phw; j < (p + 1) * phw; ++j)
            plane[arg[j]] = g[j];
    }
}

void Conv2D::backward(const PassContext& ctx, int, ShardView& s, float* ws)
{
    const Kernels& kern = *ctx.kernels;
    const int64_t ohw = int64_t(m_g.ho) * m_g.wo;
    const int64_t ldy = int64_t(s.n) * ohw;
    const int64_t k = m_g.k();
    if (s.next)
        unpool(kern, s);
    else
        kern.activationBackward(m_act, s.y, s.dy, int64_t(m_g.cout) * ldy);
    if (m_bias) {
        float* gb = s.grad + int64_t(m_g.cout) * k;
        for (int co = 0; co < m_g.cout; ++co)
            gb[co] += laneSum(s.dy + co * ldy, ldy);
    }
    if (m_winograd) {
        backwardWinograd(kern, s, ws);
        return;
    }
    if (s.dx)
        std::memset(s.dx, 0, sizeof(float) * size_t(s.n * m_in.size()));
    const int chunk = chunkSamples(s.n);
    for (int s0 = 0; s0 < s.n; s0 += chunk) {
        const int cn = std::min(chunk, s.n - s0);
        const int64_t cols = int64_t(cn) * ohw;
        const float* colsK = ws;
        kern.im2col(m_g, s.x, s.n, s0, cn, ws);
        const float* dyChunk = s.dy + s0 * ohw;
        // dW[Cout][K] += dY[Cout][cols] * cols[K][cols]^T
        kern.gemm(false, true, m_g.cout, int(k), int(cols), dyChunk, int(ldy), colsK, int(cols), s.grad, int(k), true);
        if (s.dx) {
            // dcols[K][cols] = W^T * dY, then scattered back into dx.
            kern.gemm(true, false, int(k), int(cols), m_g.cout, m_params, int(k), dyChunk, int(ldy), ws, int(cols),
                      false);
            kern.col2im(m_g, ws, s.n, s0, cn, s.dx);
        }
    }
}

// The E products of one chunk: C[e] (rows, N) = A[e] (rows, K) B[e] (K, N), A's rows K floats apart
// in the products' row format (winogradInputRows), C dense, B[e] packed by packB
// (packTransformedKernels), packedBFloats(K, N) floats each.
void Conv2D::winogradProducts(const Kernels& kern, int rows, int N, int K, const float* A, const float* B,
                              float* C) const
{
    const int64_t per = kernel::packedBFloats(K, N);
    const int64_t strideA = winograd::matrixStride(rows, K), strideC = winograd::matrixStride(rows, N);
    for (int e = 0; e < m_grid.elems(); ++e)
        kern.gemmPackedRows(rows, N, K, A + e * strideA, K, B + e * per, C + e * strideC, N, false);
}

void Conv2D::forwardWinograd(const Kernels& kern, ShardView& s, float* ws, float* pooling, bool training)
{
    const int cin = m_wcin, cout = m_g.cout, chunk = forwardChunk(m_grid, s.n);
    const int64_t Pmax = m_grid.tiles(std::min(s.n, chunk));
    float* V = ws;                                                     // (E, P, Cin')
    float* M = V + m_grid.elems() * winograd::matrixStride(Pmax, cin); // (E, P, Cout)
    const int chunks = (s.n + chunk - 1) / chunk;
    for (int k = 0; k < chunks; ++k) {
        const int s0 = s.n * k / chunks, cn = s.n * (k + 1) / chunks - s0;
        const int P = int(m_grid.tiles(cn));
        kern.winogradInputRows(m_grid, s.x, cin, s.n, s0, cn, V, m_fold);
        assert(!m_packedForBackward);
        winogradProducts(kern, P, cout, cin, V, m_packed.data(), M); // M[e] = V[e] U[e]
        if (pooling) {                                               // the chunk's outputs alone, then pooled
            kern.winogradOutput(m_grid, M, cout, cn, 0, cn, pooling, 1, bias(), m_act, nullptr);
            pool(kern, s, training, s0, cn, pooling);
        } else {
            kern.winogradOutput(m_grid, M, cout, s.n, s0, cn, s.y, 1, bias(), m_act, s.yAffine);
        }
    }
}

void Conv2D::backwardWinograd(const Kernels& kern, ShardView& s, float* ws)
{
    const int cin = m_wcin, cout = m_g.cout, chunk = winogradChunk(m_grid), kElems = m_grid.elems();
    const int64_t Pmax = m_grid.tiles(std::min(s.n, chunk));
    using winograd::matrixStride;
    float* V = ws;                                     // (E, P, Cin'), then M(dX)
    float* Z = V + kElems * matrixStride(Pmax, cin);   // (E, P, Cout), then V(dY)
    float* dU = Z + kElems * matrixStride(Pmax, cout); // (Cout, E, Cin'), or `blockRows` of Cout
    const int64_t ldu = winograd::gradientRowStride(kElems, cin);
    const int blockRows = gradientBlockRows(m_grid, s.n);
    float* dWf = dU + blockRows * ldu;      // (Cout, Cin', 3, 3) when folded
    float* dW = m_fold == 2 ? dWf : s.grad; // (Cout, Cin', kk) += G^T dU G
    const int kk = winograd::kernelSide(m_grid.kind) * winograd::kernelSide(m_grid.kind);
    if (m_fold == 2)
        std::fill(dWf, dWf + foldedKernelFloats(), 0.0f);
    // dU[.][e] (rows r0..r1 of Cout, Cin') (+)= Z[e]^T V[e] over the chunk's P tiles.
    const auto kernelGradientProducts = [&](int P, int r0, int r1, bool accumulate) {
        for (int e = 0; e < kElems; ++e)
            kern.gemmKRows(r1 - r0, cin, P, Z + e * matrixStride(P, cout) + r0, cout, V + e * matrixStride(P, cin),
                           dU + int64_t(e) * cin, ldu, accumulate);
    };
    const int chunks = (s.n + chunk - 1) / chunk; // balanced, as in forward
    assert(chunks == 1 || blockRows == cout);
    for (int k = 0; k < chunks; ++k) {
        const int s0 = s.n * k / chunks, cn = s.n * (k + 1) / chunks - s0;
        const int P = int(m_grid.tiles(cn));
        kern.winogradInputKRows(m_grid, s.x, cin, s.n, s0, cn, V, m_fold);
        kern.winogradOutputGradientKRows(m_grid, s.dy, cout, s.n, s0, cn, Z);
        if (chunks > 1) { // dU summed over the shard's chunks in order, then transformed below
            kernelGradientProducts(P, 0, cout, k > 0);
        } else { // dW += G^T dU G a block of output channels at a time, its dU still in L2 (the same sums)
            for (int r0 = 0; r0 < cout; r0 += blockRows) {
                const int r1 = std::min(cout, r0 + blockRows);
                kernelGradientProducts(P, r0, r1, false);
                kern.winogradKernelGradient(m_grid.kind, dU, r1 - r0, cin, dW + int64_t(r0) * cin * kk);
            }
        }
        if (!s.dx)
            continue;
        // dX: the forward algorithm on dY with the rotated, transposed kernels (then unfolded).
        float* Vdy = Z;
        float* Mdx = V;
        kern.winogradInputRows(m_grid, s.dy, cout, s.n, s0, cn, Vdy, 1);
        assert(m_packedForBackward);
        winogradProducts(kern, P, cin, cout, Vdy, m_packed.data(), Mdx); // Mdx[e] = Vdy[e] Ut[e]
        kern.winogradOutput(m_grid, Mdx, cin, s.n, s0, cn, s.dx, m_fold, nullptr, Activation::Linear, nullptr);
    }
    // dW = G^T dU G, through the fold when there is one.
    if (chunks > 1)
        kern.winogradKernelGradient(m_grid.kind, dU, cout, cin, dW);
    if (m_fold == 2)
        winograd::unfoldKernelGradient(dWf, cout, m_g.cin, s.grad);
}

// ---- The Conv2D kind (layers/layer_type.hpp) ----
namespace {
void parseConv2d(const LayerArgs& r, LayerSpec& l)
{
    r.require("filters");
    r.require("kernel_size");
    l.filters = r.positive("filters", 0, 65536);
    r.pair("kernel_size", l.kh, l.kw, 1);
    r.pair("strides", l.sh, l.sw, 1);
    l.same = r.padding();
    l.bias = r.boolean("use_bias", true);
    l.activation = r.activation(false);
}

std::unique_ptr<Layer> buildConv2d(const LayerBuild& b)
{
    const LayerSpec& ls = b.spec;
    const Shape shape = b.in;
    if (!shape.spatial)
        b.fail("needs an image input (H, W, C) but receives " + shape.keras() + "; add a Reshape first");
    if (!ls.same && (ls.kh > shape.h || ls.kw > shape.w))
        b.fail("a " + std::to_string(ls.kh) + "x" + std::to_string(ls.kw) + " kernel does not fit its input " +
               shape.keras() + " with \"valid\" padding");
    return std::make_unique<Conv2D>(b.name, shape, ls.filters, ls.kh, ls.kw, ls.sh, ls.sw, ls.same, ls.bias,
                                    ls.activation);
}

uint64_t conv2dFloats(const LayerSpec& l, Shape& s, int)
{
    int ho = 0, wo = 0, pad = 0;
    kerasPadding(l.same, s.h, l.kh, l.sh, ho, pad);
    kerasPadding(l.same, s.w, l.kw, l.sw, wo, pad);
    const uint64_t n = uint64_t(l.filters) * uint64_t(s.c) * uint64_t(l.kh) * uint64_t(l.kw) + (l.bias ? l.filters : 0);
    s = Shape::image(ho, wo, l.filters);
    return n;
}

void conv2dOnnx(OnnxLayer& o)
{
    const LayerSpec& ls = o.spec;
    const Shape li = o.layer.inShape(), lo = o.layer.outShape();
    const std::string& name = o.layer.name();
    const int64_t nw = int64_t(lo.c) * li.c * ls.kh * ls.kw;
    o.graph.floats(name + ".weight", {lo.c, li.c, ls.kh, ls.kw}, o.params, nw);
    std::vector<std::string> inputs = {o.cur, name + ".weight"};
    if (ls.bias) {
        o.graph.floats(name + ".bias", {lo.c}, o.params + nw, lo.c);
        inputs.push_back(name + ".bias");
    }
    const auto [top, bottom] = kerasPads(ls.same, li.h, ls.kh, ls.sh);
    const auto [left, right] = kerasPads(ls.same, li.w, ls.kw, ls.sw);
    o.graph.node("Conv", name, inputs, {name},
                 {OnnxAttr::list("kernel_shape", {ls.kh, ls.kw}), OnnxAttr::list("strides", {ls.sh, ls.sw}),
                  OnnxAttr::list("pads", {top, left, bottom, right}), OnnxAttr::list("dilations", {1, 1}),
                  OnnxAttr::integer("group", 1)});
    o.cur = name;
    o.activation = ls.activation;
}

// Conv2d(padding=p) when Keras' padding is symmetric and the stride 1, otherwise ZeroPad2d((left,
// right, top, bottom)) then Conv2d; then ReLU()/ELU() for its activation. weight (Cout, Cin, kh,
// kw), bias (Cout): the engine's layout as is.
void conv2dTorch(TorchLayer& t)
{
    const LayerSpec& ls = t.spec;
    const Shape in = t.layer.inShape(), o = t.layer.outShape();
    if (torchNeedsPadModule(ls, in, true))
        ++t.module; // ZeroPad2d
    const int64_t nw = int64_t(o.c) * in.c * ls.kh * ls.kw;
    t.add("weight", {o.c, in.c, ls.kh, ls.kw}, TorchTensor::Source::Params, indexRange(t.paramAt, nw));
    if (ls.bias)
        t.add("bias", {o.c}, TorchTensor::Source::Params, indexRange(t.paramAt + nw, o.c));
    ++t.module;
    t.activationModule(ls.activation);
}
} // namespace

const LayerType& conv2dLayerType()
{
    static const LayerType t{
        "Conv2D",    "conv2d",    {"filters", "kernel_size", "strides", "padding", "use_bias", "activation"},
        parseConv2d, buildConv2d, conv2dFloats,
        conv2dOnnx,  conv2dTorch};
    return t;
}

} // namespace tb
