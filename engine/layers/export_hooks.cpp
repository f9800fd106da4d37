#include "layers/export_hooks.hpp"

#include "core/errors.hpp"
#include "kernels/conv_geometry.hpp"

#include <algorithm>
#include <numeric>

namespace tb {

std::pair<int64_t, int64_t> kerasPads(bool same, int in, int kernel, int stride)
{
    int out = 0, before = 0;
    kerasPadding(same, in, kernel, stride, out, before);
    const int after = std::max(0, (out - 1) * stride + kernel - in - before);
    return {before, same ? after : 0};
}

bool torchNeedsPadModule(const LayerSpec& spec, Shape in, bool stride1Only)
{
    const auto [top, bottom] = kerasPads(spec.same, in.h, spec.kh, spec.sh);
    const auto [left, right] = kerasPads(spec.same, in.w, spec.kw, spec.sw);
    if (top + bottom + left + right == 0)
        return false;
    const bool symmetric = top == bottom && left == right;
    return !symmetric || (stride1Only && (spec.sh != 1 || spec.sw != 1));
}

void OnnxLayer::batchMajor()
{
    if (!timeMajor)
        return;
    const std::string to = layer.name() + "/batch_major";
    graph.node("Transpose", to, {cur}, {to}, {OnnxAttr::list("perm", {1, 0, 2})});
    cur = to;
    timeMajor = false;
}

void TorchLayer::refuseText(const std::string& why) const
{
    throw ModelError("layer " + layer.name() + " (" + spec.kerasClass + "): " + why +
                     "; the PyTorch layout of a text model is Embedding, one stacked nn.LSTM, Linear");
}

std::vector<int64_t> indexRange(int64_t first, int64_t n)
{
    std::vector<int64_t> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), first);
    return v;
}

} // namespace tb
