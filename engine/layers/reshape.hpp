// Flatten and Reshape: change the logical shape, and the memory layout between the spatial
// [C][n][H][W] and flat [n][F] forms. The flat order is Keras' channels-last (h, w, c), so a
// Dense layer after Flatten sees features in the order Keras would.
#pragma once

#include "layers/layer.hpp"

namespace tb {

class Reshape : public Layer {
public:
    Reshape(std::string name, Shape in, Shape out, LayerKind kind) : Layer(std::move(name), in, out), m_kind(kind) {}
    LayerKind kind() const override { return m_kind; }
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;

private:
    LayerKind m_kind; // Flatten or Reshape
};

// Converts one shard between layouts via Keras' channels-last order.
void spatialToFlat(const Kernels& k, Shape in, int n, const float* src, float* dst);
void flatToSpatial(const Kernels& k, Shape out, int n, const float* src, float* dst);

} // namespace tb
