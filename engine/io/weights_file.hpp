// Trainbench's native weights file: the model description, the input it was built for, the class
// names, trainable and non-trainable weights, optimizer state, the training configuration and the
// per-epoch history. Layout: an 8-byte magic "TBWGHT01", a little-endian uint64 header length,
// the JSON header, the float32 blocks it describes, then the SHA-256 of everything before it.
#pragma once

#include "config/train_config.hpp"
#include "data/dataset.hpp"
#include "model/network.hpp"
#include "optim/optimizer.hpp"

#include <string>
#include <vector>

namespace tb {

struct WeightsFile {
    ModelSpec spec;
    Shape input;
    std::vector<std::string> classNames;
    std::vector<float> params, state;
    OptimizerConfig optimizer;
    int64_t optimizerIterations = 0;
    std::vector<float> optimizerSlots;
    TrainConfig train;
    std::vector<EpochRecord> history;
    std::string datasetDir;
    // A checkpoint's position and settings (train/checkpoint.hpp), as JSON text; empty in weights files.
    std::string resume;
    // What a reader should be told of the file, which still reads (a safetensors file whose weights
    // differ from the SHA-256 its metadata records); empty: nothing.
    std::string notice;
    // False for a safetensors file of another program: its model, input and classes (a text model's
    // vocabulary) are the ModelHint's, which the reader chose.
    bool describesModel = true;

    // A network with these weights (throws ModelError if the file's parts disagree).
    Network buildNetwork() const;
};

// Throws IoError when a model's outputs are not all numbers (`finite` false): finite weights far too
// large, as a diverged run of an earlier version or another program could leave them, or a damaged
// file. Evaluation, prediction and writing check their outputs with it rather than show NaN.
void requireFiniteOutputs(bool finite);

// `data` prepared for a model from a weights file: the size multiplier its input implies. Throws
// DataError when the images or the classes do not fit the model (requireWeightsFit).
Dataset datasetForWeights(Dataset data, const WeightsFile& w);
// Throws DataError when data's images or classes do not fit the weights' model (a text for an image
// model, or the reverse, said as such).
void requireWeightsFit(const Dataset& data, const WeightsFile& w);

void saveWeights(const std::string& path, const WeightsFile& w); // atomic; throws IoError
WeightsFile loadWeights(const std::string& path);                // throws IoError/ModelError
// The same from the file's bytes, read (`path` names it in messages).
WeightsFile parseWeights(const std::string& bytes, const std::string& path);

} // namespace tb
