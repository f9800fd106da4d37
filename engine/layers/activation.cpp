#include "layers/activation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

const char* layerKindName(LayerKind k)
{
    switch (k) {
    case LayerKind::Conv2D:
        return "Conv2D";
    case LayerKind::BatchNorm:
        return "BatchNormalization";
    case LayerKind::MaxPool2D:
        return "MaxPooling2D";
    case LayerKind::Dropout:
        return "Dropout";
    case LayerKind::Flatten:
        return "Flatten";
    case LayerKind::Reshape:
        return "Reshape";
    case LayerKind::Dense:
        return "Dense";
    case LayerKind::Activation:
        return "Activation";
    case LayerKind::Embedding:
        return "Embedding";
    case LayerKind::LSTM:
        return "LSTM";
    }
    return "?";
}

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

} // namespace tb
