// Activation as a layer of its own (Keras' Activation/ReLU/ELU layers). Softmax is accepted only
// as the network's last step, where the loss fuses it; the layer itself then passes logits on.
#pragma once

#include "layers/layer.hpp"

namespace tb {

class ActivationLayer : public Layer {
public:
    ActivationLayer(std::string name, Shape in, Activation a) : Layer(std::move(name), in, in), m_act(a) {}
    LayerKind kind() const override { return LayerKind::Activation; }
    Activation activation() const { return m_act; }
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;

private:
    Activation m_act;
};

}  // namespace tb
