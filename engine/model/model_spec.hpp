// The model description shared by the CLI and the window: a small JSON file with Keras-style
// layer names and arguments, e.g.
//   {"name": "my-cnn", "input_scale": 0.00392156862745098,
//    "layers": [{"type": "Conv2D", "filters": 32, "kernel_size": 3, "activation": "relu"}, ...]}
// The presets are written in the same format.
#pragma once

#include "layers/layer.hpp"

#include <string>
#include <vector>

namespace tb {

struct LayerSpec {
    LayerKind kind = LayerKind::Dense;
    std::string kerasClass; // as written: "Conv2D", "ReLU", "ELU", "Activation", ...
    std::string name;       // optional user-given name; Keras-style default otherwise
    int filters = 0, units = 0;
    bool unitsFromClasses = false; // Dense "units": "classes": as many as the dataset has classes
    int denseUnits(int classes) const { return unitsFromClasses ? classes : units; }
    int kh = 0, kw = 0, sh = 0, sw = 0; // kernel/pool and strides (0: the default)
    bool same = false;
    bool bias = true;
    Activation activation = Activation::Linear;
    float rate = 0.0f;
    bool center = true, scale = true;
    float momentum = 0.99f, epsilon = 1e-3f;
    std::vector<int> targetShape;
    int inputDim = 0, outputDim = 0; // Embedding
    bool returnSequences = false;    // LSTM
    bool stateful = false;           // LSTM: kept for the model file; see layers/lstm.hpp
};

struct ModelSpec {
    std::string name;
    float inputScale = 1.0f; // raw pixels (0..255) are multiplied by this
    int sequenceLength = 0;  // a text model's default T ("sequence_length"); 0 for image models
    std::vector<LayerSpec> layers;
    std::string json; // the description as read, as compact JSON: weights files and exports store it

    // A model on token ids (it starts with an Embedding): trained on text, one label per step.
    bool isText() const { return !layers.empty() && layers.front().kind == LayerKind::Embedding; }
};

// Parses a model description. `origin` (a file name or "preset x") prefixes error messages.
ModelSpec parseModelSpec(const std::string& text, const std::string& origin);
// A preset name ("tpu-mnist-cnn") or the path of a model file.
ModelSpec loadModelSpec(const std::string& nameOrPath);

const std::vector<std::string>& presetNames();
const char* defaultPreset();
// The preset's description in the model-file format, or empty if there is no such preset.
std::string presetJson(const std::string& name);
std::string presetDescription(const std::string& name);

} // namespace tb
