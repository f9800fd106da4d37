#include "layers/max_pool.hpp"

#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tb {

MaxPool2D::MaxPool2D(std::string name, Shape in, int ph, int pw, int sh, int sw, bool same)
    : Layer(std::move(name), in, in), m_ph(ph), m_pw(pw), m_sh(sh), m_sw(sw)
{
    int ho, wo;
    kerasPadding(same, in.h, ph, sh, ho, m_padTop);
    kerasPadding(same, in.w, pw, sw, wo, m_padLeft);
    m_out = Shape::image(ho, wo, in.c);
}

ConvGeometry MaxPool2D::geometry() const
{
    return {m_in.c, m_in.h, m_in.w, m_in.c, m_out.h, m_out.w, m_ph, m_pw, m_sh, m_sw, m_padTop, m_padLeft};
}

void MaxPool2D::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    int32_t* arg = ctx.training ? reinterpret_cast<int32_t*>(s.cache) : nullptr;
    ctx.kernels->maxPool(geometry(), s.x, s.y, arg, int64_t(m_in.c) * s.n);
}

void MaxPool2D::backward(const PassContext&, int, ShardView& s, float*)
{
    if (!s.dx)
        return;
    const int64_t HW = m_in.plane(), OHW = m_out.plane();
    const int64_t planes = int64_t(m_in.c) * s.n;
    const auto* arg = reinterpret_cast<const int32_t*>(s.cache);
    std::memset(s.dx, 0, sizeof(float) * size_t(planes * HW));
    for (int64_t p = 0; p < planes; ++p)
        for (int64_t j = 0; j < OHW; ++j)
            s.dx[p * HW + arg[p * OHW + j]] += s.dy[p * OHW + j];
}

// ---- The MaxPooling2D kind (layers/layer_type.hpp) ----
namespace {
void parseMaxPool(const LayerArgs& r, LayerSpec& l)
{
    r.pair("pool_size", l.kh, l.kw, 2);
    if (r.has("strides"))
        r.pair("strides", l.sh, l.sw, 1);
    else {
        l.sh = l.kh;
        l.sw = l.kw;
    }
    l.same = r.padding();
}

std::unique_ptr<Layer> buildMaxPool(const LayerBuild& b)
{
    const LayerSpec& ls = b.spec;
    const Shape shape = b.in;
    if (!shape.spatial)
        b.fail("needs an image input (H, W, C) but receives " + shape.keras());
    if (!ls.same && (ls.kh > shape.h || ls.kw > shape.w))
        b.fail("a " + std::to_string(ls.kh) + "x" + std::to_string(ls.kw) + " pool does not fit its input " +
               shape.keras());
    return std::make_unique<MaxPool2D>(b.name, shape, ls.kh, ls.kw, ls.sh, ls.sw, ls.same);
}

uint64_t maxPoolFloats(const LayerSpec& l, Shape& s, int)
{
    int ho = 0, wo = 0, pad = 0;
    kerasPadding(l.same, s.h, l.kh, l.sh, ho, pad);
    kerasPadding(l.same, s.w, l.kw, l.sw, wo, pad);
    s = Shape::image(ho, wo, s.c);
    return 0;
}

void maxPoolOnnx(OnnxLayer& o)
{
    const LayerSpec& ls = o.spec;
    const Shape li = o.layer.inShape();
    const std::string& name = o.layer.name();
    const auto [top, bottom] = kerasPads(ls.same, li.h, ls.kh, ls.sh);
    const auto [left, right] = kerasPads(ls.same, li.w, ls.kw, ls.sw);
    o.graph.node("MaxPool", name, {o.cur}, {name},
                 {OnnxAttr::list("kernel_shape", {ls.kh, ls.kw}), OnnxAttr::list("strides", {ls.sh, ls.sw}),
                  OnnxAttr::list("pads", {top, left, bottom, right})});
    o.cur = name;
}

// MaxPool2d(kernel, stride, padding); Keras "same" pads that are not symmetric take a
// ConstantPad2d(-inf) before it.
void maxPoolTorch(TorchLayer& t)
{
    if (torchNeedsPadModule(t.spec, t.layer.inShape(), false))
        ++t.module; // ConstantPad2d(-inf)
    ++t.module;
}
} // namespace

const LayerType& maxPool2dLayerType()
{
    static const LayerType t{"MaxPooling2D", "max_pooling2d", {"pool_size", "strides", "padding"},
                             parseMaxPool,   buildMaxPool,    maxPoolFloats,
                             maxPoolOnnx,    maxPoolTorch};
    return t;
}

} // namespace tb
