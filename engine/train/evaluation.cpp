#include "train/evaluation.hpp"

#include "train/trainer.hpp"

#include <cmath>

namespace tb {

WeightsEvaluation evaluateWeights(const WeightsFile& weights, const Dataset& base, const DeviceSpec& device,
                                  const std::string& kernelCacheDir, int limit, bool keepPredictions)
{
    WeightsEvaluation e{datasetForWeights(base, weights), weights.buildNetwork(), {}, 0};
    TrainConfig config;
    config.device = device;
    config.kernelCacheDir = kernelCacheDir;
    const std::unique_ptr<Backend> backend = makeBackend(e.net, e.data, config);
    e.result = backend->evaluate(e.data.test, e.data.sizeMultiplier, limit, keepPredictions);
    e.misclassified = e.result.samples - int(std::lround(e.result.accuracy * e.result.samples));
    return e;
}

} // namespace tb
