// The layer interface. A layer is an explicit forward/backward pair over one shard of a batch;
// backward reads what forward left in the shard's buffers. Layers whose math couples the samples
// of a batch (BatchNorm in training) split their work into phases: per-shard partial sums, a
// reduction over shards in fixed order on one thread, then per-shard application. That fixed
// order is what makes training bit-identical on any number of threads.
#pragma once

#include "core/rng.hpp"
#include "core/shape.hpp"
#include "kernels/activation_kind.hpp"
#include "kernels/kernels.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tb {

// The built-in kinds a device backend may implement natively (OpenCL's kernels). A layer's kind as
// a model file names it is its LayerType (layers/layer_type.hpp); a kind added later answers
// Other, and a backend other than the CPU refuses it before training.
enum class LayerKind { Conv2D, BatchNorm, MaxPool2D, Dropout, Flatten, Reshape, Dense, Activation, Other };

const char* activationName(Activation a);

class Layer;

struct PassContext {
    bool training = false;
    int batchSize = 0;                          // samples in the whole batch
    uint64_t dropoutKey = 0;                    // derived from (seed, step); see Dropout
    const Kernels* kernels = &defaultKernels(); // the instruction-set level the pass runs on
    int bnAverageOf = 0;                        // > 0: precise BN's k-th batch (train/precise_bn.hpp), forward only
};

// One shard's view of a layer's buffers. Spatial tensors are [C][n][H][W], flat ones [n][F].
struct ShardView {
    int n = 0;                 // samples in this shard
    int firstSample = 0;       // index of the shard's first sample in the batch
    const float* x = nullptr;  // input activations
    float* y = nullptr;        // output activations
    float* dy = nullptr;       // gradient w.r.t. the output; layers may overwrite it
    float* dx = nullptr;       // gradient w.r.t. the input; null when nobody needs it
    float* cache = nullptr;    // cacheFloats(n) floats kept from forward for backward
    float* grad = nullptr;     // this shard's gradient for the layer's trainable params
    double* partial = nullptr; // partialDoubles() for phased layers
    // Evaluation: a BatchNorm after the layer folded into its forward (foldsInferenceAffine), to
    // apply to y after the layer's own work; null when none.
    const kernel::ChannelAffine* yAffine = nullptr;
    // The next layer, when this one runs it inside its own passes (Layer::absorbs): y is then that
    // layer's output, nextCache its cache, and in backward nextDy its gradient, from which this
    // layer makes its own dy where dy points. nextDy is in the buffer dx points to (when there is a
    // dx): the layer may overwrite it. Null otherwise.
    const Layer* next = nullptr;
    float* nextCache = nullptr;
    float* nextDy = nullptr;
};

// Runs fn(task) for every task in [0, tasks) on the pass's threads and returns when all are done:
// work a layer spreads over the threads outside its shards (beginPass, beginBackward). kSerialFor
// runs them on the calling thread (tests, tools).
using ParallelFor = std::function<void(int tasks, const std::function<void(int task)>& fn)>;
inline const ParallelFor kSerialFor = [](int tasks, const std::function<void(int)>& fn) {
    for (int t = 0; t < tasks; ++t)
        fn(t);
};

class Layer {
public:
    Layer(std::string name, Shape in, Shape out) : m_name(std::move(name)), m_in(in), m_out(out) {}
    virtual ~Layer() = default;

    virtual LayerKind kind() const { return LayerKind::Other; }
    const std::string& name() const { return m_name; }
    Shape inShape() const { return m_in; }
    Shape outShape() const { return m_out; }

    virtual int64_t paramCount() const { return 0; } // trainable
    virtual int64_t stateCount() const { return 0; } // non-trainable (BatchNorm moving statistics)
    virtual void initParams(float* /*params*/, float* /*state*/, Rng& /*rng*/) const {}
    // The network's flat buffers, at this layer's offsets.
    void bind(float* params, float* state, float* grad)
    {
        m_params = params;
        m_state = state;
        m_grad = grad;
    }

    virtual int64_t cacheFloats(int /*n*/) const { return 0; }
    virtual int64_t workspaceFloats(int /*n*/) const { return 0; }
    virtual int64_t partialDoubles() const { return 0; }
    virtual int phases(bool /*training*/) const { return 1; }
    // Called once, on one thread, before each training step (training) and each evaluation, with the
    // current parameters (e.g. to transform convolution kernels once instead of once per shard),
    // which it may spread over the threads with `parallel`.
    virtual void beginPass(const Kernels&, bool /*training*/, const ParallelFor& /*parallel*/) {}
    // Called once, on one thread, in a training step after every layer's forward pass and before
    // this layer's backward; `parallel` as for beginPass.
    virtual void beginBackward(const Kernels&, const ParallelFor& /*parallel*/) {}

    virtual void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) = 0;
    virtual void reduceForward(const PassContext&, int /*phase*/, std::span<ShardView>) {}
    virtual void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) = 0;
    virtual void reduceBackward(const PassContext&, int /*phase*/, std::span<ShardView>) {}

    // Batch-wide work, for a layer with a large kernel and a few samples per shard (Dense): every
    // shard passing over the whole kernel would stream it from memory once per shard. In training,
    // after every shard's forward (backward) phases, the executor runs batchForward (batchBackward)
    // for task in [0, batchForwardTasks()) (resp. batchBackwardTasks()) in parallel. Each task writes
    // its own part of the outputs, each output summed in a fixed order whatever the thread count,
    // and the parameter gradient goes straight to the batch-wide gradient (see usesShardGradient).
    virtual int batchForwardTasks() const { return 0; }
    virtual void batchForward(const PassContext&, std::span<ShardView>, int /*task*/) {}
    virtual int batchBackwardTasks(std::span<const ShardView>) const { return 0; }
    virtual void batchBackward(const PassContext&, std::span<const ShardView>, int /*task*/) {}
    // The part [first, second) of the layer's parameters whose batch-wide gradient batchBackward's
    // `task` writes (empty for a task that writes none). Tasks that write some come in increasing,
    // disjoint ranges; an MPI run passes each range's running sum between the ranks as its tasks end.
    virtual std::pair<int64_t, int64_t> batchGradientRange(int /*task*/) const { return {0, 0}; }
    // Whether backward accumulates parameter gradients into the shards' grad, which the executor
    // then sums in shard order. Layers that write the batch-wide gradient themselves (in
    // reduceBackward or batchBackward) say no, and the executor skips their range.
    virtual bool usesShardGradient() const { return paramCount() > 0; }
    // Parameters right before this layer's own (the layer before's, when that layer is fused into
    // this one) whose shard gradient this layer's backward writes too, at s.grad - gradientBefore():
    // the executor gives the two layers one contiguous shard gradient and sums it in shard order.
    virtual int64_t gradientBefore() const { return 0; }
    // Evaluation's folding of a BatchNorm into the layer before it (CpuExecutor::evaluate): the
    // BatchNorm's inference pass as a per-channel affine of [C][n][H][W] (valid after its
    // beginPass(..., false); null for the other layers), and whether a layer's forward can apply one
    // to its outputs (ShardView::yAffine). A pass less over the activations, the same bits.
    virtual const kernel::ChannelAffine* inferenceAffine() const { return nullptr; }
    virtual bool foldsInferenceAffine() const { return false; }
    // Whether the layer can run `next`'s forward and backward inside its own, on its outputs while
    // they are in cache (Conv2D: a max-pooling whose windows do not overlap). The executor then runs
    // `next` no more, gives this layer its buffers (ShardView::next), keeps no output of this layer's
    // own, and gives it absorbingWorkspaceFloats(n) floats of workspace more. The same bits as the
    // two layers apart.
    virtual bool absorbs(const Layer& /*next*/) const { return false; }
    virtual int64_t absorbingWorkspaceFloats(int /*n*/) const { return 0; }
    // A layer whose output is its input (an activation the layer before has taken over, or one that
    // does nothing here): the executor gives it its input's buffers and calls neither pass.
    virtual bool passThrough() const { return false; }
    // Whether the layer can write its output over its input (elementwise, and its backward reads
    // neither), and whether its backward reads its own output (s.y). The executor runs the first kind
    // over its input where the layer that wrote that input says no to the second.
    virtual bool writesOverInput() const { return false; }
    virtual bool readsOutputInBackward() const { return true; }

    // Step-by-step inference (text generation): one time step of n sequences. `in` holds n rows of
    // the layer before's step output (the first layer gets the n symbol ids, as floats), `out` gets
    // this layer's n rows, `carried` the layer's state from one step to the next (empty before the
    // first). What cannot run so says why from stepRefusal, which the generator asks for every layer
    // before it starts ("" : it can); the default passes its input on (a layer that does nothing in
    // inference).
    virtual std::string stepRefusal(bool /*lastLayer*/) const
    {
        return "cannot generate text step by step: a text model for writing has an Embedding, LSTMs with "
               "\"return_sequences\": true and a Dense per step";
    }
    virtual void stepForward(const Kernels&, const std::vector<float>& in, int /*n*/, std::vector<float>& out,
                             std::vector<float>& /*carried*/) const
    {
        out = in;
    }

protected:
    std::string m_name;
    Shape m_in, m_out;
    float* m_params = nullptr;
    float* m_state = nullptr;
    float* m_grad = nullptr; // the reduced, batch-wide gradient (phased layers write it directly)
};

} // namespace tb
