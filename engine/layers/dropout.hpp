// Inverted dropout: in training each value is kept with probability 1 - rate and scaled by
// 1 / (1 - rate); in evaluation it is the identity. The mask is a pure function of
// (seed, step, layer, sample in batch, feature), so it needs no storage and no thread affinity.
#pragma once

#include "layers/layer.hpp"

namespace tb {

class Dropout : public Layer {
public:
    Dropout(std::string name, Shape in, float rate, int layerIndex);
    LayerKind kind() const override { return LayerKind::Dropout; }
    float rate() const { return m_rate; }
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    std::string stepRefusal(bool) const override { return {}; } // the identity in inference
    bool writesOverInput() const override { return true; }      // the mask needs no storage
    bool readsOutputInBackward() const override { return false; }

private:
    void apply(const PassContext& ctx, const ShardView& s, const float* in, float* out) const;
    float m_rate;
    int m_layerIndex;
    uint32_t m_threshold; // rate * 2^24, rounded up
};

} // namespace tb
