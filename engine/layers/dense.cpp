#include "layers/dense.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"
#include "layers/time_dense.hpp"

#include <algorithm>
#include <cmath>

namespace tb {

namespace {
// Cache blocking of the batch-wide products (floats): a forward task keeps 512 rows x 64 columns of
// the kernel (128 KB) in L2 while every sample passes; a dX task 256 columns of the transposed
// kernel; a kernel-gradient task 96 rows of the gradient.
constexpr int kForwardRows = 512;
constexpr int kForwardColumns = 64;
constexpr int kInputColumns = 256;
constexpr int kGradientRows = 96;

int tasksFor(int64_t size, int block)
{
    return int((size + block - 1) / block);
}

// One right-hand side B (K x N, rows ldb apart: a block of the kernel) for every shard's product
// C (+)= A B. The bf16 products would round and pair B again for each shard, so it is packed (packB)
// once for them, in this thread's buffer; the FP32 products read it in place, where packing would
// only copy it. The packed and the in-place products give the same bits.
class SharedRight {
public:
    SharedRight(const Kernels& k, int K, int N, const float* B, int64_t ldb)
        : m_k(k), m_K(K), m_N(N), m_B(B), m_ldb(ldb)
    {
        if (k.precision == Precision::Fp32)
            return;
        thread_local std::vector<float> packed;
        packed.resize(size_t(kernel::packedBFloats(K, N)));
        k.packB(K, N, B, ldb, false, packed.data());
        m_packed = packed.data();
    }
    // A's M rows aRow floats apart.
    void times(int M, const float* A, int64_t aRow, float* C, int64_t ldc, bool accumulate) const
    {
        if (m_packed)
            m_k.gemmPacked(M, m_N, m_K, A, aRow, 1, m_packed, C, ldc, accumulate);
        else
            m_k.tileGemm(M, m_N, m_K, A, aRow, 1, m_B, m_ldb, C, ldc, accumulate);
    }

private:
    const Kernels& m_k;
    int m_K, m_N;
    const float* m_B;
    int64_t m_ldb;
    const float* m_packed = nullptr;
};
} // namespace

Dense::Dense(std::string name, Shape in, int units, bool bias, Activation act)
    : Layer(std::move(name), in, Shape::flat(units)), m_units(units), m_bias(bias), m_act(act)
{
    if (batchWide())
        m_kernelT.assign(size_t(in.size() * units), 0.0f);
}

void Dense::initParams(float* params, float*, Rng& rng) const
{
    const int64_t F = m_in.size();
    const float limit = float(std::sqrt(6.0 / double(F + m_units)));
    for (int64_t i = 0; i < F * m_units; ++i)
        params[i] = limit * (2.0f * rng.uniform() - 1.0f);
    if (m_bias)
        std::fill(params + F * m_units, params + F * m_units + m_units, 0.0f);
}

void Dense::biasAndActivation(const Kernels& k, float* y, int n, int j0, int j1) const
{
    k.rowBiasActivate(m_act, y, n, m_units, j0, j1, m_bias ? m_params + m_in.size() * m_units : nullptr);
}

// The passes whose forward runs per shard get the kernel packed once, not read (FP32) or rounded
// and packed (bf16) again by every shard's product.
void Dense::beginPass(const Kernels& k, bool training, const ParallelFor&)
{
    if (training && batchWide())
        return; // batchForward reads the kernel in column blocks
    const int F = int(m_in.size());
    m_packed.resize(size_t(kernel::packedBFloats(F, m_units)));
    k.packB(F, m_units, m_params, m_units, false, m_packed.data());
}

// Evaluation, and training when the units are not a multiple of 8: the shard's rows at once. Each
// output sums its inputs in order with the same operations as batchForward, so evaluation's
// outputs equal training's to the bit.
void Dense::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (ctx.training && batchWide())
        return; // batchForward computes it
    const int F = int(m_in.size());
    ctx.kernels->gemmPacked(s.n, m_units, F, s.x, F, 1, m_packed.data(), s.y, m_units, false);
    biasAndActivation(*ctx.kernels, s.y, s.n, 0, m_units);
}

int Dense::batchForwardTasks() const
{
    return batchWide() ? tasksFor(m_units, kForwardColumns) : 0;
}

// Output columns [j0, j1) of every sample, in row chunks of the kernel; each output sums its inputs
// in order, exactly as the per-shard forward does. Also writes those columns' rows of the
// transposed kernel for dX.
void Dense::batchForward(const PassContext& ctx, std::span<ShardView> shards, int task)
{
    const Kernels& k = *ctx.kernels;
    const int F = int(m_in.size()), U = m_units, T = batchForwardTasks();
    const int j0 = 8 * (U / 8 * task / T), j1 = 8 * (U / 8 * (task + 1) / T);
    for (int f0 = 0; f0 < F; f0 += kForwardRows) {
        const int rows = std::min(kForwardRows, F - f0);
        const SharedRight kernel(k, rows, j1 - j0, m_params + int64_t(f0) * U + j0, U);
        for (ShardView& s : shards)
            kernel.times(s.n, s.x + f0, F, s.y + j0, U, f0 > 0);
    }
    for (ShardView& s : shards)
        biasAndActivation(k, s.y, s.n, j0, j1);
    k.transpose(m_params + j0, F, j1 - j0, U, m_kernelT.data() + int64_t(j0) * F, F);
}

void Dense::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    ctx.kernels->activationBackward(m_act, s.y, s.dy, int64_t(s.n) * m_units);
    if (s.dx && !batchWide()) { // dX[n][F] = dY * K^T
        const int F = int(m_in.size());
        ctx.kernels->gemm(false, true, s.n, F, m_units, s.dy, m_units, m_params, m_units, s.dx, F, false);
    }
}

int Dense::kernelGradientTasks() const
{
    return tasksFor(m_in.size(), kGradientRows);
}
int Dense::inputGradientTasks() const
{
    return tasksFor(m_in.size(), kInputColumns);
}

int Dense::batchBackwardTasks(std::span<const ShardView> shards) const
{
    const bool dx = batchWide() && !shards.empty() && shards.front().dx;
    return kernelGradientTasks() + (dx ? inputGradientTasks() : 0);
}

void Dense::batchBackward(const PassContext& ctx, std::span<const ShardView> shards, int task)
{
    if (task < kernelGradientTasks())
        kernelGradient(*ctx.kernels, shards, task);
    else
        inputGradient(*ctx.kernels, shards, task - kernelGradientTasks());
}

// Rows [f0, f1) of dK[F][units] += X^T * dY over the shards in order, each shard's samples in order;
// the last task also sums the bias gradient. The block of dK stays in cache across the shards.
void Dense::kernelGradient(const Kernels& k, std::span<const ShardView> shards, int task)
{
    const int F = int(m_in.size());
    const int f0 = task * kGradientRows, f1 = std::min(F, f0 + kGradientRows);
    float* dK = m_grad + int64_t(f0) * m_units;
    for (const ShardView& s : shards) {
        k.tileGemm(f1 - f0, m_units, s.n, s.x + f0, 1, F, s.dy, m_units, dK, m_units, true); // X^T through strides
    }
    if (m_bias && task == kernelGradientTasks() - 1) {
        float* gb = m_grad + int64_t(F) * m_units;
        for (const ShardView& s : shards)
            for (int i = 0; i < s.n; ++i)
                for (int u = 0; u < m_units; ++u)
                    gb[u] += s.dy[int64_t(i) * m_units + u];
    }
}

// Task t < kernelGradientTasks() writes rows [f0, f1) of dK, the last one also the bias after them.
std::pair<int64_t, int64_t> Dense::batchGradientRange(int task) const
{
    if (task >= kernelGradientTasks())
        return {0, 0};
    const int64_t F = m_in.size(), f0 = int64_t(task) * kGradientRows, f1 = std::min(F, f0 + kGradientRows);
    const bool last = task == kernelGradientTasks() - 1;
    return {f0 * m_units, f1 * m_units + (last && m_bias ? m_units : 0)};
}

// Columns [f0, f1) of every shard's dX[n][F] = dY * K^T, from the transposed kernel.
void Dense::inputGradient(const Kernels& k, std::span<const ShardView> shards, int task)
{
    const int F = int(m_in.size()), U = m_units;
    const int f0 = task * kInputColumns, f1 = std::min(F, f0 + kInputColumns);
    const SharedRight kernelT(k, U, f1 - f0, m_kernelT.data() + f0, F);
    for (const ShardView& s : shards)
        kernelT.times(s.n, s.dy, U, s.dx + f0, F, false);
}

// ---- The Dense kind (layers/layer_type.hpp) ----
namespace {
void parseDense(const LayerArgs& r, LayerSpec& l)
{
    r.require("units");
    // "classes": the dataset's class count, so the model fits any dataset (the presets).
    if (r.get("units")->is_string()) {
        if (r.get("units")->get<std::string>() != "classes")
            r.fail("\"units\" must be a whole number or \"classes\"");
        l.unitsFromClasses = true;
    } else {
        l.units = r.positive("units", 0, 1 << 20);
    }
    l.bias = r.boolean("use_bias", true);
    l.activation = r.activation(false);
}

std::unique_ptr<Layer> buildDense(const LayerBuild& b)
{
    const Shape shape = b.in;
    if (shape.spatial)
        b.fail("needs a flat input but receives " + shape.keras() + "; add a Flatten first");
    if (shape.sequence) // Keras applies Dense to every step of a sequence
        return std::make_unique<TimeDense>(b.name, shape, b.spec.denseUnits(b.classes), b.spec.bias, b.spec.activation);
    // A kernel too large for memory was refused before any layer was built (Network's walk of the
    // shapes), before this one allocates its transposed kernel (in x units floats).
    return std::make_unique<Dense>(b.name, shape, b.spec.denseUnits(b.classes), b.spec.bias, b.spec.activation);
}

uint64_t denseFloats(const LayerSpec& l, Shape& s, int classes)
{
    const int units = l.denseUnits(classes);
    if (s.sequence) { // the same kernel at every step; a text model's export writes a zero bias without use_bias
        const uint64_t n = uint64_t(s.c) * uint64_t(units) + units;
        s = Shape::seq(s.h, units);
        return n;
    }
    const uint64_t n = uint64_t(s.size()) * uint64_t(units) + (l.bias ? units : 0);
    s = Shape::flat(units);
    return n;
}

// On a sequence: MatMul (batch, steps, F) x (F, units), then Add the bias.
void timeDenseOnnx(OnnxLayer& o)
{
    const std::string& name = o.layer.name();
    o.batchMajor();
    const int64_t F = o.layer.inShape().c, units = o.layer.outShape().c;
    o.graph.floats(name + ".kernel", {F, units}, o.params, F * units);
    o.graph.node("MatMul", name + "/matmul", {o.cur, name + ".kernel"}, {name + "/matmul"});
    o.cur = name + "/matmul";
    if (o.spec.bias) {
        o.graph.floats(name + ".bias", {units}, o.params + F * units, units);
        o.graph.node("Add", name + "/bias", {o.cur, name + ".bias"}, {name + "/bias"});
        o.cur = name + "/bias";
    }
    o.activation = o.spec.activation;
}

void denseOnnx(OnnxLayer& o)
{
    if (o.layer.inShape().sequence)
        return timeDenseOnnx(o);
    const std::string& name = o.layer.name();
    const int64_t F = o.layer.inShape().size(), units = o.layer.outShape().size();
    o.graph.floats(name + ".kernel", {F, units}, o.params, F * units);
    std::vector<std::string> inputs = {o.cur, name + ".kernel"};
    if (o.spec.bias) {
        o.graph.floats(name + ".bias", {units}, o.params + F * units, units);
        inputs.push_back(name + ".bias");
    }
    o.graph.node("Gemm", name, inputs, {name});
    o.cur = name;
    o.activation = o.spec.activation;
}

// A text model's "dense" child: nn.Linear at every step, weight (units, F), bias (units), zero
// without use_bias; no activation but the final softmax (CrossEntropyLoss applies it).
void textDenseTorch(TorchLayer& t)
{
    const int64_t F = t.layer.inShape().c, units = t.layer.outShape().c;
    std::vector<int64_t> w(size_t(units * F));
    for (int64_t u = 0; u < units; ++u)
        for (int64_t f = 0; f < F; ++f)
            w[size_t(u * F + f)] = t.paramAt + f * units + u;
    t.addNamed("dense.weight", {units, F}, TorchTensor::Source::Params, std::move(w));
    if (t.spec.bias)
        t.addNamed("dense.bias", {units}, TorchTensor::Source::Params, indexRange(t.paramAt + F * units, units));
    else
        t.addNamed("dense.bias", {units}, TorchTensor::Source::Zeros, {});
    if (t.spec.activation != Activation::Softmax && t.spec.activation != Activation::Linear)
        t.refuseText("the Dense of a text model has no activation but the final softmax");
}

// Linear: weight (units, F) is the engine's (F, units) kernel transposed, bias (units); then
// ReLU()/ELU() for its activation.
void denseTorch(TorchLayer& t)
{
    if (t.text)
        return textDenseTorch(t);
    const int64_t F = t.layer.inShape().size(), units = t.layer.outShape().size();
    std::vector<int64_t> w(size_t(F * units));
    for (int64_t u = 0; u < units; ++u)
        for (int64_t k = 0; k < F; ++k)
            w[size_t(u * F + k)] = t.paramAt + t.kerasFeature(k) * units + u;
    t.add("weight", {units, F}, TorchTensor::Source::Params, std::move(w));
    if (t.spec.bias)
        t.add("bias", {units}, TorchTensor::Source::Params, indexRange(t.paramAt + F * units, units));
    t.perm.clear();
    ++t.module;
    t.activationModule(t.spec.activation);
}
} // namespace

const LayerType& denseLayerType()
{
    static const LayerType t{"Dense",    "dense",    {"units", "use_bias", "activation"},
                             parseDense, buildDense, denseFloats,
                             denseOnnx,  denseTorch};
    return t;
}

} // namespace tb
