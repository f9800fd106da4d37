#include "train/cpu_executor.hpp"

#include "train/loss.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

namespace tb {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}
constexpr int64_t kReduceChunk = 1 << 15;
// Shards an evaluation of a data-parallel run does between the ranks' agreements on a stop (1,024
// images: about half a second of colab-fashion-cnn on one core; the agreement takes microseconds).
constexpr int kAgreeShards = 64;

// Per sample, the floats each of backward's two activation-gradient buffers holds at most: they take
// turns as a layer's dy and dx from the last layer down, the loss's gradient in the first.
std::array<int64_t, 2> gradientBufferFloats(const Network& net)
{
    std::array<int64_t, 2> floats{1, 1};
    int cur = 0;
    for (int l = net.layerCount() - 1; l >= 0; --l) {
        const Layer& layer = net.layer(l);
        if (layer.passThrough()) // dy passes on as dx: same buffer
            continue;
        floats[size_t(cur)] = std::max(floats[size_t(cur)], layer.outShape().size());
        if (l > 0)
            floats[size_t(1 - cur)] = std::max(floats[size_t(1 - cur)], layer.inShape().size());
        cur = 1 - cur;
    }
    return floats;
}

// Whether layer l runs inside the layer before it (Layer::absorbs): the executor does not run it; the
// layer before writes its output and cache, and takes its gradient. For backward's two gradient
// buffers it still counts as a layer: its dy is in one, the layer before's dy in the other.
bool absorbed(const Network& net, int l)
{
    return l > 0 && !net.layer(l).passThrough() && !net.layer(l - 1).passThrough() &&
           net.layer(l - 1).absorbs(net.layer(l));
}

// The layer l absorbs (l + 1), or null.
const Layer* absorbedNext(const Network& net, int l)
{
    return l + 1 < net.layerCount() && absorbed(net, l + 1) ? &net.layer(l + 1) : nullptr;
}

// The floats of layer l's own output per sample: none when the next layer's output takes its place.
int64_t outputFloats(const Network& net, int l)
{
    return absorbedNext(net, l) ? 0 : net.layer(l).outShape().size();
}

int64_t workspaceFloats(const Network& net, int l, int n)
{
    const Layer& layer = net.layer(l);
    return layer.workspaceFloats(n) + (absorbedNext(net, l) ? layer.absorbingWorkspaceFloats(n) : 0);
}

// Whether layer l's output goes in its input's buffer: a layer the executor never runs
// (passThrough), or one that writes over its input where the layer that wrote the input does not
// read its output again (a Dropout after a pooling: the pooling's backward reads only its argmax;
// not after a pooling a convolution absorbed, whose backward reads the pooled outputs).
bool sharesInputBuffer(const Network& net, int l)
{
    const Layer& layer = net.layer(l);
    if (layer.passThrough())
        return true;
    if (!layer.writesOverInput())
        return false;
    for (int k = l - 1; k >= 0; --k)
        if (!net.layer(k).passThrough())
            return !net.layer(absorbed(net, k) ? k - 1 : k).readsOutputInBackward();
    return true; // the network's input, loaded again for every pass
}

// The floats of one layer's shard gradient: its parameters, and those of the layer before it writes.
int64_t shardGradientFloats(const Layer& layer)
{
    return layer.usesShardGradient() ? layer.gradientBefore() + layer.paramCount() : 0;
}
} // namespace

// Everything one shard keeps during a training step.
struct CpuExecutor::Shard {
    int n = 0;
    int firstSample = 0;
    std::vector<float> acts;          // all layer inputs/outputs, back to back
    std::vector<int64_t> actOffset;   // (layers + 1)
    std::vector<float> cache;         // per-layer caches (training only, as the four below)
    std::vector<int64_t> cacheOffset; // (layers)
    int64_t cacheFloats = 0;
    std::vector<double> partial;        // per-layer reduction partials
    std::vector<int64_t> partialOffset; // (layers)
    int64_t partialDoubles = 0;
    std::vector<float> grad;     // this shard's gradient of the layers that sum it per shard
    std::vector<float> dbuf[2];  // ping-pong activation gradients (gradientBufferFloats)
    std::vector<uint8_t> labels; // (n)
    LossSums loss;

    // Layer l's buffers; with `next`, the layer it absorbs (l + 1) gives its output, cache and dy.
    ShardView view(int l, int cur, int64_t gradOffset, const Layer* next = nullptr)
    {
        ShardView v;
        v.n = n;
        v.firstSample = firstSample;
        v.x = acts.data() + actOffset[size_t(l)];
        v.y = acts.data() + actOffset[size_t(l) + 1];
        v.dy = dbuf[cur].data();
        v.dx = l > 0 ? dbuf[1 - cur].data() : nullptr;
        v.cache = cache.data() + cacheOffset[size_t(l)];
        v.grad = gradOffset >= 0 ? grad.data() + gradOffset : nullptr;
        v.partial = partial.data() + partialOffset[size_t(l)];
        if (next) {
            v.y = acts.data() + actOffset[size_t(l) + 2];
            v.next = next;
            v.nextCache = cache.empty() ? nullptr : cache.data() + cacheOffset[size_t(l) + 1];
            v.nextDy = dbuf[1 - cur].data();
        }
        return v;
    }
};

uint64_t CpuExecutor::trainingBytes(const Network& net, int batch, int threads, int shardSize, bool acrossRanks)
{
    // Mirrors the constructor and allocateShards(): the workspaces per thread, then per shard its
    // activations, cache, partial sums, gradient and the two activation-gradient buffers (an
    // evaluation-only shard beyond the batch's has only activations: counted whole, an upper bound).
    const int n = std::max(1, shardSize);
    // Evaluation runs on the training's shards, one per thread at least.
    const uint64_t shards = uint64_t(std::max<int64_t>((int64_t(batch) + n - 1) / n, std::max(1, threads)));
    int64_t ws = 0, a = int64_t(n) * net.inputShape().size(), c = 0, p = 0, g = 0;
    for (int l = 0; l < net.layerCount(); ++l) {
        const Layer& layer = net.layer(l);
        g = acrossRanks ? g + shardGradientFloats(layer) : std::max(g, shardGradientFloats(layer));
        ws = std::max(ws, workspaceFloats(net, l, n));
        if (!sharesInputBuffer(net, l))
            a += int64_t(n) * outputFloats(net, l);
        c += layer.cacheFloats(n);
        p += layer.partialDoubles();
    }
    const std::array<int64_t, 2> d = gradientBufferFloats(net);
    const uint64_t perShard =
        uint64_t(a + std::max<int64_t>(c, 1) + std::max<int64_t>(g, 1) + int64_t(n) * (d[0] + d[1])) * sizeof(float) +
        uint64_t(std::max<int64_t>(p, 1)) * sizeof(double);
    return uint64_t(net.paramCount()) * sizeof(float) + uint64_t(std::max(1, threads)) * uint64_t(ws) * sizeof(float) +
           shards * perShard;
}

CpuExecutor::CpuExecutor(Network& net, int threads, int shardSize, const Kernels& kernels, Communicator* comm)
    : m_net(net), m_pool(threads), m_shardSize(std::max(1, shardSize)), m_kernels(&kernels), m_comm(comm)
{
    m_parallel = [this](int tasks, const std::function<void(int)>& fn) {
        m_pool.run(tasks, [&](int t, int) { fn(t); });
    };
    m_grad.assign(size_t(net.paramCount()), 0.0f);
    m_net.bindGradient(m_grad.data());
    int64_t ws = 0;
    for (int l = 0; l < net.layerCount(); ++l)
        ws = std::max(ws, workspaceFloats(net, l, m_shardSize));
    m_workspace.resize(size_t(m_pool.threads()));
    for (auto& w : m_workspace)
        w.assign(size_t(ws), 0.0f);
    m_shardGradOffset.assign(size_t(net.layerCount()), -1);
    m_layerChunks.assign(size_t(net.layerCount()) + 1, 0);
    for (int l = 0; l < net.layerCount(); ++l) {
        m_layerChunks[size_t(l)] = int(m_reduceChunks.size());
        if (!net.layer(l).usesShardGradient())
            continue;
        // A layer that writes the gradient of the one before too (Layer::gradientBefore) gets both.
        // One process sums a layer's shard gradients as soon as its backward ends, so every layer's
        // starts at 0; ranks sum them all after backward (reduceAcrossRanks), so they lie back to back.
        const int64_t before = net.layer(l).gradientBefore(), at = comm ? m_shardGradFloats : 0;
        m_shardGradOffset[size_t(l)] = at + before;
        const int64_t begin = net.paramOffset(l) - before, end = net.paramOffset(l) + net.layer(l).paramCount();
        for (int64_t lo = begin; lo < end; lo += kReduceChunk)
            m_reduceChunks.push_back({lo, std::min(end, lo + kReduceChunk), at + (lo - begin)});
        m_shardGradFloats = std::max(m_shardGradFloats, at + (end - begin));
    }
    m_layerChunks.back() = int(m_reduceChunks.size());
    if (comm) { // every rank constructs its executor at the same point of the run
        const uint64_t mine = uint64_t(m_pool.threads());
        std::vector<uint64_t> all(size_t(comm->size()));
        comm->allgather(&mine, 1, all.data());
        m_chainGroup = int(*std::max_element(all.begin(), all.end()));
    }
    m_fwdSec.assign(size_t(net.layerCount()), 0.0);
    m_bwdSec.assign(size_t(net.layerCount()), 0.0);
}

CpuExecutor::~CpuExecutor()
{
    m_net.bindGradient(nullptr);
}

// At least `count` shards, each with what a forward pass needs (its activations); `training` adds
// what backward needs (caches, partial sums, gradient, activation gradients) to the first `count`.
void CpuExecutor::allocateShards(int count, bool training)
{
    const int L = m_net.layerCount();
    const int n = m_shardSize;
    while (int(m_shards.size()) < count) {
        auto s = std::make_unique<Shard>();
        int64_t a = 0, c = 0, p = 0;
        s->actOffset.push_back(0);
        a += int64_t(n) * m_net.inputShape().size();
        for (int l = 0; l < L; ++l) {
            const Layer& layer = m_net.layer(l);
            if (sharesInputBuffer(m_net, l)) { // its output over its input
                s->actOffset.push_back(s->actOffset.back());
            } else {
                s->actOffset.push_back(a);
                a += int64_t(n) * outputFloats(m_net, l);
            }
            s->cacheOffset.push_back(c);
            c += layer.cacheFloats(n);
            s->partialOffset.push_back(p);
            p += layer.partialDoubles();
        }
        s->acts.assign(size_t(a), 0.0f);
        s->cacheFloats = c;
        s->partialDoubles = p;
        s->labels.assign(size_t(n) * size_t(m_net.outputSteps()), 0);
        m_shards.push_back(std::move(s));
    }
    if (!training)
        return;
    const std::array<int64_t, 2> d = gradientBufferFloats(m_net);
    for (int k = 0; k < count; ++k) {
        Shard& s = *m_shards[size_t(k)];
        if (!s.grad.empty())
            continue;
        s.cache.assign(size_t(std::max<int64_t>(s.cacheFloats, 1)), 0.0f);
        s.partial.assign(size_t(std::max<int64_t>(s.partialDoubles, 1)), 0.0);
        s.grad.assign(size_t(std::max<int64_t>(m_shardGradFloats, 1)), 0.0f);
        for (size_t b = 0; b < 2; ++b)
            s.dbuf[b].assign(size_t(int64_t(n) * d[b]), 0.0f);
    }
}

// This rank's shards of a batch: `count` of them from global shard `firstShard` (all on one process).
void CpuExecutor::prepare(int batch, int firstShard, int count)
{
    allocateShards(count, true);
    for (int k = 0; k < count; ++k) {
        m_shards[size_t(k)]->firstSample = (firstShard + k) * m_shardSize;
        m_shards[size_t(k)]->n = std::min(m_shardSize, batch - (firstShard + k) * m_shardSize);
    }
}

void CpuExecutor::loadInput(const ImageSplit& split, int mult, const int* indices, int first, int n, float* dst)
{
    const int64_t size = m_net.inputShape().size();
    for (int i = 0; i < n; ++i)
        imageToFloat(split, indices ? indices[first + i] : first + i, mult, m_net.inputScale(), dst + i * size);
}

const std::vector<double>& CpuExecutor::gatherPerShard(const std::vector<double>& mine, int per)
{
    const int ranks = m_comm->size();
    std::vector<int> counts(static_cast<size_t>(ranks)), displs(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        counts[size_t(r)] = (m_rankShards[size_t(r) + 1] - m_rankShards[size_t(r)]) * per;
        displs[size_t(r)] = m_rankShards[size_t(r)] * per;
    }
    m_allPartials.resize(size_t(m_rankShards.back()) * size_t(per));
    m_comm->allgatherv(mine.data(), m_allPartials.data(), counts, displs);
    return m_allPartials;
}

std::span<ShardView> CpuExecutor::reductionViews(const Layer& layer, std::span<ShardView> local, int batch)
{
    const int per = int(layer.partialDoubles());
    if (!m_comm || per == 0)
        return local;
    m_sendPartials.resize(local.size() * size_t(per));
    for (size_t k = 0; k < local.size(); ++k)
        std::copy(local[k].partial, local[k].partial + per, m_sendPartials.begin() + int64_t(k) * per);
    gatherPerShard(m_sendPartials, per);
    const int S = m_rankShards.back();
    m_allViews.resize(size_t(S));
    for (int g = 0; g < S; ++g) {
        ShardView& v = m_allViews[size_t(g)];
        v = ShardView{};
        v.firstSample = g * m_shardSize;
        v.n = std::min(m_shardSize, batch - v.firstSample);
        v.partial = m_allPartials.data() + int64_t(g) * per;
    }
    return m_allViews;
}

// grad[i] += shard0[i] + shard1[i] + ... over the batch's shards in order, the running sum passed
// from rank to rank chunk by chunk (so the ranks work on different chunks at once), then the last
// rank's total, the whole gradient, broadcast.
void CpuExecutor::reduceAcrossRanks(int shards)
{
    const int rank = m_comm->rank(), last = m_comm->size() - 1, L = m_net.layerCount();
    const int parts = m_pool.threads();
    for (size_t c = 0; c < m_reduceChunks.size(); ++c) {
        const int64_t lo = m_reduceChunks[c].lo, hi = m_reduceChunks[c].hi;
        float* dst = m_grad.data() + (lo - m_reduceChunks[c].shardLo); // shard index i is whole index dst + i
        if (rank > 0)
            m_comm->receiveFromPrevious(m_grad.data() + lo, hi - lo, L + int(c));
        m_pool.run(parts, [&](int p, int) { // elementwise: any split gives the same sums
            const int64_t shardLo = m_reduceChunks[c].shardLo, n = hi - lo;
            const int64_t a = shardLo + n * p / parts, b = shardLo + n * (p + 1) / parts;
            for (int k = 0; k < shards; ++k)
                m_kernels->accumulateAndClear(dst, m_shards[size_t(k)]->grad.data(), a, b);
        });
        if (rank < last)
            m_comm->sendToNext(m_grad.data() + lo, hi - lo, L + int(c));
    }
    m_comm->finishSends();
    m_comm->broadcastFromLast(m_grad.data(), int64_t(m_grad.size()));
}

// A layer that sums its parameter gradient over the batch itself (Dense) continues the running sum
// of the ranks before this one and hands it on, a few tasks' ranges at a time so that the ranks
// overlap; its other tasks (dX) need nothing from the others.
void CpuExecutor::batchBackwardAcrossRanks(const PassContext& ctx, int l, std::span<const ShardView> views)
{
    Layer& layer = m_net.layer(l);
    const int tasks = layer.batchBackwardTasks(views);
    std::vector<int> local, chained;
    for (int t = 0; t < tasks; ++t) {
        const auto [lo, hi] = layer.batchGradientRange(t);
        (hi > lo ? chained : local).push_back(t);
    }
    m_pool.run(int(local.size()), [&](int i, int) { layer.batchBackward(ctx, views, local[size_t(i)]); });
    float* grad = m_grad.data() + m_net.paramOffset(l);
    const int rank = m_comm->rank(), group = m_chainGroup;
    for (size_t g0 = 0; g0 < chained.size(); g0 += size_t(group)) {
        const size_t g1 = std::min(chained.size(), g0 + size_t(group));
        const int64_t lo = layer.batchGradientRange(chained[g0]).first;
        const int64_t hi = layer.batchGradientRange(chained[g1 - 1]).second;
        if (rank > 0)
            m_comm->receiveFromPrevious(grad + lo, hi - lo, l);
        m_pool.run(int(g1 - g0), [&](int i, int) { layer.batchBackward(ctx, views, chained[g0 + size_t(i)]); });
        if (rank < m_comm->size() - 1)
            m_comm->sendToNext(grad + lo, hi - lo, l);
    }
}

StepResult CpuExecutor::trainStep(const ImageSplit& split, int mult, const int* indices, int count, uint64_t dropoutKey,
                                  int bnAverageOf)
{
    // The batch's shards; with ranks, rank r runs the contiguous shards [S*r/N, S*(r+1)/N) (maybe none).
    const int shardsInBatch = (count + m_shardSize - 1) / m_shardSize;
    const int ranks = m_comm ? m_comm->size() : 1, rank = m_comm ? m_comm->rank() : 0;
    m_rankShards.resize(size_t(ranks) + 1);
    for (int r = 0; r <= ranks; ++r)
        m_rankShards[size_t(r)] = int(int64_t(shardsInBatch) * r / ranks);
    const int S = m_rankShards[size_t(rank) + 1] - m_rankShards[size_t(rank)];
    prepare(count, m_rankShards[size_t(rank)], S);
    const int L = m_net.layerCount();
    std::vector<ShardView> views(static_cast<size_t>(S));
    PassContext ctx;
    ctx.training = true;
    ctx.batchSize = count;
    ctx.dropoutKey = dropoutKey;
    ctx.kernels = m_kernels;
    ctx.bnAverageOf = bnAverageOf;

    m_pool.run(S, [&](int k, int) {
        Shard& s = *m_shards[size_t(k)];
        loadInput(split, mult, indices, s.firstSample, s.n, s.acts.data());
        const int64_t steps = m_net.outputSteps(); // one label per step of a sequence
        for (int i = 0; i < s.n; ++i)
            std::copy_n(split.labels.begin() + int64_t(indices[s.firstSample + i]) * steps, steps,
                        s.labels.begin() + i * steps);
    });

    for (int l = 0; l < L; ++l) {
        const auto t0 = Clock::now();
        Layer& layer = m_net.layer(l);
        if (layer.passThrough() || absorbed(m_net, l))
            continue;
        layer.beginPass(*m_kernels, true, m_parallel);
        const Layer* next = absorbedNext(m_net, l);
        for (int k = 0; k < S; ++k)
            views[size_t(k)] = m_shards[size_t(k)]->view(l, 0, m_shardGradOffset[size_t(l)], next);
        for (int ph = 0; ph < layer.phases(true); ++ph) {
            m_pool.run(S,
                       [&](int k, int w) { layer.forward(ctx, ph, views[size_t(k)], m_workspace[size_t(w)].data()); });
            // A reduction feeds the next phase: after the last one there is nothing to gather.
            if (ph + 1 < layer.phases(true))
                layer.reduceForward(ctx, ph, reductionViews(layer, views, count));
            else
                layer.reduceForward(ctx, ph, views);
        }
        m_pool.run(layer.batchForwardTasks(), [&](int t, int) { layer.batchForward(ctx, views, t); });
        m_fwdSec[size_t(l)] = since(t0);
    }
    if (bnAverageOf > 0)
        return {};

    // Loss and d(loss)/d(logits) into dbuf[0], which is the last layer's dy.
    // A sequence model's loss is the mean over every step of every sample: its n x T outputs are n x T
    // rows of logits.
    const int classes = m_net.numClasses();
    const int steps = m_net.outputSteps();
    const float scale = 1.0f / float(int64_t(count) * steps);
    m_pool.run(S, [&](int k, int) {
        Shard& s = *m_shards[size_t(k)];
        s.loss = softmaxCrossEntropy(s.acts.data() + s.actOffset[size_t(L)], s.labels.data(), s.n * steps, classes,
                                     scale, s.dbuf[0].data(), nullptr);
    });

    std::fill(m_grad.begin(), m_grad.end(), 0.0f);
    int cur = 0;
    for (int l = L - 1; l >= 0; --l) {
        const auto t0 = Clock::now();
        Layer& layer = m_net.layer(l);
        if (layer.passThrough()) // dy passes on as dx: same buffer
            continue;
        if (absorbed(m_net, l)) { // the layer before finds this one's dy in the other buffer
            cur = 1 - cur;
            continue;
        }
        layer.beginBackward(*m_kernels, m_parallel);
        const Layer* next = absorbedNext(m_net, l);
        for (int k = 0; k < S; ++k)
            views[size_t(k)] = m_shards[size_t(k)]->view(l, cur, m_shardGradOffset[size_t(l)], next);
        for (int ph = 0; ph < layer.phases(true); ++ph) {
            m_pool.run(S,
                       [&](int k, int w) { layer.backward(ctx, ph, views[size_t(k)], m_workspace[size_t(w)].data()); });
            if (ph + 1 < layer.phases(true))
                layer.reduceBackward(ctx, ph, reductionViews(layer, views, count));
            else
                layer.reduceBackward(ctx, ph, views);
        }
        if (m_comm) {
            batchBackwardAcrossRanks(ctx, l, std::span<const ShardView>(views.data(), size_t(S)));
        } else {
            m_pool.run(layer.batchBackwardTasks(views), [&](int t, int) { layer.batchBackward(ctx, views, t); });
            sumShardGradients(l, S);
        }
        cur = 1 - cur;
        m_bwdSec[size_t(l)] = since(t0);
    }

    StepResult r;
    r.samples = count * steps; // a text model counts tokens
    if (m_comm) {
        reduceAcrossRanks(S);
        std::vector<double> mine(size_t(S) * 2);
        for (int k = 0; k < S; ++k) {
            mine[size_t(k) * 2] = m_shards[size_t(k)]->loss.loss;
            mine[size_t(k) * 2 + 1] = double(m_shards[size_t(k)]->loss.correct);
        }
        const std::vector<double>& all = gatherPerShard(mine, 2);
        for (int g = 0; g < shardsInBatch; ++g) {
            r.lossSum += all[size_t(g) * 2];
            r.correct += int(all[size_t(g) * 2 + 1]);
        }
        return r;
    }
    for (int k = 0; k < S; ++k) {
        r.lossSum += m_shards[size_t(k)]->loss.loss;
        r.correct += m_shards[size_t(k)]->loss.correct;
    }
    return r;
}

// grad[i] += shard0[i] + shard1[i] + ... in shard order over layer l's shard gradient, which leaves
// it zero for the next layer; chunks of i run in parallel.
void CpuExecutor::sumShardGradients(int l, int shards)
{
    const int first = m_layerChunks[size_t(l)];
    m_pool.run(m_layerChunks[size_t(l) + 1] - first, [&](int c, int) {
        const ReduceChunk& r = m_reduceChunks[size_t(first + c)];
        float* dst = m_grad.data() + (r.lo - r.shardLo);
        for (int k = 0; k < shards; ++k)
            m_kernels->accumulateAndClear(dst, m_shards[size_t(k)]->grad.data(), r.shardLo, r.shardLo + (r.hi - r.lo));
    });
}

EvalResult CpuExecutor::evaluate(const ImageSplit& split, int mult, int limit, EvalKeeps keeps,
                                 const std::atomic<bool>* cancel)
{
    const int total = limit > 0 ? std::min(limit, split.count) : split.count;
    const int S = (total + m_shardSize - 1) / m_shardSize;
    const int L = m_net.layerCount();
    const int classes = m_net.numClasses();
    std::vector<LossSums> sums(static_cast<size_t>(S));
    const int steps = m_net.outputSteps(); // a text model: one prediction per step
    EvalResult r;
    r.samples = total * steps;
    const bool keep = keeps != EvalKeeps::Metrics, all = keeps == EvalKeeps::Probabilities;
    r.prepare(keeps, size_t(total) * size_t(steps), classes);
    // Without every probability kept, each worker's shard has its own (a shard of a text is its
    // sequences' symbols, each with the whole vocabulary).
    std::vector<std::vector<float>> shardProbs(keep && !all ? size_t(m_pool.threads()) : 0);
    for (std::vector<float>& p : shardProbs)
        p.resize(size_t(m_shardSize) * size_t(steps) * size_t(classes));
    PassContext ctx;
    ctx.training = false;
    ctx.kernels = m_kernels;
    for (int l = 0; l < L; ++l)
        m_net.layer(l).beginPass(*m_kernels, false, m_parallel);
    // A BatchNorm right after a layer that can apply it to its outputs runs inside that layer
    // (yAffine[l], what layer l applies), which writes the BatchNorm's output buffer; the BatchNorm
    // is skipped.
    std::vector<const kernel::ChannelAffine*> yAffine(size_t(L), nullptr);
    for (int l = 0; l + 1 < L; ++l)
        if (m_net.layer(l).foldsInferenceAffine())
            yAffine[size_t(l)] = m_net.layer(l + 1).inferenceAffine();
    // Each worker runs its samples through the activations of a training shard of its own, in shards of
    // the training's size: the same forward pass as training's, and no memory of its own.
    allocateShards(m_pool.threads(), false);
    std::atomic<bool> skipped{false}; // a stop after the last shard began leaves the numbers whole
    // The ranks of a data-parallel run each evaluate every shard. They agree whether one was asked to
    // stop every kAgreeShards shards, so that all stop at the same point and none waits for the others'
    // whole evaluation under the watchdog's deadline; one process stops at its next shard.
    const bool agree = m_comm && cancel;
    const int group = agree ? kAgreeShards : std::max(S, 1);
    for (int k0 = 0; k0 < S && !skipped.load(); k0 += group) {
        if (agree && m_comm->anyRank(cancel->load(std::memory_order_relaxed))) {
            skipped.store(true);
            break;
        }
        m_pool.run(std::min(group, S - k0), [&](int j, int w) {
            const int k = k0 + j;
            if (!agree && cancel && cancel->load(std::memory_order_relaxed)) { // the shards not begun are skipped
                skipped.store(true, std::memory_order_relaxed);
                return;
            }
            Shard& s = *m_shards[size_t(w)];
            const int first = k * m_shardSize;
            const int n = std::min(m_shardSize, total - first);
            loadInput(split, mult, nullptr, first, n, s.acts.data());
            for (int l = 0; l < L; ++l) {
                if (m_net.layer(l).passThrough() || absorbed(m_net, l) || (l > 0 && yAffine[size_t(l) - 1]))
                    continue;
                ShardView v;
                v.n = n;
                v.firstSample = first;
                v.x = s.acts.data() + s.actOffset[size_t(l)];
                v.next = absorbedNext(m_net, l);
                v.y = s.acts.data() + s.actOffset[size_t(l) + (yAffine[size_t(l)] || v.next ? 2 : 1)];
                v.yAffine = yAffine[size_t(l)];
                m_net.layer(l).forward(ctx, 0, v, m_workspace[size_t(w)].data());
            }
            const float* logits = s.acts.data() + s.actOffset[size_t(L)];
            const int64_t row0 = int64_t(first) * steps;
            float* probs = all ? r.probs.data() + row0 * classes : keep ? shardProbs[size_t(w)].data() : nullptr;
            sums[size_t(k)] =
                softmaxCrossEntropy(logits, split.labels.data() + row0, n * steps, classes, 0.0f, nullptr, probs);
            if (keep)
                for (int64_t i = 0; i < int64_t(n) * steps; ++i)
                    r.keepPrediction(size_t(row0 + i), probs + i * classes, classes);
        });
    }
    if (skipped.load()) {
        r.cancelled = true;
        return r;
    }
    double loss = 0.0;
    int correct = 0;
    for (const LossSums& s : sums) {
        loss += s.loss;
        correct += s.correct;
    }
    r.loss = total ? loss / r.samples : 0.0;
    r.accuracy = total ? double(correct) / r.samples : 0.0;
    return r;
}

} // namespace tb
