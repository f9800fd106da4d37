// Runs a Network on the CPU: one training step (forward, fused loss, backward, gradient
// reduction) or a forward-only evaluation. A batch is cut into fixed-size shards that run in
// parallel on a thread pool; every cross-shard sum is taken in shard order on one thread, so the
// result is bit-identical for any thread count. All buffers are allocated once and reused. With a
// Communicator (MPI ranks), each rank runs its contiguous part of the shards and the sums over shards
// go through the ranks in the same order (mpi/communicator.hpp), so the result is also the same
// for any rank count.
#pragma once

#include "core/thread_pool.hpp"
#include "data/dataset.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "train/backend.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace tb {

class CpuExecutor {
public:
    // Training shards hold `shardSize` samples whatever the thread count (part of the numerics);
    // every pass runs on `kernels` (the instruction-set level, kernels/isa.hpp). `comm`: the ranks this
    // one trains with (null: one process); it must outlive the executor.
    CpuExecutor(Network& net, int threads, int shardSize = 16, const Kernels& kernels = defaultKernels(),
                Communicator* comm = nullptr);
    ~CpuExecutor();
    // The bytes a CpuExecutor allocates to train `net` on batches of `batch` (what the Trainer checks
    // against the machine's memory before building one); `acrossRanks`: with a Communicator.
    static uint64_t trainingBytes(const Network& net, int batch, int threads, int shardSize = 16,
                                  bool acrossRanks = false);

    int threads() const { return m_pool.threads(); }
    ThreadPool& pool() { return m_pool; }
    int shardSize() const { return m_shardSize; }
    const Kernels& kernels() const { return *m_kernels; }

    // One training step on split samples indices[0..count): leaves the batch-mean gradient of the
    // loss in gradient() (not applied). dropoutKey selects this step's dropout masks.
    // bnAverageOf = k > 0: the forward pass only, in training mode, for precise BN: BatchNorm's moving
    // statistics become the average of this batch's and the k-1 before (the result is empty).
    StepResult trainStep(const ImageSplit& split, int sizeMultiplier, const int* indices, int count,
                         uint64_t dropoutKey, int bnAverageOf = 0);
    std::vector<float>& gradient() { return m_grad; }

    // Forward pass in inference mode over the first `limit` samples (all when limit <= 0); with
    // `cancel`, as Backend::evaluate.
    EvalResult evaluate(const ImageSplit& split, int sizeMultiplier, int limit = 0,
                        EvalKeeps keeps = EvalKeeps::Metrics, const std::atomic<bool>* cancel = nullptr);

    // Per-layer time of the last trainStep, forward and backward (seconds), for profiling.
    const std::vector<double>& forwardSeconds() const { return m_fwdSec; }
    const std::vector<double>& backwardSeconds() const { return m_bwdSec; }

private:
    struct Shard;
    void allocateShards(int count, bool training);
    void prepare(int batch, int firstShard, int count);
    // The views a layer's reduction folds: the local ones on one process; with ranks, every shard of
    // the batch, their partials gathered from all ranks (only `partial`, `n`, `firstSample` are set).
    std::span<ShardView> reductionViews(const Layer& layer, std::span<ShardView> local, int batch);
    void batchBackwardAcrossRanks(const PassContext& ctx, int layer, std::span<const ShardView> views);
    // Layer l's shard gradients summed into the batch's (one process, right after its backward).
    void sumShardGradients(int l, int shards);
    // The shard-gradient sum over the ranks (a running sum passed down them) and its broadcast.
    void reduceAcrossRanks(int shards);
    // Every rank's shards' values, `per` doubles a shard, in global shard order.
    const std::vector<double>& gatherPerShard(const std::vector<double>& mine, int per);
    void loadInput(const ImageSplit& split, int sizeMultiplier, const int* indices, int first, int n, float* dst);

    Network& m_net;
    ThreadPool m_pool;
    ParallelFor m_parallel; // tasks on m_pool, for the layers' beginPass and beginBackward
    int m_shardSize;
    const Kernels* m_kernels;
    Communicator* m_comm;
    // With ranks: how many of a layer's chained gradient tasks go in one message, the same on every
    // rank (the largest thread count of them all): a rank's own count would make messages the others
    // do not expect.
    int m_chainGroup = 1;
    std::vector<int> m_rankShards; // (ranks + 1) first global shard of each rank, then the shard count
    std::vector<std::unique_ptr<Shard>> m_shards;
    std::vector<double> m_sendPartials, m_allPartials; // (local shards * per), (shards * per)
    std::vector<ShardView> m_allViews;                 // (shards)
    std::vector<std::vector<float>> m_workspace;       // per worker
    std::vector<float> m_grad;                         // (params) reduced gradient
    // A shard's gradient holds only the layers that sum it per shard (usesShardGradient): layer l's
    // at m_shardGradOffset[l] (-1 for the others), m_shardGradFloats in all. One process reuses it
    // from layer to layer; with ranks the layers lie back to back.
    std::vector<int64_t> m_shardGradOffset;
    int64_t m_shardGradFloats = 0;
    // Pieces of those layers' parameters, summed over the shards in chunks: [lo, hi) of the whole
    // gradient, and where lo is in a shard's gradient; layer l's are [m_layerChunks[l],
    // m_layerChunks[l + 1]).
    struct ReduceChunk {
        int64_t lo, hi, shardLo;
    };
    std::vector<ReduceChunk> m_reduceChunks;
    std::vector<int> m_layerChunks;
    std::vector<double> m_fwdSec, m_bwdSec;
    bool m_profile = true;
};

} // namespace tb
