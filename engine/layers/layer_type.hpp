// A layer kind in one place. Each kind's file (layers/conv2d.cpp, layers/dense.cpp, ...) defines,
// besides its forward/backward, one LayerType: how its Keras-style JSON is read, how it is built
// for an input shape (checking that the shape fits), how many weights it has before it is built,
// and how it is written to ONNX and to PyTorch's state_dict layout. layers/registry.cpp lists the
// kinds, one line each; the model parser, the network, the exports and the weights files find a
// kind only through that list. The recipe: docs/adding-a-layer.md.
//
// Everything a kind needs is declared in layers/ (this header, layer_args.hpp, export_hooks.hpp),
// so a kind's file includes nothing from model/ or io/, and those folders depend on layers/, never
// the reverse.
#pragma once

#include "core/shape.hpp"
#include "layers/layer.hpp"
#include "layers/layer_spec.hpp"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tb {

class LayerArgs;   // layers/layer_args.hpp
struct OnnxLayer;  // layers/export_hooks.hpp
struct TorchLayer; // layers/export_hooks.hpp

// What a kind's build receives: the spec, the layer's final name and where it sits.
struct LayerBuild {
    const LayerSpec& spec;
    const std::string& name; // unique in the model ("conv2d_1" or the user's)
    Shape in;                // the shape the layer receives
    int index = 0;           // position in the model, from 0
    int classes = 0;         // the dataset's class count
    std::string where;       // "layer 3 (conv2d_1, Conv2D)", for messages
    // Throws a ModelError "<where>: <what>".
    [[noreturn]] void fail(const std::string& what) const;
};

struct LayerType {
    const char* kerasClass;     // the "type" model files write: "Conv2D"
    const char* defaultName;    // Keras' default layer name: "conv2d" (then conv2d_1, ...)
    std::set<std::string> keys; // the arguments it accepts besides "type" and "name"
    // Reads the arguments into spec (spec.type and spec.kerasClass are set before); args.fail()
    // for a bad one.
    void (*parse)(const LayerArgs& args, LayerSpec& spec);
    // The layer for this input, or build.fail() when the input does not fit.
    std::unique_ptr<Layer> (*build)(const LayerBuild& build);
    // Without building the layer: how many float32 values its tensors take in a PyTorch export
    // (safetensors) on `shape`, which it advances to its output shape. Checks a file's size before
    // the network is allocated; may be larger than paramCount() + stateCount() (BatchNorm writes
    // weight and bias even when it does not train them, LSTM a zero bias_hh).
    uint64_t (*weightFloats)(const LayerSpec& spec, Shape& shape, int classes);
    // Adds the layer's nodes and initializers to an ONNX inference graph.
    void (*onnx)(OnnxLayer& layer);
    // Adds the layer's modules and tensors to the PyTorch state_dict layout (TorchLayer::text says
    // which module: an image model's nn.Sequential or a text model's named children).
    void (*torch)(TorchLayer& layer);
    // The kind reads token ids (Shape::tokenIds): a model that starts with it is a text model
    // (ModelSpec::isText), and only such a kind may receive token ids.
    bool readsTokens = false;
};

// The registered kinds, in registration order (layers/registry.cpp).
const std::vector<const LayerType*>& layerTypes();
// The kind model files call `kerasClass`, or null.
const LayerType* findLayerType(const std::string& kerasClass);

} // namespace tb
