#include "layers/activation.hpp"

#include "core/fast_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

const char* layerKindName(LayerKind k)
{
    switch (k) {
    case LayerKind::Conv2D: return "Conv2D";
    case LayerKind::BatchNorm: return "BatchNormalization";
    case LayerKind::MaxPool2D: return "MaxPooling2D";
    case LayerKind::Dropout: return "Dropout";
    case LayerKind::Flatten: return "Flatten";
    case LayerKind::Reshape: return "Reshape";
    case LayerKind::Dense: return "Dense";
    case LayerKind::Activation: return "Activation";
    }
    return "?";
}

const char* activationName(Activation a)
{
    switch (a) {
    case Activation::Linear: return "linear";
    case Activation::ReLU: return "relu";
    case Activation::ELU: return "elu";
    case Activation::Softmax: return "softmax";
    }
    return "?";
}

void activateInPlace(Activation a, float* v, int64_t n)
{
    switch (a) {
    case Activation::Linear:
    case Activation::Softmax:  // fused into the loss
        return;
    case Activation::ReLU:
        for (int64_t i = 0; i < n; ++i)
            v[i] = std::max(v[i], 0.0f);
        return;
    case Activation::ELU:
        // Branch-free so that it vectorizes: exp is computed for every lane, of min(x, 0).
        for (int64_t i = 0; i < n; ++i) {
            const float x = v[i];
            const float e = expMinusOne(x < 0.0f ? x : 0.0f);
            v[i] = x > 0.0f ? x : e;
        }
        return;
    }
}

void activationBackward(Activation a, const float* y, float* dy, int64_t n)
{
    switch (a) {
    case Activation::Linear:
    case Activation::Softmax:
        return;
    case Activation::ReLU:
        for (int64_t i = 0; i < n; ++i)
            dy[i] = y[i] > 0.0f ? dy[i] : 0.0f;
        return;
    case Activation::ELU:
        // For x <= 0, y = e^x - 1, so dy/dx = y + 1.
        for (int64_t i = 0; i < n; ++i)
            dy[i] = y[i] > 0.0f ? dy[i] : dy[i] * (y[i] + 1.0f);
        return;
    }
}

void ActivationLayer::forward(const PassContext&, int, ShardView& s, float*)
{
    const int64_t n = int64_t(s.n) * m_in.size();
    std::memcpy(s.y, s.x, size_t(n) * sizeof(float));
    activateInPlace(m_act, s.y, n);
}

void ActivationLayer::backward(const PassContext&, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t n = int64_t(s.n) * m_in.size();
    activationBackward(m_act, s.y, s.dy, n);
    std::memcpy(s.dx, s.dy, size_t(n) * sizeof(float));
}

}  // namespace tb
