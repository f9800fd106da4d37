#include "train/evaluation.hpp"

#include "train/trainer.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace tb {

WeightsEvaluation evaluateWeights(const WeightsFile& weights, const Dataset& base, const DeviceSpec& device,
                                  const std::string& kernelCacheDir, int limit, EvalKeeps keeps)
{
    WeightsEvaluation e{datasetForWeights(base, weights), weights.buildNetwork(), {}, 0};
    TrainConfig config;
    config.device = device;
    config.kernelCacheDir = kernelCacheDir;
    const std::unique_ptr<Backend> backend = makeBackend(e.net, e.data, config);
    e.result = backend->evaluate(e.data.test, e.data.sizeMultiplier, limit, keeps);
    requireFiniteOutputs(std::isfinite(e.result.loss));
    e.misclassified = e.result.samples - int(std::lround(e.result.accuracy * e.result.samples));
    return e;
}

namespace {
bool onlyNumbered(const std::vector<std::string>& names)
{
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] != "class " + std::to_string(i))
            return false;
    return true;
}

// "T-shirt/top, Trouser, Pullover, ..."
std::string firstNames(const std::vector<std::string>& names)
{
    std::string s;
    for (size_t i = 0; i < names.size() && i < 3; ++i)
        s += (i ? ", " : "") + names[i];
    return names.size() > 3 ? s + ", ..." : s;
}
} // namespace

std::string otherClassesNote(const WeightsFile& weights, const Dataset& data)
{
    const std::vector<std::string>& trained = weights.classNames;
    if (data.isText() || trained.empty() || trained.size() != data.classNames.size() || trained == data.classNames ||
        onlyNumbered(trained) || onlyNumbered(data.classNames))
        return {};
    const std::string where = weights.datasetDir.empty() ? std::string() : weights.datasetDir + ": ";
    return "the weights were trained on a dataset with other classes (" + where + firstNames(trained) + ") than " +
           data.directory + " (" + firstNames(data.classNames) +
           "); the accuracy counts the predictions whose class number is the label's";
}

std::string enlargedImagesNote(const WeightsFile& weights, const Dataset& data)
{
    const int h = data.test.height, w = data.test.width;
    if (data.isText() || h < 1 || weights.input.h % h || weights.input.h / h <= 1 ||
        weights.input.h / h == weights.train.sizeMultiplier)
        return {};
    const auto size = [](int height, int width) { return std::to_string(height) + "x" + std::to_string(width); };
    return "the model takes " + size(weights.input.h, weights.input.w) + " images and " + data.directory + " holds " +
           size(h, w) + " ones: they are enlarged " + std::to_string(weights.input.h / h) +
           " times (each pixel repeated) to fit";
}

} // namespace tb
