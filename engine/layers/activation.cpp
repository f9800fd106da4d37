#include "layers/activation.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

const char* activationName(Activation a)
{
    switch (a) {
    case Activation::Linear:
        return "linear";
    case Activation::ReLU:
        return "relu";
    case Activation::ELU:
        return "elu";
    case Activation::Softmax:
        return "softmax";
    }
    return "?";
}

void ActivationLayer::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    const int64_t n = int64_t(s.n) * m_in.size();
    std::memcpy(s.y, s.x, size_t(n) * sizeof(float));
    ctx.kernels->activate(m_act, s.y, n);
}

void ActivationLayer::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t n = int64_t(s.n) * m_in.size();
    ctx.kernels->activationBackward(m_act, s.y, s.dy, n);
    std::memcpy(s.dx, s.dy, size_t(n) * sizeof(float));
}

// ---- The Activation, ReLU, ELU and Softmax kinds (layers/layer_type.hpp) ----
namespace {
void parseActivation(const LayerArgs& r, LayerSpec& l)
{
    l.activation = r.activation(true);
}
void parseRelu(const LayerArgs&, LayerSpec& l)
{
    l.activation = Activation::ReLU;
}
void parseElu(const LayerArgs&, LayerSpec& l)
{
    l.activation = Activation::ELU;
}
void parseSoftmax(const LayerArgs&, LayerSpec& l)
{
    l.activation = Activation::Softmax;
}

std::unique_ptr<Layer> buildActivation(const LayerBuild& b)
{
    return std::make_unique<ActivationLayer>(b.name, b.in, b.spec.activation);
}

uint64_t activationFloats(const LayerSpec&, Shape&, int)
{
    return 0;
}

void activationOnnx(OnnxLayer& o)
{
    o.activation = o.spec.activation;
}

// ReLU()/ELU(); linear and the final softmax have no module (PyTorch's CrossEntropyLoss applies
// the softmax).
void activationTorch(TorchLayer& t)
{
    if (t.text && t.spec.activation != Activation::Softmax)
        t.refuseText("only the final softmax is supported after the Dense");
    t.activationModule(t.spec.activation);
}
} // namespace

const LayerType& activationLayerType()
{
    static const LayerType t{"Activation",    "activation",     {"activation"}, parseActivation,
                             buildActivation, activationFloats, activationOnnx, activationTorch};
    return t;
}

const LayerType& reluLayerType()
{
    static const LayerType t{"ReLU",         "re_lu",        {}, parseRelu, buildActivation, activationFloats,
                             activationOnnx, activationTorch};
    return t;
}

const LayerType& eluLayerType()
{
    static const LayerType t{"ELU",          "elu",          {}, parseElu, buildActivation, activationFloats,
                             activationOnnx, activationTorch};
    return t;
}

const LayerType& softmaxLayerType()
{
    static const LayerType t{"Softmax",      "softmax",      {}, parseSoftmax, buildActivation, activationFloats,
                             activationOnnx, activationTorch};
    return t;
}

} // namespace tb
