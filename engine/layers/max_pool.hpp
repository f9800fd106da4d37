// MaxPooling2D with Keras semantics (pool size, strides defaulting to the pool size, "valid" or
// "same" padding). Forward records the argmax of every window for backward.
#pragma once

#include "kernels/conv_geometry.hpp"
#include "layers/layer.hpp"

namespace tb {

class MaxPool2D : public Layer {
public:
    MaxPool2D(std::string name, Shape in, int ph, int pw, int sh, int sw, bool same);
    LayerKind kind() const override { return LayerKind::MaxPool2D; }
    int64_t cacheFloats(int n) const override { return int64_t(n) * m_out.size(); } // argmax as int32
    bool readsOutputInBackward() const override { return false; }                   // only the argmax
    void forward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    void backward(const PassContext& ctx, int phase, ShardView& s, float* ws) override;
    ConvGeometry geometry() const;
    // Whether a pixel can be in two windows (a stride smaller than the window).
    bool windowsOverlap() const { return m_sh < m_ph || m_sw < m_pw; }

private:
    int m_ph, m_pw, m_sh, m_sw, m_padTop, m_padLeft;
};

} // namespace tb
