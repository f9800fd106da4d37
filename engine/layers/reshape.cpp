#include "layers/reshape.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tb {

// Per sample, the [C][plane] channel planes (rows n * plane apart) and the [plane][C] channels-last
// row are transposes of each other.
void spatialToFlat(const Kernels& k, Shape in, int n, const float* src, float* dst)
{
    const int64_t plane = in.plane();
    for (int i = 0; i < n; ++i)
        k.transpose(src + i * plane, in.c, plane, n * plane, dst + i * in.size(), in.c);
}

void flatToSpatial(const Kernels& k, Shape out, int n, const float* src, float* dst)
{
    const int64_t plane = out.plane();
    for (int i = 0; i < n; ++i)
        k.transpose(src + i * out.size(), plane, out.c, out.c, dst + i * plane, n * plane);
}

namespace {
// Moves a shard from shape `from` to shape `to` (same size) through the channels-last order.
void convert(const Kernels& k, Shape from, Shape to, int n, const float* src, float* dst)
{
    if (!from.spatial && !to.spatial) {
        std::memcpy(dst, src, sizeof(float) * size_t(n * from.size()));
    } else if (from.spatial && !to.spatial) {
        spatialToFlat(k, from, n, src, dst);
    } else if (!from.spatial && to.spatial) {
        flatToSpatial(k, to, n, src, dst);
    } else {
        std::vector<float> tmp(size_t(n * from.size()));
        spatialToFlat(k, from, n, src, tmp.data());
        flatToSpatial(k, to, n, tmp.data(), dst);
    }
}
} // namespace

void Reshape::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    convert(*ctx.kernels, m_in, m_out, s.n, s.x, s.y);
}

void Reshape::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    if (s.dx)
        convert(*ctx.kernels, m_out, m_in, s.n, s.dy, s.dx);
}

// ---- The Flatten and Reshape kinds (layers/layer_type.hpp) ----
namespace {
void parseFlatten(const LayerArgs&, LayerSpec&) {}

void parseReshape(const LayerArgs& r, LayerSpec& l)
{
    const LayerArgs::Json* t = r.get("target_shape");
    if (!t || !t->is_array() || (t->size() != 1 && t->size() != 3))
        r.fail("needs \"target_shape\": [F] or [H, W, C]");
    for (const LayerArgs::Json& d : *t) {
        if (!d.is_number() || d.get<double>() < 1 || d.get<double>() != std::floor(d.get<double>()))
            r.fail("\"target_shape\" values must be positive whole numbers");
        if (d.get<double>() > double(1 << 30)) // before the cast to int (undefined beyond its range)
            r.fail("\"target_shape\" values must be at most 1073741824");
        l.targetShape.push_back(int(d.get<double>()));
    }
}

std::unique_ptr<Layer> buildFlatten(const LayerBuild& b)
{
    return std::make_unique<Reshape>(b.name, b.in, Shape::flat(int(b.in.size())), LayerKind::Flatten);
}

std::unique_ptr<Layer> buildReshape(const LayerBuild& b)
{
    const auto& t = b.spec.targetShape;
    const Shape out = t.size() == 3 ? Shape::image(t[0], t[1], t[2]) : Shape::flat(t[0]);
    if (out.size() != b.in.size())
        b.fail("cannot reshape " + b.in.keras() + " (" + std::to_string(b.in.size()) + " values) into " + out.keras() +
               " (" + std::to_string(out.size()) + " values)");
    return std::make_unique<Reshape>(b.name, b.in, out, LayerKind::Reshape);
}

uint64_t flattenFloats(const LayerSpec&, Shape& s, int)
{
    s = Shape::flat(int(std::min<int64_t>(s.size(), 1 << 30)));
    return 0;
}

uint64_t reshapeFloats(const LayerSpec& l, Shape& s, int)
{
    if (l.targetShape.size() == 3)
        s = Shape::image(l.targetShape[0], l.targetShape[1], l.targetShape[2]);
    else if (l.targetShape.size() == 1)
        s = Shape::flat(l.targetShape[0]);
    return 0;
}

// Both kinds: a Reshape node in Keras' channels-last order, with transposes around it.
void reshapeOnnx(OnnxLayer& o)
{
    const std::string& name = o.layer.name();
    const Shape lo = o.layer.outShape();
    o.batchMajor(); // a sequence flattens as (batch, steps, F)
    if (o.spatial) {
        o.graph.node("Transpose", name + "/to_channels_last", {o.cur}, {name + "/channels_last"},
                     {OnnxAttr::list("perm", {0, 2, 3, 1})});
        o.cur = name + "/channels_last";
    }
    std::vector<int64_t> shape = {-1};
    if (lo.spatial)
        shape.insert(shape.end(), {lo.h, lo.w, lo.c});
    else
        shape.push_back(lo.size());
    o.graph.int64s(name + "/shape", shape);
    o.graph.node("Reshape", name, {o.cur, name + "/shape"}, {name});
    o.cur = name;
    o.spatial = lo.spatial;
    if (o.spatial) {
        o.graph.node("Transpose", name + "/to_nchw", {o.cur}, {name + "/nchw"}, {OnnxAttr::list("perm", {0, 3, 1, 2})});
        o.cur = name + "/nchw";
    }
}

// Flatten(): PyTorch flattens (C, H, W) where Keras flattens (H, W, C), so the flat features of
// the next BatchNorm1d and the columns of the next Linear's weight are permuted to PyTorch's
// order. Reshape: one module that reshapes in Keras' channels-last order (to flat: as Flatten).
void reshapeTorch(TorchLayer& t)
{
    if (t.text)
        t.refuseText("not part of the text layout");
    const Shape in = t.layer.inShape(), o = t.layer.outShape();
    if (in.spatial && !o.spatial) {
        // PyTorch's (c, h, w) position -> Keras' (h, w, c) feature.
        t.perm.assign(size_t(in.size()), 0);
        for (int64_t c = 0; c < in.c; ++c)
            for (int64_t y = 0; y < in.h; ++y)
                for (int64_t x = 0; x < in.w; ++x)
                    t.perm[size_t((c * in.h + y) * in.w + x)] = (y * in.w + x) * in.c + c;
    } else if (o.spatial) {
        t.perm.clear();
    }
    ++t.module;
}
} // namespace

const LayerType& flattenLayerType()
{
    static const LayerType t{"Flatten",    "flatten",     {},          parseFlatten,
                             buildFlatten, flattenFloats, reshapeOnnx, reshapeTorch};
    return t;
}

const LayerType& reshapeLayerType()
{
    static const LayerType t{"Reshape",    "reshape",     {"target_shape"}, parseReshape,
                             buildReshape, reshapeFloats, reshapeOnnx,      reshapeTorch};
    return t;
}

} // namespace tb
