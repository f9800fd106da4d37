// A model built for a concrete input: its layers with shapes checked, and every parameter in one
// flat buffer (trainable) plus one for non-trainable state, addressed by per-layer offsets.
#pragma once

#include "layers/layer.hpp"
#include "model/model_spec.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tb {

class Network {
public:
    // What the constructor writes in the weights: the initial values for seed 0, or zeros for a
    // network whose weights are about to be replaced (read from a file, copied) or never read (a
    // summary). Initial values cost: an LSTM's orthogonal recurrent kernel is a QR decomposition,
    // most of a second for shakespeare-lstm's.
    enum class Fill { Initial, Zeros };
    // Throws ModelError naming the layer when a shape does not fit.
    Network(ModelSpec spec, Shape input, int numClasses, Fill fill = Fill::Initial);
    ~Network();
    Network(Network&&) noexcept;

    const ModelSpec& spec() const { return m_spec; }
    Shape inputShape() const { return m_input; }
    int numClasses() const { return m_classes; }
    float inputScale() const { return m_spec.inputScale; }
    // Labels per sample: the output's time steps for a sequence model (one per step), else 1.
    int outputSteps() const { return m_layers.back()->outShape().steps(); }

    int layerCount() const { return int(m_layers.size()); }
    Layer& layer(int i) { return *m_layers[size_t(i)]; }
    const Layer& layer(int i) const { return *m_layers[size_t(i)]; }
    const LayerSpec& layerSpec(int i) const { return m_spec.layers[size_t(i)]; }
    int64_t paramOffset(int i) const { return m_paramOffset[size_t(i)]; }
    int64_t stateOffset(int i) const { return m_stateOffset[size_t(i)]; }
    // Largest per-sample activation over the input and all layer outputs.
    int64_t maxActivationSize() const;

    int64_t paramCount() const { return int64_t(m_params.size()); } // trainable
    int64_t stateCount() const { return int64_t(m_state.size()); }  // non-trainable
    std::vector<float>& params() { return m_params; }
    // Makes `other` (same size) the parameters and hands back the old ones: the trainer writes a
    // step's new weights beside the old and swaps them in only when they are good.
    void swapParams(std::vector<float>& other);
    const std::vector<float>& params() const { return m_params; }
    std::vector<float>& state() { return m_state; }
    const std::vector<float>& state() const { return m_state; }
    // Where layers write batch-wide gradients; also rebinds params and state.
    void bindGradient(float* grad);

    // Keras defaults (Glorot-uniform kernels, zero biases, gamma 1, beta 0) drawn from `seed`.
    void initialize(uint64_t seed);
    // SHA-256 over the trainable then non-trainable values (little-endian float32).
    std::string weightsSha256() const;
    // Keras-style model.summary().
    std::string summary() const;

private:
    void bind();
    ModelSpec m_spec;
    Shape m_input;
    int m_classes;
    std::vector<std::unique_ptr<Layer>> m_layers;
    std::vector<int64_t> m_paramOffset, m_stateOffset;
    std::vector<float> m_params, m_state;
    float* m_grad = nullptr;
};

// "1,619,470"
std::string withThousands(int64_t v);

} // namespace tb
