#include "model/network.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/sha256.hpp"
#include "layers/activation.hpp"
#include "layers/batch_norm.hpp"
#include "layers/embedding.hpp"
#include "layers/layer_type.hpp"
#include "layers/lstm.hpp"

#include <cstdio>
#include <map>
#include <stdexcept>

namespace tb {

std::string withThousands(int64_t v)
{
    const std::string digits = std::to_string(v < 0 ? -v : v);
    std::string s = v < 0 ? "-" : "";
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            s += ',';
        s += digits[i];
    }
    return s;
}

Network::Network(ModelSpec spec, Shape input, int numClasses, Fill fill)
    : m_spec(std::move(spec)), m_input(input), m_classes(numClasses)
{
    std::map<std::string, int> counts;
    Shape shape = input;
    // Which model the messages speak of, the model file's name or the preset's, as its parse errors
    // name it: "model.json, layer 3 (...): ...", "model.json: the model's output ...".
    const std::string about = m_spec.origin.empty() ? "" : m_spec.origin + ": ";
    const std::string layersOf = m_spec.origin.empty() ? "" : m_spec.origin + ", ";
    const int n = int(m_spec.layers.size());
    // "model.json, layer 3 (dense_1, Dense)": the layer's name as the build below gives it.
    auto layerWhere = [&](int i, std::map<std::string, int>& seen) {
        const LayerSpec& ls = m_spec.layers[size_t(i)];
        const std::string base = ls.type->defaultName;
        const int k = seen[base]++;
        const std::string name = ls.name.empty() ? (k == 0 ? base : base + "_" + std::to_string(k)) : ls.name;
        return std::make_pair(name,
                              layersOf + "layer " + std::to_string(i + 1) + " (" + name + ", " + ls.kerasClass + ")");
    };
    const uint64_t machine = physicalMemoryBytes();
    // atLeast: the count of the layers before a shape that does not fit.
    auto refuseTotal = [&](uint64_t weights, bool atLeast) {
        throw ModelError(about + "the model has " + (atLeast ? "at least " : "") + std::to_string(weights) +
                         " weights (" + humanBytes(weights * sizeof(float)) + "), more than can be trained in " +
                         memoryLimitText());
    };
    // Refused before any layer is built: a layer allocates as it is made (a Dense its transposed
    // kernel), so a model too large in one layer or in all would otherwise take gigabytes, and many
    // seconds, before its refusal. The counts come from the shapes alone (LayerType::weightFloats,
    // which counts at most an export's zero bias more than the layer holds). The walk stops at a
    // shape that does not fit, which the build below names.
    {
        std::map<std::string, int> seen;
        Shape s = input;
        uint64_t total = 0;
        bool complete = false; // the walk reached the last layer
        for (int i = 0; i < n; ++i) {
            const LayerSpec& ls = m_spec.layers[size_t(i)];
            const std::string where = layerWhere(i, seen).second;
            if (s.tokens && !ls.type->readsTokens)
                break;
            const uint64_t floats = ls.type->weightFloats(ls, s, numClasses);
            if (floats * sizeof(float) > machine / 2)
                throw ModelError(where + ": the layer has " + std::to_string(floats) + " weights (" +
                                 humanBytes(floats * sizeof(float)) + "), more than can be trained in " +
                                 memoryLimitText());
            total += floats;
            if (s.size() <= 0) {
                complete = false;
                break;
            }
            complete = i + 1 == n;
        }
        if (total * sizeof(float) > machine / 2)
            refuseTotal(total, !complete);
    }
    for (int i = 0; i < n; ++i) {
        LayerSpec& ls = m_spec.layers[size_t(i)];
        const std::pair<std::string, std::string> named = layerWhere(i, counts);
        const std::string& name = named.first;
        const std::string& where = named.second;
        auto fail = [&](const std::string& what) { throw ModelError(where + ": " + what); };
        const bool last = i == n - 1;
        if (ls.activation == Activation::Softmax && !last)
            fail("softmax is supported only as the model's final activation (it is fused with the loss)");

        if (shape.tokens && !ls.type->readsTokens)
            fail("receives token ids " + shape.keras() + "; a text model starts with an Embedding");
        std::unique_ptr<Layer> layer = ls.type->build(LayerBuild{ls, name, shape, i, numClasses, where});
        shape = layer->outShape();
        if (shape.size() <= 0)
            fail("its output " + shape.keras() + " is empty");
        // A ReLU right after a BatchNorm runs inside it (same results, one pass less each way).
        if (auto* act = dynamic_cast<ActivationLayer*>(layer.get());
            act && act->activation() == Activation::ReLU && !m_layers.empty())
            if (auto* bn = dynamic_cast<BatchNorm*>(m_layers.back().get())) {
                bn->fuseRelu();
                act->setFusedIntoPrevious();
            }
        // An LSTM right after the Embedding reads the ids and the table itself (Lstm::readEmbedding).
        if (auto* lstm = dynamic_cast<Lstm*>(layer.get()); lstm && m_layers.size() == 1)
            if (auto* e = dynamic_cast<Embedding*>(m_layers.back().get()))
                lstm->readEmbedding(*e);
        m_layers.push_back(std::move(layer));
    }
    const LayerSpec& lastSpec = m_spec.layers.back();
    if (lastSpec.activation != Activation::Softmax)
        throw ModelError(about +
                         "the model must end with a softmax (a Dense with \"activation\": \"softmax\" or an "
                         "Activation softmax layer); it ends with " +
                         m_layers.back()->name());
    if (shape.sequence && !shape.spatial && shape.c != numClasses) // a text model: its classes are symbols
        throw ModelError(about + "the model's output " + shape.keras() + " gives " + std::to_string(shape.c) +
                         " symbols, and the vocabulary has " + std::to_string(numClasses) +
                         ": the final Dense layer needs " + std::to_string(numClasses) +
                         " units (\"units\": \"classes\" sizes it to the vocabulary)" +
                         (shape.c == 256 ? "; a model of 256 outputs reads bytes: train it with the byte-level "
                                           "vocabulary"
                                         : ""));
    if (shape.spatial || shape.c != numClasses || (!shape.sequence && shape.size() != numClasses))
        throw ModelError(about + "the model's output " + shape.keras() + " does not match the dataset's " +
                         std::to_string(numClasses) + " classes: the final Dense layer needs " +
                         std::to_string(numClasses) + " units");

    int64_t p = 0, s = 0;
    for (auto& l : m_layers) {
        m_paramOffset.push_back(p);
        m_stateOffset.push_back(s);
        p += l->paramCount();
        s += l->stateCount();
    }
    // Refused before allocation: weights, their gradient and the optimizer's slots are several copies.
    // The walk above refused the model already if weightFloats is right for every kind; this is the
    // exact count, for a kind whose weightFloats falls short.
    if (uint64_t(p + s) * sizeof(float) > machine / 2)
        refuseTotal(uint64_t(p + s), false);
    m_params.assign(size_t(p), 0.0f);
    m_state.assign(size_t(s), 0.0f);
    bind();
    if (fill == Fill::Initial)
        initialize(0);
}

Network::~Network() = default;
Network::Network(Network&&) noexcept = default;

void Network::bind()
{
    for (size_t i = 0; i < m_layers.size(); ++i)
        m_layers[i]->bind(m_params.data() + m_paramOffset[i], m_state.data() + m_stateOffset[i],
                          m_grad ? m_grad + m_paramOffset[i] : nullptr);
}

void Network::swapParams(std::vector<float>& other)
{
    if (other.size() != m_params.size())
        throw std::logic_error("swapParams: the buffers differ in size");
    m_params.swap(other);
    bind();
}

void Network::bindGradient(float* grad)
{
    m_grad = grad;
    bind();
}

int64_t Network::maxActivationSize() const
{
    int64_t m = m_input.size();
    for (const auto& l : m_layers)
        m = std::max(m, l->outShape().size());
    return m;
}

void Network::initialize(uint64_t seed)
{
    for (size_t i = 0; i < m_layers.size(); ++i) {
        // One stream per layer, so adding a layer does not change the others' initial weights.
        Rng rng(hashKey(seed, uint64_t(RngPurpose::Init), i));
        m_layers[i]->initParams(m_params.data() + m_paramOffset[i], m_state.data() + m_stateOffset[i], rng);
    }
}

std::string Network::weightsSha256() const
{
    Sha256 h;
    h.update(m_params.data(), m_params.size() * sizeof(float));
    h.update(m_state.data(), m_state.size() * sizeof(float));
    return h.hexDigest();
}

std::string Network::summary() const
{
    auto pad = [](std::string s, size_t w) {
        if (s.size() >= w)
            s = s.substr(0, w - 1) + " ";
        return s + std::string(w - s.size(), ' ');
    };
    std::string out = "Model: \"" + m_spec.name + "\"\n";
    const std::string line(72, '_'), dline(72, '=');
    out += line + "\n";
    // Appended piece by piece: GCC 12 warns falsely of overlapping copies in " " + std::string.
    out += ' ';
    out += pad("Layer (type)", 35) + pad("Output Shape", 26) + "Param #\n";
    out += dline + "\n";
    for (size_t i = 0; i < m_layers.size(); ++i) {
        const Layer& l = *m_layers[i];
        const std::string cls = m_spec.layers[i].kerasClass;
        out += ' ';
        out += pad(l.name() + " (" + cls + ")", 35) + pad(l.outShape().keras(), 26) +
               withThousands(l.paramCount() + l.stateCount()) + "\n";
        if (i + 1 < m_layers.size())
            out += "\n";
    }
    out += dline + "\n";
    out += "Total params: " + withThousands(paramCount() + stateCount()) + "\n";
    out += "Trainable params: " + withThousands(paramCount()) + "\n";
    out += "Non-trainable params: " + withThousands(stateCount()) + "\n";
    out += line + "\n";
    return out;
}

} // namespace tb
