#include "layers/dropout.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <cmath>
#include <cstring>
#include <vector>

namespace tb {

Dropout::Dropout(std::string name, Shape in, float rate, int layerIndex)
    : Layer(std::move(name), in, in), m_rate(rate), m_layerIndex(layerIndex),
      m_threshold(uint32_t(std::ceil(double(rate) * 16777216.0)))
{
}

// out = keep ? in * scale : 0 over the shard, the mask from (step, layer, sample, feature).
void Dropout::apply(const PassContext& ctx, const ShardView& s, const float* in, float* out) const
{
    const uint64_t layerKey = hashKey(ctx.dropoutKey, uint64_t(m_layerIndex));
    thread_local std::vector<uint32_t> keys;
    keys.resize(size_t(s.n));
    for (int i = 0; i < s.n; ++i)
        keys[size_t(i)] = uint32_t(hashKey(layerKey, uint64_t(s.firstSample + i)));
    kernel::DropoutShard d;
    d.sampleKeys = keys.data();
    d.n = s.n;
    // Flat tensors are one "channel" whose plane is the feature vector.
    d.spatial = m_in.spatial;
    d.channels = m_in.spatial ? m_in.c : 1;
    d.plane = m_in.spatial ? m_in.plane() : m_in.size();
    d.threshold = m_threshold;
    d.scale = 1.0f / (1.0f - m_rate);
    ctx.kernels->dropout(d, in, out);
}

void Dropout::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    const int64_t n = int64_t(s.n) * m_in.size();
    if (!ctx.training || m_rate <= 0.0f) {
        if (s.y != s.x) // not over its input (writesOverInput)
            std::memcpy(s.y, s.x, sizeof(float) * size_t(n));
        return;
    }
    apply(ctx, s, s.x, s.y);
}

void Dropout::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t n = int64_t(s.n) * m_in.size();
    if (m_rate <= 0.0f) {
        std::memcpy(s.dx, s.dy, sizeof(float) * size_t(n));
        return;
    }
    apply(ctx, s, s.dy, s.dx);
}

// ---- The Dropout kind (layers/layer_type.hpp) ----
namespace {
void parseDropout(const LayerArgs& r, LayerSpec& l)
{
    r.require("rate");
    l.rate = float(r.number("rate", 0.0, 0.0, 1.0, false, true));
}

std::unique_ptr<Layer> buildDropout(const LayerBuild& b)
{
    return std::make_unique<Dropout>(b.name, b.in, b.spec.rate, b.index);
}

uint64_t dropoutFloats(const LayerSpec&, Shape&, int)
{
    return 0;
}

void dropoutOnnx(OnnxLayer&)
{
    // the identity at inference: no node
}

// Dropout(rate)
void dropoutTorch(TorchLayer& t)
{
    ++t.module;
}
} // namespace

const LayerType& dropoutLayerType()
{
    static const LayerType t{"Dropout",    "dropout",     {"rate"},    parseDropout,
                             buildDropout, dropoutFloats, dropoutOnnx, dropoutTorch};
    return t;
}

} // namespace tb
