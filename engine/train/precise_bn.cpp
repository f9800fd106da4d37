#include "train/precise_bn.hpp"

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "layers/batch_norm.hpp"
#include "train/cpu_executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

namespace tb {

PreciseBnResult recomputeBatchNormStatistics(Network& net, const ImageSplit& split, int sizeMultiplier, int batches,
                                             int batchSize, uint64_t seed, int threads, const Kernels& kernels,
                                             int shardSize)
{
    if (batches < 1)
        throw ConfigError("precise BN over " + std::to_string(batches) + " batches: give 1 or more");
    if (batchSize < 1)
        throw ConfigError("precise BN with batches of " + std::to_string(batchSize) + " samples: give 1 or more");
    PreciseBnResult r;
    for (int l = 0; l < net.layerCount(); ++l)
        r.layers += net.layer(l).kind() == LayerKind::BatchNorm ? 1 : 0;
    if (r.layers == 0 || split.count == 0)
        return r;
    const int batch = std::min(batchSize, split.count);
    r.batches = std::min(batches, split.count / batch);
    // A shuffle of its own (not an epoch's): the same batches on every device and thread count.
    std::vector<int> order(size_t(split.count));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(hashKey(seed, uint64_t(RngPurpose::Shuffle), 0x9BE5ull));
    for (size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[size_t(rng.below(uint64_t(i) + 1))]);
    // A twin of the network runs the passes: an executor binds its buffers into the network it runs,
    // and the caller's network stays bound to its own backend's.
    Network twin(net.spec(), net.inputShape(), net.numClasses(), Network::Fill::Zeros);
    twin.params() = net.params();
    twin.state() = net.state();
    {
        CpuExecutor exec(twin, std::max(1, threads), shardSize, kernels);
        for (int b = 0; b < r.batches; ++b) {
            const uint64_t dropoutKey = hashKey(seed, uint64_t(RngPurpose::Dropout), 0x9BE5ull, uint64_t(b));
            exec.trainStep(split, sizeMultiplier, order.data() + size_t(b) * size_t(batch), batch, dropoutKey, b + 1);
            r.samples += batch;
        }
    }
    std::copy(twin.state().begin(), twin.state().end(), net.state().begin()); // in place: the layers point into it
    return r;
}

std::string preciseBnText(const PreciseBnResult& r)
{
    if (r.layers == 0)
        return "Precise BN: the model has no BatchNorm layer; nothing to recompute.";
    return "Precise BN: BatchNorm's moving statistics recomputed over " + std::to_string(r.batches) +
           " training batches (" + withThousands(r.samples) + " images) in " + std::to_string(r.layers) +
           (r.layers == 1 ? " layer." : " layers.");
}

std::optional<BatchNormWarmth> batchNormWarmth(const Network& net, int64_t steps)
{
    std::optional<BatchNormWarmth> out;
    for (int l = 0; l < net.layerCount(); ++l) {
        if (net.layer(l).kind() != LayerKind::BatchNorm)
            continue;
        const float m = static_cast<const BatchNorm&>(net.layer(l)).momentum();
        if (!out || m > out->momentum) {
            out = BatchNormWarmth{};
            out->momentum = m;
        }
    }
    if (out) {
        out->steps = std::max<int64_t>(0, steps);
        out->initialShare = std::pow(double(out->momentum), double(out->steps));
    }
    return out;
}

std::string batchNormWarmthText(const BatchNormWarmth& w)
{
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "BatchNorm's moving statistics still hold %.0f%% of their initial values (mean 0, variance 1) "
                  "after %lld step%s at momentum %.2f, so the test accuracy can be lower than the training "
                  "accuracy. Train longer, or recompute them after training with --precise-bn 100.",
                  100.0 * w.initialShare, static_cast<long long>(w.steps), w.steps == 1 ? "" : "s", double(w.momentum));
    return buf;
}

} // namespace tb
