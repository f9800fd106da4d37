// How far each Winograd convolution of the seed models is from the exact convolution, in FP32 and in
// bf16, beside a direct convolution of the same bf16-rounded inputs and kernels summed exactly (the
// error bf16's rounding alone makes: what a direct bf16 product with FP32 accumulation comes near).
// Figures, not a test: docs/benchmarks.md reads them.
//
// usage: trainbench-winograd-error [--samples N]
// Each layer gets the network's own initial kernels (seed 1) and 16 samples of standard normal
// inputs (what a BatchNorm hands on). bf16 runs on this CPU's AVX512_BF16 kernels, else on the
// reference kernels, which give the same bits.
#include "kernels/bf16.hpp"
#include "kernels/isa.hpp"
#include "layers/conv2d.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/train_options.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {
using namespace tb;

// The convolution in double precision over the [C][n][H][W] layout with Keras' padding, of the
// inputs and kernels as given or (rounded) as bfloat16, and the bias (if any) as given.
std::vector<double> directConvolution(const ConvGeometry& g, int n, const float* x, const float* w, const float* bias,
                                      bool rounded)
{
    const auto value = [rounded](float v) { return double(rounded ? roundToBf16(v) : v); };
    const size_t kk = size_t(g.kh) * g.kw;
    std::vector<double> y(size_t(g.cout) * n * g.ho * g.wo, 0.0);
    for (int co = 0; co < g.cout; ++co)
        for (int s = 0; s < n; ++s)
            for (int oy = 0; oy < g.ho; ++oy)
                for (int ox = 0; ox < g.wo; ++ox) {
                    double sum = bias ? bias[co] : 0.0;
                    for (int ci = 0; ci < g.cin; ++ci)
                        for (int ky = 0; ky < g.kh; ++ky) {
                            const int iy = oy * g.sh + ky - g.padTop;
                            if (iy < 0 || iy >= g.h)
                                continue;
                            for (int kx = 0; kx < g.kw; ++kx) {
                                const int ix = ox * g.sw + kx - g.padLeft;
                                if (ix < 0 || ix >= g.w)
                                    continue;
                                sum += value(x[((size_t(ci) * n + s) * g.h + iy) * g.w + ix]) *
                                       value(w[(size_t(co) * g.cin + ci) * kk + size_t(ky) * g.kw + kx]);
                            }
                        }
                    y[((size_t(co) * n + s) * g.ho + oy) * g.wo + ox] = sum;
                }
    return y;
}

// The layer's forward pass (evaluation) on `kernels`.
std::vector<float> forward(Conv2D& conv, const Kernels& kernels, int n, const std::vector<float>& x)
{
    std::vector<float> ws(size_t(conv.workspaceFloats(n))), y(size_t(n) * conv.outShape().size());
    PassContext ctx;
    ctx.training = false;
    ctx.batchSize = n;
    ctx.kernels = &kernels;
    conv.beginPass(kernels, false, kSerialFor);
    ShardView v;
    v.n = n;
    v.x = x.data();
    v.y = y.data();
    conv.forward(ctx, 0, v, ws.data());
    return y;
}

// The root mean square of the difference from `exact`, relative to exact's, and the largest
// difference relative to exact's largest value.
template <class Values> std::pair<double, double> relativeError(const Values& got, const std::vector<double>& exact)
{
    double diff2 = 0.0, exact2 = 0.0, worst = 0.0, scale = 0.0;
    for (size_t i = 0; i < exact.size(); ++i) {
        const double d = double(got[i]) - exact[i];
        diff2 += d * d;
        exact2 += exact[i] * exact[i];
        worst = std::max(worst, std::fabs(d));
        scale = std::max(scale, std::fabs(exact[i]));
    }
    return {std::sqrt(diff2 / exact2), worst / scale};
}
} // namespace

int main(int argc, char** argv)
{
    if (argc != 1 && !(argc == 3 && std::strcmp(argv[1], "--samples") == 0)) {
        std::fprintf(stderr, "usage: trainbench-winograd-error [--samples N]\n");
        return 2;
    }
    int n = 16;
    try {
        if (argc == 3)
            n = int(parseWholeOption("samples", argv[2], 1, 1024));
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "trainbench-winograd-error: %s\n", e.what());
        return 2;
    }
    try {
        const Isa isa = defaultIsa();
        const bool fast = precisionUnavailableReason(Precision::Bf16, isa).empty();
        const Kernels& fp32 = kernelsFor(isa);
        const Kernels& bf16 = fast ? kernelsFor(isa, Precision::Bf16) : bf16ReferenceKernels(isa);
        std::printf("FP32 kernels: %s; bf16: %s\n\n", isaName(isa), fast ? "AVX512_BF16" : "the reference kernels");
        std::printf("| model | layer | input | kernel | variant | FP32 rms | FP32 max | bf16 rms | bf16 max | "
                    "direct bf16 rms | direct bf16 max | bf16 / direct (rms) |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (const char* model : {"tpu-mnist-cnn", "colab-fashion-cnn"}) {
            Network net(loadModelSpec(model), Shape::image(28, 28, 1), 10);
            net.initialize(1);
            for (int l = 0; l < net.layerCount(); ++l) {
                const auto* layer = dynamic_cast<const Conv2D*>(&net.layer(l));
                if (!layer || !layer->usesWinograd())
                    continue;
                // The same convolution without its activation (colab-fashion-cnn's ELU), on the
                // network's kernels and bias: [cout][cin][kh][kw], then cout biases if any.
                const ConvGeometry& g = layer->geometry();
                Conv2D linear(layer->name(), layer->inShape(), g.cout, g.kh, g.kw, g.sh, g.sw, true, layer->hasBias(),
                              Activation::Linear);
                float* w = net.params().data() + net.paramOffset(l);
                linear.bind(w, nullptr, nullptr);
                const float* bias = layer->hasBias() ? w + int64_t(g.cout) * g.k() : nullptr;
                std::mt19937 rng{uint32_t(l)};
                std::normal_distribution<float> normal(0.0f, 1.0f);
                std::vector<float> x(size_t(n) * linear.inShape().size());
                for (float& v : x)
                    v = normal(rng);
                const std::vector<double> exact = directConvolution(g, n, x.data(), w, bias, false);
                const auto [fr, fm] = relativeError(forward(linear, fp32, n, x), exact);
                const auto [br, bm] = relativeError(forward(linear, bf16, n, x), exact);
                const auto [dr, dm] = relativeError(directConvolution(g, n, x.data(), w, bias, true), exact);
                // The variant of each precision, where they differ (F(7x7, 3x3) is FP32's alone).
                const winograd::Kind kind = layer->winogradKind(), kindBf16 = layer->winogradKind(Precision::Bf16);
                const std::string variant =
                    std::string(winograd::kindName(kind)) +
                    (kindBf16 != kind ? std::string(" (bf16: ") + winograd::kindName(kindBf16) + ")" : "") +
                    (layer->winogradFold() == 2 ? ", folded" : "");
                std::printf("| %s | %s | %dx%dx%d | %dx%d/%d, %d filters | %s | %.1e | %.1e | %.1e | %.1e | %.1e | "
                            "%.1e | %.1f |\n",
                            model, linear.name().c_str(), g.h, g.w, g.cin, g.kh, g.kw, g.sh, g.cout, variant.c_str(),
                            fr, fm, br, bm, dr, dm, br / dr);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainbench-winograd-error: %s\n", e.what());
        return 1;
    }
    return 0;
}
