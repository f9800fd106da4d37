#include "io/torch_layout.hpp"

#include "core/errors.hpp"
#include "layers/conv2d.hpp"

#include <algorithm>
#include <numeric>

namespace tb {

namespace {
// Keras' padding of one axis: (before, after).
std::pair<int, int> axisPads(bool same, int in, int kernel, int stride)
{
    int out = 0, before = 0;
    kerasPadding(same, in, kernel, stride, out, before);
    return {before, same ? std::max(0, (out - 1) * stride + kernel - in - before) : 0};
}

bool paddingNeedsModule(const LayerSpec& ls, Shape in, bool stride1Only)
{
    const auto [top, bottom] = axisPads(ls.same, in.h, ls.kh, ls.sh);
    const auto [left, right] = axisPads(ls.same, in.w, ls.kw, ls.sw);
    if (top + bottom + left + right == 0)
        return false;
    const bool symmetric = top == bottom && left == right;
    return !symmetric || (stride1Only && (ls.sh != 1 || ls.sw != 1));
}

std::vector<int64_t> range(int64_t first, int64_t n)
{
    std::vector<int64_t> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), first);
    return v;
}
} // namespace

namespace {
TorchTensor tensor(std::string name, std::string layer, std::vector<int64_t> shape, TorchTensor::Source source,
                   std::vector<int64_t> index)
{
    TorchTensor t;
    t.name = std::move(name);
    t.layer = std::move(layer);
    t.shape = std::move(shape);
    t.source = source;
    t.index = std::move(index);
    return t;
}

// A text model: embedding.weight; one nn.LSTM for the stacked LSTM layers (lstm.weight_ih_l<k>,
// weight_hh_l<k>, bias_ih_l<k>, bias_hh_l<k>); dense.weight, dense.bias.
std::vector<TorchTensor> textLayout(const Network& net)
{
    std::vector<TorchTensor> out;
    int lstmLayers = 0, lstmUnits = 0;
    bool lstmDone = false;
    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string where = layer.name() + " (" + ls.kerasClass + ")";
        const int64_t p = net.paramOffset(i);
        const Shape in = layer.inShape(), o = layer.outShape();
        auto add = [&](const std::string& name, std::vector<int64_t> shape, TorchTensor::Source source,
                       std::vector<int64_t> index = {}) {
            out.push_back(tensor(name, where, std::move(shape), source, std::move(index)));
        };
        auto refuse = [&](const std::string& why) {
            throw ModelError("layer " + where + ": " + why +
                             "; the PyTorch layout of a text model is Embedding, one stacked nn.LSTM, Linear");
        };
        // A Dropout has no weights (between LSTMs it is nn.LSTM's dropout, after them an nn.Dropout).
        if (ls.kind != LayerKind::LSTM && ls.kind != LayerKind::Dropout && lstmLayers > 0)
            lstmDone = true;
        switch (ls.kind) {
        case LayerKind::Embedding:
            add("embedding.weight", {ls.inputDim, ls.outputDim}, TorchTensor::Source::Params,
                range(p, int64_t(ls.inputDim) * ls.outputDim));
            break;
        case LayerKind::LSTM: {
            if (lstmDone)
                refuse("LSTM layers must follow each other");
            if (lstmLayers > 0 && ls.units != lstmUnits)
                refuse("stacked LSTM layers must have the same units");
            if (!ls.returnSequences)
                refuse("nn.LSTM returns every step: \"return_sequences\" must be true");
            const int64_t F = in.c, H = ls.units, G = 4 * H;
            const std::string k = std::to_string(lstmLayers);
            std::vector<int64_t> ih(size_t(G * F)), hh(size_t(G * H));
            // PyTorch's gate order i, f, g, o is Keras' i, f, c, o: the rows are Keras' columns.
            for (int64_t r = 0; r < G; ++r) {
                for (int64_t f = 0; f < F; ++f)
                    ih[size_t(r * F + f)] = p + f * G + r;
                for (int64_t h = 0; h < H; ++h)
                    hh[size_t(r * H + h)] = p + F * G + h * G + r;
            }
            add("lstm.weight_ih_l" + k, {G, F}, TorchTensor::Source::Params, std::move(ih));
            add("lstm.weight_hh_l" + k, {G, H}, TorchTensor::Source::Params, std::move(hh));
            add("lstm.bias_ih_l" + k, {G}, TorchTensor::Source::Params, range(p + (F + H) * G, G));
            add("lstm.bias_hh_l" + k, {G}, TorchTensor::Source::Zeros);
            ++lstmLayers;
            lstmUnits = ls.units;
            break;
        }
        case LayerKind::Dense: {
            const int64_t F = in.c, U = o.c;
            std::vector<int64_t> w(size_t(U * F));
            for (int64_t u = 0; u < U; ++u)
                for (int64_t f = 0; f < F; ++f)
                    w[size_t(u * F + f)] = p + f * U + u;
            add("dense.weight", {U, F}, TorchTensor::Source::Params, std::move(w));
            if (ls.bias)
                add("dense.bias", {U}, TorchTensor::Source::Params, range(p + F * U, U));
            else
                add("dense.bias", {U}, TorchTensor::Source::Zeros);
            break;
        }
        case LayerKind::Activation:
            if (ls.activation != Activation::Softmax)
                refuse("only the final softmax is supported after the Dense");
            break;
        case LayerKind::Dropout:
            break;
        default:
            refuse("not part of the text layout");
        }
        if (ls.kind == LayerKind::Dense &&
            (ls.activation != Activation::Softmax && ls.activation != Activation::Linear))
            refuse("the Dense of a text model has no activation but the final softmax");
    }
    return out;
}
} // namespace

std::vector<TorchTensor> torchLayout(const Network& net)
{
    if (net.spec().isText())
        return textLayout(net);
    std::vector<TorchTensor> out;
    int module = 0;
    int64_t stateOffset = 0;
    // For flat activations after a Flatten: perm[t] is the Keras feature at PyTorch's position t.
    std::vector<int64_t> perm;
    auto kerasFeature = [&](int64_t t) { return perm.empty() ? t : perm[size_t(t)]; };

    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string where = layer.name() + " (" + ls.kerasClass + ")";
        const int64_t p = net.paramOffset(i);
        const Shape in = layer.inShape(), o = layer.outShape();
        auto add = [&](const std::string& param, std::vector<int64_t> shape, TorchTensor::Source source,
                       std::vector<int64_t> index = {}) {
            out.push_back(
                tensor(std::to_string(module) + "." + param, where, std::move(shape), source, std::move(index)));
        };
        auto activationModule = [&](Activation a) {
            if (a == Activation::ReLU || a == Activation::ELU)
                ++module;
        };

        switch (ls.kind) {
        case LayerKind::Conv2D: {
            if (paddingNeedsModule(ls, in, true))
                ++module; // ZeroPad2d
            const int64_t nw = int64_t(o.c) * in.c * ls.kh * ls.kw;
            add("weight", {o.c, in.c, ls.kh, ls.kw}, TorchTensor::Source::Params, range(p, nw));
            if (ls.bias)
                add("bias", {o.c}, TorchTensor::Source::Params, range(p + nw, o.c));
            ++module;
            activationModule(ls.activation);
            break;
        }
        case LayerKind::BatchNorm: {
            const int64_t C = in.spatial ? in.c : in.size();
            std::vector<int64_t> feature(static_cast<size_t>(C));
            for (int64_t t = 0; t < C; ++t)
                feature[size_t(t)] = in.spatial ? t : kerasFeature(t);
            auto at = [&](int64_t base) {
                std::vector<int64_t> v(feature);
                for (int64_t& x : v)
                    x += base;
                return v;
            };
            if (ls.scale)
                add("weight", {C}, TorchTensor::Source::Params, at(p));
            else
                add("weight", {C}, TorchTensor::Source::Ones);
            if (ls.center)
                add("bias", {C}, TorchTensor::Source::Params, at(p + (ls.scale ? C : 0)));
            else
                add("bias", {C}, TorchTensor::Source::Zeros);
            add("running_mean", {C}, TorchTensor::Source::State, at(stateOffset));
            add("running_var", {C}, TorchTensor::Source::State, at(stateOffset + C));
            add("num_batches_tracked", {}, TorchTensor::Source::Counter);
            ++module;
            break;
        }
        case LayerKind::MaxPool2D:
            if (paddingNeedsModule(ls, in, false))
                ++module; // ConstantPad2d(-inf)
            ++module;
            break;
        case LayerKind::Dropout:
            ++module;
            break;
        case LayerKind::Flatten:
        case LayerKind::Reshape:
            if (in.spatial && !o.spatial) {
                // PyTorch's (c, h, w) position -> Keras' (h, w, c) feature.
                perm.assign(size_t(in.size()), 0);
                for (int64_t c = 0; c < in.c; ++c)
                    for (int64_t y = 0; y < in.h; ++y)
                        for (int64_t x = 0; x < in.w; ++x)
                            perm[size_t((c * in.h + y) * in.w + x)] = (y * in.w + x) * in.c + c;
            } else if (o.spatial) {
                perm.clear();
            }
            ++module;
            break;
        case LayerKind::Dense: {
            const int64_t F = in.size(), units = o.size();
            std::vector<int64_t> w(size_t(F * units));
            for (int64_t u = 0; u < units; ++u)
                for (int64_t t = 0; t < F; ++t)
                    w[size_t(u * F + t)] = p + kerasFeature(t) * units + u;
            add("weight", {units, F}, TorchTensor::Source::Params, std::move(w));
            if (ls.bias)
                add("bias", {units}, TorchTensor::Source::Params, range(p + F * units, units));
            perm.clear();
            ++module;
            activationModule(ls.activation);
            break;
        }
        case LayerKind::Activation:
            activationModule(ls.activation);
            break;
        case LayerKind::Embedding: // text models have no nn.Sequential layout (safetensorsBytes refuses them)
        case LayerKind::LSTM:
            throw ModelError("layer " + layer.name() + ": text models have no PyTorch nn.Sequential layout");
        }
        stateOffset += layer.stateCount();
    }
    return out;
}

} // namespace tb
