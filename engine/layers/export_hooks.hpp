// What a layer kind's export functions (layers/layer_type.hpp) write into: an ONNX inference graph
// (io/onnx_export.cpp builds it) and the PyTorch state_dict layout (io/torch_layout.cpp). Declared
// here so that a kind's file needs nothing from io/.
#pragma once

#include "core/shape.hpp"
#include "kernels/activation_kind.hpp"
#include "layers/layer.hpp"
#include "layers/layer_spec.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tb {

// An ONNX node attribute.
struct OnnxAttr {
    enum class Type { Int, Float, Ints };
    std::string name;
    Type type = Type::Int;
    int64_t i = 0;
    float f = 0.0f;
    std::vector<int64_t> ints;
    static OnnxAttr integer(std::string name, int64_t v) { return {std::move(name), Type::Int, v, 0.0f, {}}; }
    static OnnxAttr real(std::string name, float v) { return {std::move(name), Type::Float, 0, v, {}}; }
    static OnnxAttr list(std::string name, std::vector<int64_t> v) { return {std::move(name), Type::Ints, 0, 0.0f, v}; }
};

class OnnxGraph {
public:
    virtual ~OnnxGraph() = default;
    virtual void node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
                      const std::vector<std::string>& outputs, const std::vector<OnnxAttr>& attrs = {}) = 0;
    // A float32 initializer of shape `dims` from `count` values.
    virtual void floats(const std::string& name, const std::vector<int64_t>& dims, const float* v, int64_t count) = 0;
    // A 1-D int64 initializer.
    virtual void int64s(const std::string& name, const std::vector<int64_t>& v) = 0;
};

// One layer's turn in the ONNX graph.
struct OnnxLayer {
    OnnxGraph& graph;
    const Layer& layer;
    const LayerSpec& spec;
    const float* params; // the layer's trainable values (paramCount())
    const float* state;  // its non-trainable values (stateCount())
    std::string cur;     // in: the tensor the layer reads; out: the one it wrote
    bool spatial = true; // in and out: cur is (batch, C, H, W); otherwise (batch, F) in Keras' order
    // In and out, for a sequence (batch, steps, F): cur is time-major (steps, batch, F) instead, as
    // ONNX's LSTM reads and writes it. A kind that needs batch-major calls batchMajor().
    bool timeMajor = false;
    // Out: the activation the exporter applies after the layer (the final softmax included).
    Activation activation = Activation::Linear;
    // A time-major cur becomes batch-major (a Transpose "<layer>/batch_major"); otherwise nothing.
    void batchMajor();
};

// Keras' padding of one axis as ONNX and PyTorch pads: (before, after); "same" puts the odd pixel after.
std::pair<int64_t, int64_t> kerasPads(bool same, int in, int kernel, int stride);

// One tensor of the PyTorch state_dict (io/torch_layout.hpp).
struct TorchTensor {
    enum class Source {
        Params, // values from the network's trainable buffer at `index`
        State,  // values from its non-trainable buffer at `index`
        Ones,   // a BatchNorm weight the model does not train (scale = false)
        Zeros,  // a BatchNorm bias the model does not train (center = false)
        // A second bias PyTorch keeps where the model has one (nn.LSTM's bias_hh beside bias_ih): written
        // as zeros, read as added to the trainable values at `index`, which the tensor before it filled.
        AddedToParams,
        Counter // num_batches_tracked: one int64, not part of the model
    };
    std::string name;           // "4.weight"
    std::string layer;          // the engine layer it belongs to, e.g. "conv2d_1 (Conv2D)"
    std::vector<int64_t> shape; // PyTorch's shape
    Source source = Source::Params;
    // (numel) for Params, State and AddedToParams: the buffer index of each value, in PyTorch's order.
    std::vector<int64_t> index;
    int64_t numel() const
    {
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        return n;
    }
};

// One layer's turn in the PyTorch module. An image model's is an nn.Sequential: the layer adds its
// modules (++module each, parameterless ones included) and its tensors, named "<module>.<param>"
// (add). A text model's (text: it reads token ids) is a module with named children
// (io/torch_layout.hpp): the layer adds "<child>.<param>" (addNamed); add refuses the layer there.
struct TorchLayer {
    const Layer& layer;
    const LayerSpec& spec;
    int64_t paramAt = 0, stateAt = 0; // the layer's offsets in the network's two buffers
    int& module;                      // the index the next module gets
    // For flat activations after a Flatten: perm[t] is the Keras feature at PyTorch's position t
    // (empty: the same order). A kind that flattens sets it; one that mixes features clears it.
    std::vector<int64_t>& perm;
    int64_t kerasFeature(int64_t t) const { return perm.empty() ? t : perm[size_t(t)]; }
    // Adds tensor "<module>.<param>".
    std::function<void(const std::string& param, std::vector<int64_t> shape, TorchTensor::Source source,
                       std::vector<int64_t> index)>
        add;
    bool text = false;
    // Adds tensor `name` (text models).
    std::function<void(const std::string& name, std::vector<int64_t> shape, TorchTensor::Source source,
                       std::vector<int64_t> index)>
        addNamed;
    // The layers before this one, first to last (a kind that stacks into one module counts its own).
    std::vector<const Layer*> before;
    // Throws a ModelError: "layer <name> (<class>): <why>; the PyTorch layout of a text model is ...".
    [[noreturn]] void refuseText(const std::string& why) const;
    // Counts the module PyTorch adds for a fused activation (ReLU(), ELU()); none for linear/softmax.
    void activationModule(Activation a) const
    {
        if (a == Activation::ReLU || a == Activation::ELU)
            ++module;
    }
};

// [first, first + n)
std::vector<int64_t> indexRange(int64_t first, int64_t n);
// Whether PyTorch needs a padding module before a Conv2d (stride1Only: its own padding= takes
// only symmetric pads at stride 1) or a MaxPool2d (symmetric pads at any stride) for Keras' pads.
bool torchNeedsPadModule(const LayerSpec& spec, Shape in, bool stride1Only);

} // namespace tb
