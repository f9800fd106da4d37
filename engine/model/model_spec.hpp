// The model description shared by the CLI and the window: a small JSON file with Keras-style
// layer names and arguments, e.g.
//   {"name": "my-cnn", "input_scale": 0.00392156862745098,
//    "layers": [{"type": "Conv2D", "filters": 32, "kernel_size": 3, "activation": "relu"}, ...]}
// The presets are written in the same format.
#pragma once

#include "layers/layer.hpp"
#include "layers/layer_spec.hpp"

#include <string>
#include <vector>

namespace tb {

struct ModelSpec {
    std::string name;
    float inputScale = 1.0f; // raw pixels (0..255) are multiplied by this
    int sequenceLength = 0;  // a text model's default T ("sequence_length"); 0 for image models
    std::vector<LayerSpec> layers;
    std::string json; // the description as read, as compact JSON: weights files and exports store it
    // Where it was read from (parseModelSpec's origin: a file name, "preset x"), or empty: the
    // network's errors about it (a kernel larger than its input) begin with it.
    std::string origin;

    // A model on token ids (its first kind reads them: an Embedding): trained on text, one label per step.
    bool isText() const;
};

// Parses a model description. `origin` (a file name or "preset x") prefixes error messages.
ModelSpec parseModelSpec(const std::string& text, const std::string& origin);
// A preset name ("tpu-mnist-cnn") or the path of a model file.
ModelSpec loadModelSpec(const std::string& nameOrPath);

const std::vector<std::string>& presetNames();
const char* defaultPreset();     // for images
const char* defaultTextPreset(); // for a text: the one that learns in minutes on a laptop
// The settings a preset learns with where the defaults (Adam at 0.001, batch 128) do not suit it:
// small-text-lstm takes a few epochs of small RMSprop batches to write words (docs/text-models.md).
// The window applies them when it switches to such a preset, and the CLI's train and compare where
// their options name none of the four (applyPresetTraining).
struct PresetTraining {
    std::string optimizer; // "rmsprop"
    float learningRate = 0;
    int batchSize = 0;
    int epochs = 0;
};
const PresetTraining* presetTraining(const std::string& name); // nullptr: the defaults suit it
// The preset's description in the model-file format, or empty if there is no such preset.
std::string presetJson(const std::string& name);
std::string presetDescription(const std::string& name);

} // namespace tb
