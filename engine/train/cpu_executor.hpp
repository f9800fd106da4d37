// Runs a Network on the CPU: one training step (forward, fused loss, backward, gradient
// reduction) or a forward-only evaluation. A batch is cut into fixed-size shards that run in
// parallel on a thread pool; every cross-shard sum is taken in shard order on one thread, so the
// result is bit-identical for any thread count. All buffers are allocated once and reused.
#pragma once

#include "core/thread_pool.hpp"
#include "data/dataset.hpp"
#include "model/network.hpp"
#include "train/backend.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace tb {

class CpuExecutor {
public:
    // Training shards hold `shardSize` samples whatever the thread count (part of the numerics);
    // every pass runs on `kernels` (the instruction-set level, kernels/isa.hpp).
    CpuExecutor(Network& net, int threads, int shardSize = 16, const Kernels& kernels = defaultKernels());
    ~CpuExecutor();
    // The bytes a CpuExecutor allocates to train `net` on batches of `batch` (what the Trainer checks
    // against the machine's memory before building one).
    static uint64_t trainingBytes(const Network& net, int batch, int threads, int shardSize = 16);

    int threads() const { return m_pool.threads(); }
    ThreadPool& pool() { return m_pool; }
    int shardSize() const { return m_shardSize; }
    const Kernels& kernels() const { return *m_kernels; }

    // One training step on split samples indices[0..count): leaves the batch-mean gradient of the
    // loss in gradient() (not applied). dropoutKey selects this step's dropout masks.
    StepResult trainStep(const ImageSplit& split, int sizeMultiplier, const int* indices, int count,
                         uint64_t dropoutKey);
    std::vector<float>& gradient() { return m_grad; }

    // Forward pass in inference mode over the first `limit` samples (all when limit <= 0).
    EvalResult evaluate(const ImageSplit& split, int sizeMultiplier, int limit = 0, bool keepPredictions = false);

    // Per-layer time of the last trainStep, forward and backward (seconds), for profiling.
    const std::vector<double>& forwardSeconds() const { return m_fwdSec; }
    const std::vector<double>& backwardSeconds() const { return m_bwdSec; }

private:
    struct Shard;
    void prepare(int batch);
    void loadInput(const ImageSplit& split, int sizeMultiplier, const int* indices, int first, int n, float* dst);

    Network& m_net;
    ThreadPool m_pool;
    int m_shardSize;
    const Kernels* m_kernels;
    std::vector<std::unique_ptr<Shard>> m_shards;
    std::vector<std::vector<float>> m_workspace; // per worker
    std::vector<float> m_grad;                   // (params) reduced gradient
    // Pieces [first, last) of the parameters whose gradient is summed over the shards, in chunks.
    std::vector<std::pair<int64_t, int64_t>> m_reduceChunks;
    std::vector<double> m_fwdSec, m_bwdSec;
    bool m_profile = true;
};

} // namespace tb
