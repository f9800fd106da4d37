#include "train/cpu_backend.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/thread_pool.hpp"
#include "device/device.hpp"
#include "train/rank_check.hpp"
#include "train/trainer.hpp"

#include <cmath>

namespace tb {

namespace {
// Parameters per task of the update pass.
constexpr int64_t kUpdateChunk = int64_t(1) << 14;
enum ChunkStatus : uint8_t { kChunkOk = 0, kGradientNotFinite = 1, kWeightsNotFinite = 2 };

DeviceSpec resolved(DeviceSpec d)
{
    if (!d.isa)
        d.isa = defaultIsa();
    requireIsa(*d.isa);
    return d;
}

// A batch whose buffers could not fit is refused before anything is allocated (the optimizer's
// moments are several copies of the weights); so is one beyond what is free now, which the kernel's
// out-of-memory killer would end mid-run, without a word.
DeviceSpec requireBatchFits(DeviceSpec device, const Network& net, const Dataset& data, const TrainConfig& config)
{
    const uint64_t need = CpuExecutor::trainingBytes(net, config.batchSize, device.threads, config.shardSize,
                                                     config.communicator != nullptr);
    const std::string batch =
        "a batch of " + std::to_string(config.batchSize) +
        (data.isText() ? " sequences of " + std::to_string(data.inputHeight()) + " symbols"
                       : " images of " + std::to_string(data.inputHeight()) + "x" + std::to_string(data.inputWidth())) +
        " needs about " + humanBytes(need) + " for training, more than ";
    const char* smaller = data.isText() ? "a smaller batch" : "a smaller batch or size multiplier"; // texts take none
    if (need > physicalMemoryBytes())
        throw ConfigError(batch + memoryLimitText() + "; use " + smaller);
    if (const uint64_t freeNow = availableMemoryBytes(); need > freeNow)
        throw ConfigError(batch + "the " + humanBytes(freeNow) + " free now (of " + memoryLimitText() +
                          "); close other programs, or use " + smaller);
    return device;
}
} // namespace

CpuBackend::CpuBackend(Network& net, const Dataset& data, const TrainConfig& config)
    : m_net(net), m_data(data), m_device(requireBatchFits(resolved(config.device), net, data, config)),
      m_kernels(&cpuKernels(m_device)), m_optimizer(config.optimizer, net.paramCount(), *m_kernels),
      m_comm(config.communicator)
{
    if (m_comm) {
        requireSameRunOnEveryRank(*m_comm, net, data, config, *m_device.isa);
        m_rankDevices = allgatherText(*m_comm, m_device.id()); // their thread counts may differ
    }
    m_exec = std::make_unique<CpuExecutor>(net, m_device.threads, config.shardSize, *m_kernels, m_comm.get());
}

CpuBackend::~CpuBackend() = default;

std::string CpuBackend::describe() const
{
    const std::string mpi = describeCommunicator(m_comm.get(), m_rankDevices);
    return describeKernels(*m_kernels) + (mpi.empty() ? "" : "; " + mpi);
}

std::string CpuBackend::setupNote() const
{
    // One line each: more threads than cores, and what bf16 does to speed on this CPU.
    std::string note = threadsNote(m_device.threads, hardwareThreads());
    if (const std::string precision = precisionSpeedNote(m_device.precision); !precision.empty())
        note += (note.empty() ? "" : "\n") + precision;
    return note;
}

BatchResult CpuBackend::trainBatch(const int* indices, int count, uint64_t dropoutKey)
{
    BatchResult b;
    m_goodState = m_net.state(); // the forward pass moves BatchNorm's statistics
    b.step = m_exec->trainStep(m_data.train, m_data.sizeMultiplier, indices, count, dropoutKey);
    if (!std::isfinite(b.step.lossSum)) {
        m_net.state() = m_goodState;
        b.diverged = Divergence::Loss;
        return b;
    }
    // One parallel pass per chunk of parameters: check the chunk's gradient, write its new weights
    // and optimizer slots beside the old ones, check the new weights. Only a step that is good
    // everywhere is swapped in, so a bad one needs nothing restored. The update is elementwise, so
    // chunks and threads change nothing in the result.
    const int64_t P = m_net.paramCount();
    m_nextParams.resize(size_t(P));
    const int chunks = int((P + kUpdateChunk - 1) / kUpdateChunk);
    m_chunkStatus.assign(size_t(chunks), kChunkOk);
    const float* params = m_net.params().data();
    const float* grad = m_exec->gradient().data();
    float* next = m_nextParams.data();
    m_optimizer.beginStep();
    m_exec->pool().run(chunks, [&](int c, int) {
        const int64_t lo = c * kUpdateChunk, n = std::min(kUpdateChunk, P - lo);
        if (!m_kernels->allFinite(grad + lo, n)) {
            m_chunkStatus[size_t(c)] = kGradientNotFinite;
            return;
        }
        m_optimizer.update(params, grad, next, lo, lo + n);
        if (!m_kernels->allFinite(next + lo, n))
            m_chunkStatus[size_t(c)] = kWeightsNotFinite;
    });
    uint8_t status = kChunkOk;
    for (uint8_t s : m_chunkStatus)
        status |= s;
    if (status != kChunkOk) {
        m_net.state() = m_goodState;
        m_optimizer.abandonStep();
        b.diverged = status & kGradientNotFinite ? Divergence::Gradient : Divergence::Weights;
        return b;
    }
    m_net.swapParams(m_nextParams);
    m_optimizer.commitStep();
    return b;
}

EvalResult CpuBackend::evaluate(const ImageSplit& split, int sizeMultiplier, int limit, EvalKeeps keeps,
                                const std::atomic<bool>* cancel)
{
    return m_exec->evaluate(split, sizeMultiplier, limit, keeps, cancel);
}

OptimizerState CpuBackend::optimizerState() const
{
    return {m_optimizer.config(), m_optimizer.iterations(), m_optimizer.slotBuffer()};
}

bool CpuBackend::anyStops(bool mine)
{
    return m_comm ? m_comm->anyRank(mine) : mine;
}

void CpuBackend::setOptimizerState(const OptimizerState& state)
{
    if (state.config.kind != m_optimizer.config().kind || state.slotBuffer.size() != m_optimizer.slotBuffer().size())
        throw ConfigError(std::string("the saved optimizer state is for ") + optimizerName(state.config.kind) +
                          " with " + std::to_string(state.slotBuffer.size()) + " values, not " +
                          optimizerName(m_optimizer.config().kind) + " with " +
                          std::to_string(m_optimizer.slotBuffer().size()));
    m_optimizer.setIterations(state.iterations);
    m_optimizer.slotBuffer() = state.slotBuffer;
}

} // namespace tb
