#include "layers/embedding.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cstring>

namespace tb {

Embedding::Embedding(std::string name, Shape in, int inputDim, int outputDim)
    : Layer(std::move(name), in, Shape::seq(int(in.size()), outputDim)), m_inputDim(inputDim), m_outputDim(outputDim)
{
}

void Embedding::initParams(float* params, float*, Rng& rng) const
{
    for (int64_t i = 0; i < paramCount(); ++i)
        params[i] = 0.05f * (2.0f * rng.uniform() - 1.0f);
}

const float* Embedding::row(int id) const
{
    return m_params + int64_t(index(id)) * m_outputDim;
}

void Embedding::forward(const PassContext&, int, ShardView& s, float*)
{
    const int64_t T = m_in.size(), E = m_outputDim;
    for (int64_t r = 0; r < int64_t(s.n) * T; ++r)
        std::memcpy(s.y + r * E, row(int(s.x[r])), sizeof(float) * size_t(E));
}

void Embedding::stepForward(const Kernels&, const std::vector<float>& ids, int n, std::vector<float>& out,
                            std::vector<float>&) const
{
    const int64_t E = m_outputDim;
    out.resize(size_t(n) * size_t(E));
    for (int i = 0; i < n; ++i)
        std::memcpy(out.data() + i * E, row(int(ids[size_t(i)])), sizeof(float) * size_t(E));
}

void Embedding::backward(const PassContext&, int, ShardView& s, float*)
{
    const int64_t T = m_in.size(), E = m_outputDim;
    for (int64_t r = 0; r < int64_t(s.n) * T; ++r) {
        float* g = s.grad + int64_t(index(int(s.x[r]))) * E;
        const float* d = s.dy + r * E;
        for (int64_t j = 0; j < E; ++j)
            g[j] += d[j];
    }
    if (s.dx)
        std::fill(s.dx, s.dx + int64_t(s.n) * T, 0.0f);
}

// ---- The Embedding kind (layers/layer_type.hpp) ----
namespace {
// Its arguments have no LayerSpec field: they are kept in `extra`.
int inputDim(const LayerSpec& l)
{
    return int(l.extra.at("input_dim"));
}
int outputDim(const LayerSpec& l)
{
    return int(l.extra.at("output_dim"));
}

void parseEmbedding(const LayerArgs& r, LayerSpec& l)
{
    if (!r.has("input_dim") || !r.has("output_dim"))
        r.fail("needs \"input_dim\" (the vocabulary size) and \"output_dim\"");
    l.extra["input_dim"] = r.positive("input_dim", 0, 256);
    l.extra["output_dim"] = r.positive("output_dim", 0, 65536);
}

std::unique_ptr<Layer> buildEmbedding(const LayerBuild& b)
{
    if (b.index != 0)
        b.fail("an Embedding must be the first layer (it reads token ids)");
    if (!b.in.tokens)
        b.fail("needs token ids (a text dataset) but receives " + b.in.keras());
    const int V = inputDim(b.spec);
    if (V < b.classes)
        b.fail("\"input_dim\" " + std::to_string(V) + " is smaller than the text's vocabulary of " +
               std::to_string(b.classes) + " symbols");
    return std::make_unique<Embedding>(b.name, b.in, V, outputDim(b.spec));
}

uint64_t embeddingFloats(const LayerSpec& l, Shape& s, int)
{
    s = Shape::seq(int(s.size()), outputDim(l));
    return uint64_t(inputDim(l)) * uint64_t(outputDim(l));
}

// Gather from the table (V, E) by the token ids.
void embeddingOnnx(OnnxLayer& o)
{
    const std::string& name = o.layer.name();
    const int64_t V = inputDim(o.spec), E = outputDim(o.spec);
    o.graph.floats(name + ".weight", {V, E}, o.params, V * E);
    o.graph.node("Gather", name, {name + ".weight", o.cur}, {name}, {OnnxAttr::integer("axis", 0)});
    o.cur = name;
    o.spatial = false;
}

// A text model's "embedding" child: nn.Embedding, weight (V, E), the table as is.
void embeddingTorch(TorchLayer& t)
{
    if (!t.text)
        t.refuseText("reads token ids, so it belongs to a text model");
    const int64_t V = inputDim(t.spec), E = outputDim(t.spec);
    t.addNamed("embedding.weight", {V, E}, TorchTensor::Source::Params, indexRange(t.paramAt, V * E));
}
} // namespace

const LayerType& embeddingLayerType()
{
    static const LayerType t{"Embedding",    "embedding",    {"input_dim", "output_dim"},
                             parseEmbedding, buildEmbedding, embeddingFloats,
                             embeddingOnnx,  embeddingTorch, /*readsTokens=*/true};
    return t;
}

} // namespace tb
