// The CPU as a Backend: the CpuExecutor's forward/backward on the run's threads and kernel level,
// then the optimizer's update in parallel chunks, checked for non-finite values before it stands.
// It trains the Network's own buffers, so syncToHost has nothing to do.
#pragma once

#include "train/backend.hpp"
#include "train/cpu_executor.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tb {

class CpuBackend final : public Backend {
public:
    // Throws ConfigError when a batch's buffers would not fit in this machine's memory (before
    // allocating them) or the CPU lacks the requested kernel level.
    CpuBackend(Network& net, const Dataset& data, const TrainConfig& config);
    ~CpuBackend() override;

    const DeviceSpec& device() const override { return m_device; }
    std::string describe() const override;
    std::string setupNote() const override;
    BatchResult trainBatch(const int* indices, int count, uint64_t dropoutKey) override;
    EvalResult evaluate(const ImageSplit& split, int sizeMultiplier, int limit, EvalKeeps keeps,
                        const std::atomic<bool>* cancel) override;
    void syncToHost() override {}
    void syncFromHost() override {}
    void setLearningRate(float lr) override { m_optimizer.setLearningRate(lr); }
    int64_t iterations() const override { return m_optimizer.iterations(); }
    OptimizerState optimizerState() const override;
    void setOptimizerState(const OptimizerState& state) override;
    bool anyStops(bool mine) override;
    std::vector<double> forwardSeconds() const override { return m_exec->forwardSeconds(); }
    std::vector<double> backwardSeconds() const override { return m_exec->backwardSeconds(); }

    const Kernels& kernels() const { return *m_kernels; }

private:
    Network& m_net;
    const Dataset& m_data;
    DeviceSpec m_device; // with its kernel level resolved
    const Kernels* m_kernels;
    Optimizer m_optimizer;
    std::shared_ptr<Communicator> m_comm;   // null: one process
    std::vector<std::string> m_rankDevices; // every rank's device id, rank after rank (under MPI)
    std::unique_ptr<CpuExecutor> m_exec;
    // trainBatch's buffers, allocated once: the step's new weights (swapped with the network's when
    // good) and BatchNorm's statistics before the step.
    std::vector<float> m_nextParams, m_goodState; // (params), (state)
    std::vector<uint8_t> m_chunkStatus;           // (update chunks)
};

} // namespace tb
