#include "device/opencl/opencl_backend.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "layers/activation.hpp"
#include "layers/batch_norm.hpp"
#include "layers/conv2d.hpp"
#include "layers/dense.hpp"
#include "layers/dropout.hpp"
#include "layers/max_pool.hpp"
#include "layers/reshape.hpp"
#include "model/network.hpp"

#include <clblast.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>

namespace tb {

namespace {
constexpr size_t kLocal = 256;                     // work-group size (the reductions' WG)
constexpr int64_t kColsBudget = int64_t(64) << 20; // floats of im2col columns at most (256 MiB)
// Conv2D's kernel gradient dW (Cout x K) sums over all of a batch's output pixels: a product with
// few outputs and a very long sum, which a GEMM runs on a handful of work-groups. It is cut into
// pieces of kSplit columns computed side by side (one batched product), then added in order.
constexpr int64_t kSplit = 2048;
constexpr int64_t kPartialBudget = int64_t(8) << 20; // floats of pieces at most (32 MiB)

// How many pieces of kSplit columns a kernel gradient of `outputs` floats over `cols` columns is cut into.
int64_t splitsFor(int64_t outputs, int64_t cols)
{
    return std::min(cols / kSplit, kPartialBudget / std::max<int64_t>(outputs, 1));
}

// Which kernel-side activation code (kernels/common.cl) an Activation is.
int actCode(Activation a)
{
    switch (a) {
    case Activation::ReLU:
        return 1;
    case Activation::ELU:
        return 2;
    default:
        return 0; // linear; softmax is fused into the loss
    }
}

// A layer's geometry as MaxPool2D keeps it private: recovered from its shapes and spec.
ConvGeometry poolGeometry(const Layer& layer, const LayerSpec& spec)
{
    const Shape in = layer.inShape(), out = layer.outShape();
    ConvGeometry g{in.c, in.h, in.w, in.c, out.h, out.w, spec.kh, spec.kw, spec.sh, spec.sw, 0, 0};
    int ho = 0, wo = 0;
    kerasPadding(spec.same, in.h, spec.kh, spec.sh, ho, g.padTop);
    kerasPadding(spec.same, in.w, spec.kw, spec.sw, wo, g.padLeft);
    return g;
}

std::atomic<int64_t> g_loseAtStep{-1}; // loseOpenClDevicesAtStep's
} // namespace

void loseOpenClDevicesAtStep(int64_t step)
{
    g_loseAtStep = step;
}

// What one layer needs on the device beyond its activations.
struct OpenClBackend::LayerPlan {
    LayerKind kind{};
    const Layer* layer = nullptr;
    bool passThrough = false;
    int64_t paramAt = 0, stateAt = 0;
    ConvGeometry g{}; // Conv2D, MaxPool2D
    Activation act = Activation::Linear;
    bool bias = false;
    int units = 0;          // Dense
    float rate = 0.0f;      // Dropout
    uint32_t threshold = 0; // Dropout: rate * 2^24, rounded up
    // BatchNorm
    bool relu = false;
    int gammaAt = -1, betaAt = -1; // in params (absolute), -1: none
    float epsilon = 0.0f, momentum = 0.0f;
    ocl::Buffer channels; // BatchNorm: (7, C) per-channel constants; MaxPool2D: argmax (capacity * out)
};

int64_t OpenClBackend::requiredBytes(const Network& net, const Dataset& data, int batch)
{
    const int64_t P = net.paramCount(), S = net.stateCount();
    const int slots = 2; // the most any optimizer keeps (Adam)
    int64_t floats = 3 * P + 2 * slots * P + 2 * S;
    int64_t acts = net.inputShape().size(), colsNeed = 0, extra = 0, partials = 0;
    for (int l = 0; l < net.layerCount(); ++l) {
        const Layer& layer = net.layer(l);
        if (!layer.passThrough())
            acts += layer.outShape().size();
        if (layer.kind() == LayerKind::MaxPool2D)
            extra += layer.outShape().size() * batch;
        if (layer.kind() == LayerKind::BatchNorm)
            extra += 7 * int64_t(layer.inShape().c);
        if (auto* conv = dynamic_cast<const Conv2D*>(&layer)) {
            const ConvGeometry& g = conv->geometry();
            colsNeed = std::max(colsNeed, g.k() * g.ho * g.wo * batch);
            const int64_t outputs = g.cout * g.k();
            partials = std::max(partials, (splitsFor(outputs, int64_t(g.ho) * g.wo * batch) + 1) * outputs);
        }
    }
    floats += partials + acts * batch + 2 * net.maxActivationSize() * batch + std::min(colsNeed, kColsBudget) + extra;
    floats += int64_t(batch) * (3 + net.numClasses()) + 4;
    const int64_t bytes = int64_t(data.train.pixels.size() + data.train.labels.size() + data.test.pixels.size() +
                                  data.test.labels.size());
    return floats * int64_t(sizeof(float)) + bytes;
}

OpenClBackend::OpenClBackend(Network& net, const Dataset& data, const DeviceSpec& device,
                             const OptimizerConfig& optimizer, int batchSize, const std::string& kernelCacheDir)
    : m_net(net), m_data(data), m_spec(device), m_opt(optimizer), m_capacity(std::max(1, batchSize))
{
    if (!(optimizer.learningRate > 0.0f) || !std::isfinite(optimizer.learningRate))
        throw ConfigError("the learning rate must be a positive number");
    const int L = net.layerCount();
    // The kinds with OpenCL kernels; any other (LayerKind::Other: a kind added without kernels here)
    // is refused now, before training.
    for (int l = 0; l < L; ++l) {
        if (net.layer(l).inShape().sequence)
            throw ModelError("layer " + std::to_string(l + 1) + " (" + net.layer(l).name() +
                             ") works on sequences, which the OpenCL device does not run yet: train text models "
                             "on the CPU");
        switch (net.layer(l).kind()) {
        case LayerKind::Conv2D:
        case LayerKind::BatchNorm:
        case LayerKind::MaxPool2D:
        case LayerKind::Dropout:
        case LayerKind::Flatten:
        case LayerKind::Reshape:
        case LayerKind::Dense:
        case LayerKind::Activation:
            break;
        default:
            throw ModelError("layer " + std::to_string(l + 1) + " (" + net.layer(l).name() + ", " +
                             net.layerSpec(l).kerasClass +
                             ") cannot run on the OpenCL device: it has no OpenCL kernels; train it on the CPU");
        }
    }
    // Sizes the kernels index with int.
    const int64_t largest = std::max<int64_t>(net.maxActivationSize() * m_capacity, net.paramCount());
    if (largest > INT_MAX)
        throw ConfigError("a batch of " + std::to_string(m_capacity) + " holds " + std::to_string(largest) +
                          " values in one tensor, more than the OpenCL kernels index (2^31); use a smaller batch");

    m_dev = std::make_unique<ocl::Device>(device.index, kernelCacheDir); // the kernels build meanwhile
    const int64_t need = requiredBytes(net, data, m_capacity);
    if (need > m_dev->memoryBytes())
        throw ConfigError(
            "a batch of " + std::to_string(m_capacity) + " images of " + std::to_string(data.inputHeight()) + "x" +
            std::to_string(data.inputWidth()) + " needs about " + humanBytes(uint64_t(need)) + " on " + device.id() +
            " (" + m_dev->name() + "), more than its " + humanBytes(uint64_t(m_dev->memoryBytes())) +
            (m_dev->limited() ? " (TRAINBENCH_OPENCL_MEMORY_LIMIT)" : "") + "; use a smaller batch or size multiplier");
    m_loseAtStep = g_loseAtStep;

    ocl::Device& d = *m_dev;
    const int64_t P = net.paramCount(), S = net.stateCount();
    const int slots = Optimizer::slotCount(optimizer.kind);
    const int64_t F = sizeof(float);
    m_params = d.allocate(P * F, "the weights");
    m_nextParams = d.allocate(P * F, "the updated weights");
    m_grad = d.allocate(P * F, "the gradient");
    m_slots = d.allocate(slots * P * F, "the optimizer's state");
    m_nextSlots = d.allocate(slots * P * F, "the optimizer's updated state");
    m_state = d.allocate(S * F, "the BatchNorm statistics");
    m_stateBefore = d.allocate(S * F, "the BatchNorm statistics");
    d.write(m_params, net.params().data(), P * F);
    d.write(m_state, net.state().data(), S * F);

    auto upload = [&](const std::vector<uint8_t>& v, const char* what) {
        ocl::Buffer b = d.allocate(int64_t(v.size()), what);
        d.write(b, v.data(), int64_t(v.size()));
        return b;
    };
    m_trainPixels = upload(data.train.pixels, "the training images");
    m_trainLabels = upload(data.train.labels, "the training labels");
    m_testPixels = upload(data.test.pixels, "the test images");
    m_testLabels = upload(data.test.labels, "the test labels");

    const int N = m_capacity, classes = net.numClasses();
    m_indices = d.allocate(N * int64_t(sizeof(int)), "the batch's indices");
    m_labels = d.allocate(N * int64_t(sizeof(int)), "the batch's labels");
    m_loss = d.allocate(N * F, "the batch's losses");
    m_correct = d.allocate(N * int64_t(sizeof(int)), "the batch's predictions");
    m_probs = d.allocate(int64_t(N) * classes * F, "the batch's probabilities");
    m_status = d.allocate(4 * int64_t(sizeof(int)), "the step's status");
    m_hostIndices.assign(size_t(N), 0);

    // Activations: a layer that passes its input through shares its buffer.
    m_acts.push_back(d.allocate(int64_t(N) * net.inputShape().size() * F, "the input batch"));
    m_actOf.push_back(0);
    int64_t colsNeed = 0, stateAt = 0;
    for (int l = 0; l < L; ++l) {
        const Layer& layer = net.layer(l);
        auto plan = std::make_unique<LayerPlan>();
        plan->kind = layer.kind();
        plan->layer = &layer;
        plan->passThrough = layer.passThrough();
        plan->paramAt = net.paramOffset(l);
        plan->stateAt = stateAt;
        stateAt += layer.stateCount();
        if (plan->passThrough) {
            m_actOf.push_back(m_actOf.back());
        } else {
            m_actOf.push_back(int(m_acts.size()));
            m_acts.push_back(d.allocate(int64_t(N) * layer.outShape().size() * F, "the activations"));
        }
        if (auto* conv = dynamic_cast<const Conv2D*>(&layer)) {
            plan->g = conv->geometry();
            plan->act = conv->activation();
            plan->bias = conv->hasBias();
            colsNeed = std::max(colsNeed, plan->g.k() * plan->g.ho * plan->g.wo * N);
        } else if (auto* bn = dynamic_cast<const BatchNorm*>(&layer)) {
            const LayerSpec& spec = net.layerSpec(l);
            const int C = bn->channels();
            plan->relu = bn->fusedRelu();
            plan->gammaAt = bn->scale() ? 0 : -1;
            plan->betaAt = bn->center() ? (bn->scale() ? C : 0) : -1;
            plan->epsilon = spec.epsilon;
            plan->momentum = spec.momentum;
            plan->channels = d.allocate(7 * int64_t(C) * F, "BatchNorm's constants");
        } else if (layer.kind() == LayerKind::MaxPool2D) {
            plan->g = poolGeometry(layer, net.layerSpec(l));
            plan->channels =
                d.allocate(int64_t(N) * layer.outShape().size() * int64_t(sizeof(int)), "the pooling argmax");
        } else if (auto* dense = dynamic_cast<const Dense*>(&layer)) {
            plan->act = dense->activation();
            plan->bias = dense->hasBias();
            plan->units = dense->units();
        } else if (auto* drop = dynamic_cast<const Dropout*>(&layer)) {
            plan->rate = drop->rate();
            plan->threshold = uint32_t(std::ceil(double(plan->rate) * 16777216.0));
        } else if (auto* a = dynamic_cast<const ActivationLayer*>(&layer)) {
            plan->act = a->activation();
        }
        m_plans.push_back(std::move(plan));
    }
    m_colsCapacity = std::max<int64_t>(std::min(colsNeed, kColsBudget), 1);
    if (colsNeed > 0)
        m_cols = d.allocate(m_colsCapacity * F, "the convolution columns");
    int64_t partials = 0;
    for (const auto& p : m_plans)
        if (p->kind == LayerKind::Conv2D) {
            const int64_t outputs = p->g.cout * p->g.k();
            const int64_t cols = std::min<int64_t>(int64_t(p->g.ho) * p->g.wo * N, m_colsCapacity / p->g.k());
            if (splitsFor(outputs, cols) > 1)
                partials = std::max(partials, (splitsFor(outputs, cols) + 1) * outputs);
        }
    if (partials > 0)
        m_partials = d.allocate(partials * F, "the kernel gradient's pieces");
    for (auto& b : m_dbuf)
        b = d.allocate(int64_t(N) * net.maxActivationSize() * F, "the activation gradients");
    d.finish();
    d.waitForProgram(); // before the first step, so that a build error is a set-up error
}

OpenClBackend::~OpenClBackend() = default;

std::string OpenClBackend::describe() const
{
    return "OpenCL: " + m_dev->name() + " (" + m_dev->platform() + ", " + m_dev->version() +
           "); matrix products: CLBlast";
}

std::string OpenClBackend::setupNote() const
{
    std::string note = m_dev->origin().note;
    // PoCL: the GPU's kernels on the cores the CPU devices use, 40x slower than cpu:2 on the
    // development machine (docs/benchmarks.md), which nothing else in a run's output would explain.
    if (cl_device_type type = 0;
        clGetDeviceInfo(m_dev->id(), CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS &&
        (type & CL_DEVICE_TYPE_CPU)) {
        if (!note.empty())
            note += '\n';
        note += m_spec.id();
        note += " is not a GPU: it runs the GPU's OpenCL kernels on this CPU's cores, many times slower than the CPU "
                "devices (cpu:N)";
    }
    return note;
}

void OpenClBackend::checkUsable() const
{
    if (m_lost)
        throw DeviceError("the OpenCL device " + m_spec.id() + " (" + m_dev->name() +
                          ") was lost earlier in this run; the weights last copied to the host are kept");
}

void OpenClBackend::gemm(bool ta, bool tb, size_t m, size_t n, size_t k, const ocl::Buffer& a, size_t aOff, size_t lda,
                         const ocl::Buffer& b, size_t bOff, size_t ldb, float beta, ocl::Buffer& c, size_t cOff,
                         size_t ldc)
{
    using clblast::Transpose;
    const Transpose opA = ta ? Transpose::kYes : Transpose::kNo, opB = tb ? Transpose::kYes : Transpose::kNo;
    // CLBlast's scratch (padded copies of the operands), allocated once at the size the largest
    // product needs rather than by CLBlast on every call.
    size_t temp = 0;
    checkBlas(int(clblast::GemmTempBufferSize<float>(clblast::Layout::kRowMajor, opA, opB, m, n, k, aOff, lda, bOff,
                                                     ldb, cOff, ldc, &m_dev->queue(), temp)),
              "CLBlast GEMM scratch size");
    if (temp > 0 && int64_t(temp) > m_gemmTemp.bytes()) {
        m_gemmTemp = ocl::Buffer();
        m_gemmTemp = m_dev->allocate(int64_t(temp), "CLBlast's scratch");
    }
    const clblast::StatusCode s = clblast::Gemm<float>(
        clblast::Layout::kRowMajor, opA, opB, m, n, k, 1.0f, a.get(), aOff, lda, b.get(), bOff, ldb, beta, c.get(),
        cOff, ldc, &m_dev->queue(),
        m_dev->event("gemm " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k)),
        temp > 0 ? m_gemmTemp.get() : nullptr);
    checkBlas(int(s), "CLBlast GEMM");
}

void OpenClBackend::checkBlas(int code, const char* what)
{
    if (code == int(clblast::StatusCode::kSuccess))
        return;
    if (code < 0 && code > -100) // an OpenCL status
        ocl::check(code, what);
    throw DeviceError(std::string(what) + " failed with CLBlast status " + std::to_string(code));
}

// dW[Cout][K] += dY[Cout][cols] * cols[K][cols]^T, in pieces when the sum is long (see kSplit).
void OpenClBackend::kernelGradient(const LayerPlan& p, ocl::Buffer& dy, size_t dyOffset, size_t ldy, size_t cols)
{
    const ConvGeometry& g = p.g;
    const size_t K = size_t(g.k()), outputs = size_t(g.cout) * K;
    const int64_t splits = m_partials ? splitsFor(int64_t(outputs), int64_t(cols)) : 0;
    if (splits <= 1 || int64_t((splits + 1) * outputs) * int64_t(sizeof(float)) > m_partials.bytes()) {
        gemm(false, true, size_t(g.cout), K, cols, dy, dyOffset, ldy, m_cols, 0, cols, 1.0f, m_grad, size_t(p.paramAt),
             K);
        return;
    }
    using clblast::Transpose;
    const size_t piece = size_t(kSplit), rest = cols - size_t(splits) * piece;
    const clblast::StatusCode s = clblast::GemmStridedBatched<float>(
        clblast::Layout::kRowMajor, Transpose::kNo, Transpose::kYes, size_t(g.cout), K, piece, 1.0f, dy.get(), dyOffset,
        ldy, piece, m_cols.get(), 0, cols, piece, 0.0f, m_partials.get(), 0, K, outputs, size_t(splits),
        &m_dev->queue(), m_dev->event("gemm (kernel gradient pieces)"));
    checkBlas(int(s), "CLBlast batched GEMM");
    int parts = int(splits);
    if (rest > 0) {
        gemm(false, true, size_t(g.cout), K, rest, dy, dyOffset + size_t(splits) * piece, ldy, m_cols,
             size_t(splits) * piece, cols, 0.0f, m_partials, size_t(splits) * outputs, K);
        ++parts;
    }
    m_dev->run("sum_partials", outputs, kLocal, m_partials, parts, int(outputs), m_grad, int(p.paramAt));
}

void OpenClBackend::gather(const ocl::Buffer& pixels, const ocl::Buffer& labels, const ImageSplit& split, int mult,
                           bool useIdx, int first, int n)
{
    const Shape in = m_net.inputShape();
    m_dev->run("gather_images", size_t(n) * in.size(), kLocal, pixels, m_indices, int(useIdx), first, n, split.height,
               split.width, mult, m_net.inputScale(), m_acts[0]);
    m_dev->run("gather_labels", size_t(n), kLocal, labels, m_indices, int(useIdx), first, n, m_labels);
}

void OpenClBackend::forward(int l, int n, bool training, uint64_t dropoutKey)
{
    LayerPlan& p = *m_plans[size_t(l)];
    if (p.passThrough)
        return;
    ocl::Device& d = *m_dev;
    ocl::Buffer& x = m_acts[size_t(m_actOf[size_t(l)])];
    ocl::Buffer& y = m_acts[size_t(m_actOf[size_t(l) + 1])];
    const Shape in = p.layer->inShape(), out = p.layer->outShape();
    switch (p.kind) {
    case LayerKind::Conv2D: {
        const ConvGeometry& g = p.g;
        const int ohw = g.ho * g.wo;
        const int64_t K = g.k();
        const int chunk = int(std::clamp<int64_t>(m_colsCapacity / std::max<int64_t>(K * ohw, 1), 1, n));
        for (int s0 = 0; s0 < n; s0 += chunk) {
            const int cn = std::min(chunk, n - s0);
            const size_t cols = size_t(cn) * ohw;
            d.run("im2col", size_t(K) * cols, kLocal, x, n, s0, cn, g.cin, g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.padTop,
                  g.padLeft, g.ho, g.wo, m_cols);
            gemm(false, false, size_t(g.cout), cols, size_t(K), m_params, size_t(p.paramAt), size_t(K), m_cols, 0, cols,
                 0.0f, y, size_t(s0) * ohw, size_t(n) * ohw);
        }
        if (p.bias || p.act != Activation::Linear)
            d.run("bias_act_channels", size_t(g.cout) * n * ohw, kLocal, y, g.cout, n * ohw, m_params,
                  int(p.paramAt + int64_t(g.cout) * K), int(p.bias), actCode(p.act));
        return;
    }
    case LayerKind::BatchNorm: {
        const int C = in.c;
        const int channelLen = in.spatial ? n * int(in.plane()) : 0;
        const int count = in.spatial ? channelLen : n;
        const int cstride = in.spatial ? channelLen : 1, jstride = in.spatial ? 1 : C;
        const int gammaAt = p.gammaAt >= 0 ? int(p.paramAt) + p.gammaAt : -1;
        const int betaAt = p.betaAt >= 0 ? int(p.paramAt) + p.betaAt : -1;
        if (training)
            d.run("bn_stats", size_t(C) * kLocal, kLocal, x, C, count, cstride, jstride, p.epsilon, p.momentum,
                  m_params, gammaAt, betaAt, m_state, int(p.stateAt), p.channels);
        else
            d.run("bn_eval_fold", size_t(C), kLocal, C, p.epsilon, m_params, gammaAt, betaAt, m_state, int(p.stateAt),
                  p.channels);
        d.run("bn_affine", size_t(n) * in.size(), kLocal, x, y, int(n * in.size()), C, channelLen, int(p.relu),
              p.channels);
        return;
    }
    case LayerKind::MaxPool2D: {
        const ConvGeometry& g = p.g;
        d.run("maxpool_forward", size_t(n) * out.size(), kLocal, x, y, p.channels, int(training), g.cin * n, g.h, g.w,
              g.ho, g.wo, g.kh, g.kw, g.sh, g.sw, g.padTop, g.padLeft);
        return;
    }
    case LayerKind::Dropout: {
        if (!training || p.rate <= 0.0f) {
            d.copy(x, y, int64_t(n) * in.size() * int64_t(sizeof(float)));
            return;
        }
        const uint64_t layerKey = hashKey(dropoutKey, uint64_t(l));
        d.run("dropout", size_t(n) * in.size(), kLocal, x, y, n, in.spatial ? in.c : 1,
              int(in.spatial ? in.plane() : in.size()), int(in.spatial), cl_ulong(layerKey), cl_uint(p.threshold),
              1.0f / (1.0f - p.rate));
        return;
    }
    case LayerKind::Flatten:
    case LayerKind::Reshape:
        d.run("convert_layout", size_t(n) * out.size(), kLocal, x, y, n, int(in.spatial), int(in.plane()), in.c,
              int(out.spatial), int(out.plane()), out.c);
        return;
    case LayerKind::Dense: {
        const int Fin = int(in.size()), U = p.units;
        gemm(false, false, size_t(n), size_t(U), size_t(Fin), x, 0, size_t(Fin), m_params, size_t(p.paramAt), size_t(U),
             0.0f, y, 0, size_t(U));
        if (p.bias || p.act != Activation::Linear)
            d.run("bias_act_rows", size_t(n) * U, kLocal, y, n, U, m_params, int(p.paramAt + int64_t(Fin) * U),
                  int(p.bias), actCode(p.act));
        return;
    }
    case LayerKind::Activation:
        d.run("activate_copy", size_t(n) * in.size(), kLocal, x, y, int(n * in.size()), actCode(p.act));
        return;
    case LayerKind::Other: // refused by the constructor
        return;
    }
}

void OpenClBackend::backward(int l, int n, ocl::Buffer& dy, ocl::Buffer* dx)
{
    LayerPlan& p = *m_plans[size_t(l)];
    ocl::Device& d = *m_dev;
    ocl::Buffer& x = m_acts[size_t(m_actOf[size_t(l)])];
    ocl::Buffer& y = m_acts[size_t(m_actOf[size_t(l) + 1])];
    const Shape in = p.layer->inShape(), out = p.layer->outShape();
    switch (p.kind) {
    case LayerKind::Conv2D: {
        const ConvGeometry& g = p.g;
        const int ohw = g.ho * g.wo;
        const int64_t K = g.k();
        const size_t ldy = size_t(n) * ohw;
        if (p.act != Activation::Linear)
            d.run("activation_backward", size_t(g.cout) * ldy, kLocal, y, dy, dy, int(g.cout * ldy), actCode(p.act));
        if (p.bias)
            d.run("channel_sum", size_t(g.cout) * kLocal, kLocal, dy, int(ldy), int(ldy), 1, m_grad,
                  int(p.paramAt + int64_t(g.cout) * K), 1);
        const int chunk = int(std::clamp<int64_t>(m_colsCapacity / std::max<int64_t>(K * ohw, 1), 1, n));
        for (int s0 = 0; s0 < n; s0 += chunk) {
            const int cn = std::min(chunk, n - s0);
            const size_t cols = size_t(cn) * ohw;
            d.run("im2col", size_t(K) * cols, kLocal, x, n, s0, cn, g.cin, g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.padTop,
                  g.padLeft, g.ho, g.wo, m_cols);
            kernelGradient(p, dy, size_t(s0) * ohw, ldy, cols);
            if (dx) {
                // dcols[K][cols] = W^T dY, over the columns (the in-order queue has finished with them).
                gemm(true, false, size_t(K), cols, size_t(g.cout), m_params, size_t(p.paramAt), size_t(K), dy,
                     size_t(s0) * ohw, ldy, 0.0f, m_cols, 0, cols);
                d.run("col2im", size_t(g.cin) * cn * g.h * g.w, kLocal, m_cols, n, s0, cn, g.cin, g.h, g.w, g.kh, g.kw,
                      g.sh, g.sw, g.padTop, g.padLeft, g.ho, g.wo, *dx);
            }
        }
        return;
    }
    case LayerKind::BatchNorm: {
        const int C = in.c;
        const int channelLen = in.spatial ? n * int(in.plane()) : 0;
        const int count = in.spatial ? channelLen : n;
        const int cstride = in.spatial ? channelLen : 1, jstride = in.spatial ? 1 : C;
        const int gammaAt = p.gammaAt >= 0 ? int(p.paramAt) + p.gammaAt : -1;
        const int betaAt = p.betaAt >= 0 ? int(p.paramAt) + p.betaAt : -1;
        d.run("bn_backward_sums", size_t(C) * kLocal, kLocal, dy, x, C, count, cstride, jstride, int(p.relu), m_params,
              gammaAt, m_grad, gammaAt, betaAt, p.channels);
        if (dx)
            d.run("bn_backward_dx", size_t(n) * in.size(), kLocal, dy, x, *dx, int(n * in.size()), C, channelLen,
                  int(p.relu), p.channels);
        return;
    }
    case LayerKind::MaxPool2D: {
        if (!dx)
            return;
        const ConvGeometry& g = p.g;
        d.run("maxpool_backward", size_t(n) * in.size(), kLocal, dy, p.channels, *dx, g.cin * n, g.h, g.w, g.ho, g.wo,
              g.kh, g.kw, g.sh, g.sw, g.padTop, g.padLeft);
        return;
    }
    case LayerKind::Dropout: {
        if (!dx)
            return;
        if (p.rate <= 0.0f) {
            d.copy(dy, *dx, int64_t(n) * in.size() * int64_t(sizeof(float)));
            return;
        }
        // The forward pass's key: backward runs in the step that ran forward.
        d.run("dropout", size_t(n) * in.size(), kLocal, dy, *dx, n, in.spatial ? in.c : 1,
              int(in.spatial ? in.plane() : in.size()), int(in.spatial), cl_ulong(hashKey(m_dropoutKey, uint64_t(l))),
              cl_uint(p.threshold), 1.0f / (1.0f - p.rate));
        return;
    }
    case LayerKind::Flatten:
    case LayerKind::Reshape:
        if (dx)
            d.run("convert_layout", size_t(n) * in.size(), kLocal, dy, *dx, n, int(out.spatial), int(out.plane()),
                  out.c, int(in.spatial), int(in.plane()), in.c);
        return;
    case LayerKind::Dense: {
        const int Fin = int(in.size()), U = p.units;
        if (p.act != Activation::Linear)
            d.run("activation_backward", size_t(n) * U, kLocal, y, dy, dy, n * U, actCode(p.act));
        // dK[F][U] += X^T dY; db[U] += column sums of dY; dX = dY K^T.
        gemm(true, false, size_t(Fin), size_t(U), size_t(n), x, 0, size_t(Fin), dy, 0, size_t(U), 1.0f, m_grad,
             size_t(p.paramAt), size_t(U));
        if (p.bias)
            d.run("channel_sum", size_t(U) * kLocal, kLocal, dy, n, 1, U, m_grad, int(p.paramAt + int64_t(Fin) * U), 1);
        if (dx)
            gemm(false, true, size_t(n), size_t(Fin), size_t(U), dy, 0, size_t(U), m_params, size_t(p.paramAt),
                 size_t(U), 0.0f, *dx, 0, size_t(Fin));
        return;
    }
    case LayerKind::Activation:
        if (dx)
            d.run("activation_backward", size_t(n) * in.size(), kLocal, y, dy, *dx, int(n * in.size()), actCode(p.act));
        return;
    case LayerKind::Other: // refused by the constructor
        return;
    }
}

BatchResult OpenClBackend::trainBatch(const int* indices, int count, uint64_t dropoutKey)
{
    checkUsable();
    if (count < 1 || count > m_capacity)
        throw ConfigError("a batch of " + std::to_string(count) + " samples does not fit the OpenCL buffers made for " +
                          std::to_string(m_capacity));
    ++m_steps;
    if (m_loseAtStep > 0 && m_steps >= m_loseAtStep) {
        m_lost = true;
        throw DeviceError("the OpenCL device " + m_spec.id() + " (" + m_dev->name() + ") was lost at step " +
                          std::to_string(m_steps) +
                          " (simulated for a test); the weights last copied to the host are kept");
    }
    try {
        ocl::Device& d = *m_dev;
        const int n = count, L = m_net.layerCount();
        const int64_t P = m_net.paramCount(), S = m_net.stateCount();
        m_dropoutKey = dropoutKey;
        std::copy(indices, indices + n, m_hostIndices.begin());
        d.write(m_indices, m_hostIndices.data(), int64_t(n) * int64_t(sizeof(int)), 0, false);
        gather(m_trainPixels, m_trainLabels, m_data.train, m_data.sizeMultiplier, true, 0, n);
        if (S > 0)
            d.copy(m_state, m_stateBefore, S * int64_t(sizeof(float))); // forward moves the statistics
        const float zero = 0.0f;
        check(clEnqueueFillBuffer(d.queue(), m_grad.get(), &zero, sizeof zero, 0, size_t(P) * sizeof(float), 0, nullptr,
                                  nullptr));
        const int zeros[4] = {0, 0, 0, 0};
        d.write(m_status, zeros, sizeof zeros, 0, false);

        for (int l = 0; l < L; ++l)
            forward(l, n, true, dropoutKey);
        const int classes = m_net.numClasses();
        d.run("softmax_xent", size_t(n), kLocal, m_acts[size_t(m_actOf[size_t(L)])], m_labels, n, classes,
              1.0f / float(n), 1, m_dbuf[0], 0, m_probs, m_loss, m_correct);
        d.run("reduce_metrics", kLocal, kLocal, m_loss, m_correct, n, m_status);

        int cur = 0;
        for (int l = L - 1; l >= 0; --l) {
            if (m_plans[size_t(l)]->passThrough) // dy passes on as dx: same buffer
                continue;
            backward(l, n, m_dbuf[cur], l > 0 ? &m_dbuf[1 - cur] : nullptr);
            cur = 1 - cur;
        }

        // The update, written beside the old weights and slots (optimizer/optimizer.cpp's rules).
        const int64_t t = m_iterations + 1;
        float rate = m_opt.learningRate;
        if (m_opt.kind == OptimizerKind::Adam)
            rate = float(double(m_opt.learningRate) * std::sqrt(1.0 - std::pow(double(m_opt.beta2), double(t))) /
                         (1.0 - std::pow(double(m_opt.beta1), double(t))));
        const int np = int(P);
        switch (m_opt.kind) {
        case OptimizerKind::Adam:
            d.run("adam", size_t(P), kLocal, m_params, m_grad, m_slots, m_nextSlots, m_nextParams, np, rate,
                  m_opt.beta1, m_opt.beta2, m_opt.epsilon, m_status);
            break;
        case OptimizerKind::SGD:
            d.run("sgd", size_t(P), kLocal, m_params, m_grad, m_slots, m_nextSlots, m_nextParams, np, rate,
                  m_opt.momentum, int(m_opt.nesterov), m_status);
            break;
        case OptimizerKind::RMSprop:
            d.run("rmsprop", size_t(P), kLocal, m_params, m_grad, m_slots, m_nextSlots, m_nextParams, np, rate,
                  m_opt.rho, m_opt.epsilon, m_status);
            break;
        }
        int status[4];
        d.read(m_status, status, sizeof status); // the step's only wait
        float lossSum;
        std::memcpy(&lossSum, &status[0], sizeof lossSum);
        BatchResult b;
        b.step.lossSum = lossSum;
        b.step.correct = status[1];
        b.step.samples = n;
        if (!std::isfinite(lossSum))
            b.diverged = Divergence::Loss;
        else if (status[2])
            b.diverged = Divergence::Gradient;
        else if (status[3])
            b.diverged = Divergence::Weights;
        if (b.diverged != Divergence::None) {
            if (S > 0)
                d.copy(m_stateBefore, m_state, S * int64_t(sizeof(float)));
            return b;
        }
        m_params.swap(m_nextParams);
        m_slots.swap(m_nextSlots);
        ++m_iterations;
        return b;
    } catch (const DeviceError&) {
        m_lost = true; // nothing on the device can be trusted any more
        throw;
    }
}

void OpenClBackend::check(cl_int err)
{
    ocl::check(err, "clEnqueueFillBuffer");
}

EvalResult OpenClBackend::evaluate(const ImageSplit& split, int mult, int limit, EvalKeeps keeps,
                                   const std::atomic<bool>* cancel)
{
    checkUsable();
    const int total = limit > 0 ? std::min(limit, split.count) : split.count;
    const int classes = m_net.numClasses(), L = m_net.layerCount();
    EvalResult r;
    r.samples = total;
    const bool keep = keeps != EvalKeeps::Metrics, all = keeps == EvalKeeps::Probabilities;
    r.prepare(keeps, size_t(total), classes);
    std::vector<float> batchProbs(keep && !all ? size_t(m_capacity) * size_t(classes) : 0);
    try {
        ocl::Device& d = *m_dev;
        // The splits the backend was made for are on the device already; another goes up for this call.
        ocl::Buffer ownPixels, ownLabels;
        const ocl::Buffer* pixels = &m_testPixels;
        const ocl::Buffer* labels = &m_testLabels;
        if (&split == &m_data.train) {
            pixels = &m_trainPixels;
            labels = &m_trainLabels;
        } else if (&split != &m_data.test) {
            ownPixels = d.allocate(int64_t(split.pixels.size()), "the images to evaluate");
            ownLabels = d.allocate(int64_t(split.labels.size()), "the labels to evaluate");
            d.write(ownPixels, split.pixels.data(), int64_t(split.pixels.size()));
            d.write(ownLabels, split.labels.data(), int64_t(split.labels.size()));
            pixels = &ownPixels;
            labels = &ownLabels;
        }
        double lossSum = 0.0;
        int64_t correct = 0;
        for (int first = 0; first < total; first += m_capacity) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                r.cancelled = true;
                return r;
            }
            const int n = std::min(m_capacity, total - first);
            gather(*pixels, *labels, split, mult, false, first, n);
            for (int l = 0; l < L; ++l)
                forward(l, n, false, 0);
            d.run("softmax_xent", size_t(n), kLocal, m_acts[size_t(m_actOf[size_t(L)])], m_labels, n, classes, 0.0f, 0,
                  m_dbuf[0], int(keep), m_probs, m_loss, m_correct);
            d.run("reduce_metrics", kLocal, kLocal, m_loss, m_correct, n, m_status);
            int status[4];
            d.read(m_status, status, 2 * sizeof(int));
            float chunkLoss;
            std::memcpy(&chunkLoss, &status[0], sizeof chunkLoss);
            lossSum += chunkLoss;
            correct += status[1];
            if (keep) {
                float* probs = all ? r.probs.data() + int64_t(first) * classes : batchProbs.data();
                d.read(m_probs, probs, int64_t(n) * classes * int64_t(sizeof(float)));
                for (int i = 0; i < n; ++i)
                    r.keepPrediction(size_t(first + i), probs + int64_t(i) * classes, classes);
            }
        }
        r.loss = total ? lossSum / total : 0.0;
        r.accuracy = total ? double(correct) / total : 0.0;
        return r;
    } catch (const DeviceError&) {
        m_lost = true;
        throw;
    }
}

void OpenClBackend::syncToHost()
{
    if (m_lost)
        return; // the host keeps the weights it was last given
    m_dev->read(m_params, m_net.params().data(), m_net.paramCount() * int64_t(sizeof(float)));
    m_dev->read(m_state, m_net.state().data(), m_net.stateCount() * int64_t(sizeof(float)));
}

void OpenClBackend::syncFromHost()
{
    checkUsable();
    m_dev->write(m_params, m_net.params().data(), m_net.paramCount() * int64_t(sizeof(float)));
    m_dev->write(m_state, m_net.state().data(), m_net.stateCount() * int64_t(sizeof(float)));
}

OptimizerState OpenClBackend::optimizerState() const
{
    checkUsable();
    OptimizerState s;
    s.config = m_opt;
    s.iterations = m_iterations;
    s.slotBuffer.resize(size_t(m_net.paramCount() * Optimizer::slotCount(m_opt.kind)));
    m_dev->read(m_slots, s.slotBuffer.data(), int64_t(s.slotBuffer.size() * sizeof(float)));
    return s;
}

void OpenClBackend::setOptimizerState(const OptimizerState& state)
{
    checkUsable();
    const size_t expected = size_t(m_net.paramCount() * Optimizer::slotCount(m_opt.kind));
    if (state.config.kind != m_opt.kind || state.slotBuffer.size() != expected)
        throw ConfigError(std::string("the saved optimizer state is for ") + optimizerName(state.config.kind) +
                          " with " + std::to_string(state.slotBuffer.size()) + " values; this run uses " +
                          optimizerName(m_opt.kind) + " with " + std::to_string(expected));
    m_dev->write(m_slots, state.slotBuffer.data(), int64_t(expected * sizeof(float)));
    m_iterations = state.iterations;
}

std::vector<float> OpenClBackend::lastGradient()
{
    std::vector<float> g(size_t(m_net.paramCount()));
    m_dev->read(m_grad, g.data(), int64_t(g.size() * sizeof(float)));
    return g;
}

} // namespace tb
