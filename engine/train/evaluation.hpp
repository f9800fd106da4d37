// Evaluating a weights file on a dataset's test split, on a chosen device: what `trainbench-cli
// evaluate` and the window's Open weights both do.
#pragma once

#include "data/dataset.hpp"
#include "device/device.hpp"
#include "io/weights_file.hpp"
#include "model/network.hpp"
#include "train/backend.hpp"

#include <string>

namespace tb {

struct WeightsEvaluation {
    Dataset data; // the dataset as the weights see it (their input size sets the size multiplier)
    Network net;  // built from the weights
    EvalResult result;
    int misclassified = 0;
};

// Throws what loading, building and the device throw (ModelError when the weights do not fit the
// dataset's images or classes, ConfigError for an unusable device). kernelCacheDir: as TrainConfig's (an
// OpenCL device's compiled kernels; empty: compiled again).
WeightsEvaluation evaluateWeights(const WeightsFile& weights, const Dataset& base, const DeviceSpec& device,
                                  const std::string& kernelCacheDir, int limit = 0,
                                  EvalKeeps keeps = EvalKeeps::Metrics);

// A sentence saying that the weights were trained on classes of other names than `data`'s (weights
// of Fashion-MNIST on MNIST's digits), or empty. The accuracy then counts class numbers that agree,
// whatever they mean; it may still be what the user wants (a relabelled copy), so this is a warning,
// not a refusal as resuming a run on another dataset is. Names that only number the classes
// ("class 0", "class 1", ...: a dataset without classes.txt, see loadDataset) say nothing and are not
// compared; neither are a text's symbols (the weights' vocabulary cuts the text).
std::string otherClassesNote(const WeightsFile& weights, const Dataset& data);
// When `data`'s images are smaller than the weights' model takes by a whole factor its run did not
// use (--size-multiplier), what evaluating them does: they are enlarged to fit. Empty otherwise.
std::string enlargedImagesNote(const WeightsFile& weights, const Dataset& data);

} // namespace tb
