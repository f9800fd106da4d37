// The notebooks' models, written in the model-file format. Their classifiers have "units": "classes",
// so a preset fits a dataset of any number of classes (and any image size). The text models read
// token ids (data/text_dataset.hpp); shakespeare-lstm is the notebook's, byte-level (256 outputs).
#include "model/model_spec.hpp"

#include <map>

namespace tb {

namespace {
struct Preset {
    const char* name;
    const char* description;
    const char* json;
};

const Preset kPresets[] = {
    {"tpu-mnist-cnn",
     "The MNIST CNN from the TPU article (BatchNorm without scale, no biases before BN), pixels scaled to 0-1.",
     R"({"name": "tpu-mnist-cnn", "input_scale": 0.00392156862745098,
  "layers": [
    {"type": "Conv2D", "filters": 12, "kernel_size": 3, "padding": "same", "use_bias": false},
    {"type": "BatchNormalization", "center": true, "scale": false},
    {"type": "Activation", "activation": "relu"},
    {"type": "Conv2D", "filters": 24, "kernel_size": 6, "strides": 2, "padding": "same", "use_bias": false},
    {"type": "BatchNormalization", "center": true, "scale": false},
    {"type": "Activation", "activation": "relu"},
    {"type": "Conv2D", "filters": 64, "kernel_size": 6, "strides": 2, "padding": "same", "use_bias": false},
    {"type": "BatchNormalization", "center": true, "scale": false},
    {"type": "Activation", "activation": "relu"},
    {"type": "Flatten"},
    {"type": "Dense", "units": 200, "use_bias": false},
    {"type": "BatchNormalization", "center": true, "scale": false},
    {"type": "Activation", "activation": "relu"},
    {"type": "Dropout", "rate": 0.4},
    {"type": "Dense", "units": "classes", "activation": "softmax"}
  ]})"},
    {"colab-fashion-cnn",
     "The Fashion-MNIST CNN from the Spanish Colab tutorial (three 5x5 conv blocks with ELU), fed raw 0-255 pixels.",
     R"({"name": "colab-fashion-cnn", "input_scale": 1.0,
  "layers": [
    {"type": "BatchNormalization"},
    {"type": "Conv2D", "filters": 64, "kernel_size": 5, "padding": "same", "activation": "elu"},
    {"type": "MaxPooling2D", "pool_size": 2, "strides": 2},
    {"type": "Dropout", "rate": 0.25},
    {"type": "BatchNormalization"},
    {"type": "Conv2D", "filters": 128, "kernel_size": 5, "padding": "same", "activation": "elu"},
    {"type": "MaxPooling2D", "pool_size": 2},
    {"type": "Dropout", "rate": 0.25},
    {"type": "BatchNormalization"},
    {"type": "Conv2D", "filters": 256, "kernel_size": 5, "padding": "same", "activation": "elu"},
    {"type": "MaxPooling2D", "pool_size": 2, "strides": 2},
    {"type": "Dropout", "rate": 0.25},
    {"type": "Flatten"},
    {"type": "Dense", "units": 256},
    {"type": "Activation", "activation": "elu"},
    {"type": "Dropout", "rate": 0.5},
    {"type": "Dense", "units": "classes"},
    {"type": "Activation", "activation": "softmax"}
  ]})"},
    {"keras-mnist-cnn", "The classic Keras MNIST example (two 3x3 convs, max pooling, dropout), pixels scaled to 0-1.",
     R"({"name": "keras-mnist-cnn", "input_scale": 0.00392156862745098,
  "layers": [
    {"type": "Conv2D", "filters": 32, "kernel_size": 3, "activation": "relu"},
    {"type": "Conv2D", "filters": 64, "kernel_size": 3, "activation": "relu"},
    {"type": "MaxPooling2D", "pool_size": 2},
    {"type": "Dropout", "rate": 0.25},
    {"type": "Flatten"},
    {"type": "Dense", "units": 128, "activation": "relu"},
    {"type": "Dropout", "rate": 0.5},
    {"type": "Dense", "units": "classes", "activation": "softmax"}
  ]})"},
    {"shakespeare-lstm",
     "The Shakespeare character model from the Keras TPU notebook: Embedding(256, 512), two LSTM(512), Dense(256) "
     "softmax at every step, over 100-byte sequences (byte-level text; 4,460,800 parameters).",
     R"({"name": "shakespeare-lstm", "sequence_length": 100,
  "layers": [
    {"type": "Embedding", "input_dim": 256, "output_dim": 512},
    {"type": "LSTM", "units": 512, "return_sequences": true, "stateful": true},
    {"type": "LSTM", "units": 512, "return_sequences": true, "stateful": true},
    {"type": "Dense", "units": 256, "activation": "softmax"}
  ]})"},
    {"small-text-lstm",
     "A small character model that learns a text in minutes on two CPU cores: Embedding(256, 32), one LSTM(128), "
     "Dense softmax over the vocabulary at every step, over sequences of 64 symbols (bytes, or characters with "
     "--vocabulary characters).",
     R"({"name": "small-text-lstm", "sequence_length": 64,
  "layers": [
    {"type": "Embedding", "input_dim": 256, "output_dim": 32},
    {"type": "LSTM", "units": 128, "return_sequences": true},
    {"type": "Dense", "units": "classes", "activation": "softmax"}
  ]})"},
};
} // namespace

const std::vector<std::string>& presetNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const Preset& p : kPresets)
            v.push_back(p.name);
        return v;
    }();
    return names;
}

const char* defaultPreset()
{
    return "tpu-mnist-cnn";
}

const char* defaultTextPreset()
{
    return "small-text-lstm";
}

const PresetTraining* presetTraining(const std::string& name)
{
    // The README's and docs/text-models.md's recipe: a licence text writes words after 6 epochs.
    static const PresetTraining smallText{"rmsprop", 0.01f, 16, 6};
    // The notebook's RMSprop, at a rate for batches of 16 (the notebook's 0.01 goes with batches of
    // 1,024 on a TPU; at batch 16 or 32 it stalls near 2.5 nats): a licence text writes words after
    // 10 epochs, about 40 s on two cores.
    static const PresetTraining shakespeare{"rmsprop", 0.001f, 16, 10};
    if (name == "small-text-lstm")
        return &smallText;
    return name == "shakespeare-lstm" ? &shakespeare : nullptr;
}

std::string presetJson(const std::string& name)
{
    for (const Preset& p : kPresets)
        if (name == p.name)
            return p.json;
    return {};
}

std::string presetDescription(const std::string& name)
{
    for (const Preset& p : kPresets)
        if (name == p.name)
            return p.description;
    return {};
}

} // namespace tb
