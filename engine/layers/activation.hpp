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
    // The layer before applies this activation itself (BatchNorm's fused ReLU).
    void setFusedIntoPrevious() { m_fused = true; }
    // Linear does nothing, softmax is fused into the loss.
    bool passThrough() const override { return m_fused || m_act == Activation::Linear || m_act == Activation::Softmax; }
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    // A softmax passes the logits on (the generator takes it with its temperature).
    std::string stepRefusal(bool lastLayer) const override
    {
        return m_act == Activation::Softmax ? std::string() : Layer::stepRefusal(lastLayer);
    }

private:
    Activation m_act;
    bool m_fused = false;
};

} // namespace tb
