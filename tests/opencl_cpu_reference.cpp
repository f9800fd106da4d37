#include "opencl_cpu_reference.hpp"

#include "core/rng.hpp"
#include "train/cpu_executor.hpp"
#include "train/trainer.hpp"

#include <numeric>

namespace reference {

Step cpuStep(tb::Network& net, const tb::Dataset& data, const int* indices, int count, uint64_t dropoutKey)
{
    tb::CpuExecutor exec(net, 1);
    const tb::StepResult r = exec.trainStep(data.train, data.sizeMultiplier, indices, count, dropoutKey);
    return {r.lossSum, r.correct, exec.gradient()};
}

Eval cpuEvaluate(tb::Network& net, const tb::Dataset& data, int limit)
{
    tb::CpuExecutor exec(net, 1);
    const tb::EvalResult r = exec.evaluate(data.test, data.sizeMultiplier, limit, tb::EvalKeeps::Probabilities);
    return {r.loss, r.probs};
}

std::vector<double> cpuTrain(tb::Network& net, const tb::Dataset& data, const tb::OptimizerConfig& optimizer, int steps,
                             int batch, uint64_t seed)
{
    tb::TrainConfig config;
    config.batchSize = batch;
    config.seed = seed;
    config.optimizer = optimizer;
    tb::Trainer trainer(net, data, config);
    std::vector<int> order(size_t(data.train.count));
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> losses;
    for (int s = 0; s < steps; ++s) {
        const int first = (s * batch) % (data.train.count - batch + 1);
        const auto b = trainer.trainBatch(order.data() + first, batch);
        losses.push_back(b.step.lossSum / batch);
    }
    return losses;
}

} // namespace reference
