// Every layer: forward values against hand-computed tiny cases, and a numerical gradient check of
// backward (input and parameter gradients); the fused softmax cross-entropy too.
#include "fixtures.hpp"
#include "layers/activation.hpp"
#include "layers/batch_norm.hpp"
#include "layers/conv2d.hpp"
#include "layers/dense.hpp"
#include "layers/dropout.hpp"
#include "layers/embedding.hpp"
#include "layers/lstm.hpp"
#include "layers/max_pool.hpp"
#include "layers/reshape.hpp"
#include "layers/time_dense.hpp"
#include "train/loss.hpp"

#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>

using namespace tb;

namespace {
// Runs one layer on a single shard of n samples, phases and reductions included.
struct Harness {
    Layer& layer;
    int n;
    std::vector<float> params, state, globalGrad, shardGrad, cache, ws, y, dx;
    std::vector<double> partial;
    PassContext ctx;
    const kernel::ChannelAffine* yAffine = nullptr; // ShardView::yAffine
    // ShardView::next (absorb): its cache, and the layer's own dy, which backward makes from the
    // next layer's (the dy passed to backward).
    const Layer* next = nullptr;
    std::vector<float> nextCache, ownDy;

    Harness(Layer& l, int samples, bool training = true) : layer(l), n(samples)
    {
        params.assign(size_t(l.paramCount()), 0.0f);
        state.assign(size_t(l.stateCount()), 0.0f);
        Rng init(7);
        l.initParams(params.data(), state.data(), init);
        globalGrad.assign(params.size(), 0.0f);
        shardGrad.assign(params.size(), 0.0f);
        cache.assign(size_t(std::max<int64_t>(1, l.cacheFloats(n))), 0.0f);
        ws.assign(size_t(std::max<int64_t>(1, l.workspaceFloats(n))), 0.0f);
        partial.assign(size_t(std::max<int64_t>(1, l.partialDoubles())), 0.0);
        y.assign(size_t(n * l.outShape().size()), 0.0f);
        dx.assign(size_t(n * l.inShape().size()), 0.0f);
        ctx.training = training;
        ctx.batchSize = n;
        ctx.dropoutKey = 99;
        l.bind(params.data(), state.data(), globalGrad.data());
    }
    ShardView view(const std::vector<float>& x, std::vector<float>* dy)
    {
        ShardView v;
        v.n = n;
        v.x = x.data();
        v.y = y.data();
        v.dy = dy ? dy->data() : nullptr;
        v.dx = dx.data();
        v.cache = cache.data();
        v.grad = shardGrad.data();
        v.partial = partial.data();
        v.yAffine = yAffine;
        if (next) {
            v.next = next;
            v.nextCache = nextCache.data();
            v.nextDy = v.dy;
            v.dy = ownDy.data();
        }
        return v;
    }
    void absorb(const Layer& l)
    {
        QVERIFY(layer.absorbs(l));
        next = &l;
        nextCache.assign(size_t(std::max<int64_t>(1, l.cacheFloats(n))), 0.0f);
        ws.resize(ws.size() + size_t(layer.absorbingWorkspaceFloats(n)));
        ownDy.assign(size_t(n * layer.outShape().size()), 0.0f);
    }
    const std::vector<float>& forward(const std::vector<float>& x)
    {
        ShardView v = view(x, nullptr);
        layer.beginPass(*ctx.kernels, ctx.training, kSerialFor);
        for (int ph = 0; ph < layer.phases(ctx.training); ++ph) {
            layer.forward(ctx, ph, v, ws.data());
            layer.reduceForward(ctx, ph, std::span<ShardView>(&v, 1));
        }
        if (ctx.training)
            for (int t = 0; t < layer.batchForwardTasks(); ++t)
                layer.batchForward(ctx, std::span<ShardView>(&v, 1), t);
        return y;
    }
    // Backward from dy; returns the total parameter gradient.
    std::vector<float> backward(const std::vector<float>& x, std::vector<float> dy)
    {
        std::fill(globalGrad.begin(), globalGrad.end(), 0.0f);
        std::fill(shardGrad.begin(), shardGrad.end(), 0.0f);
        ShardView v = view(x, &dy);
        layer.beginBackward(*ctx.kernels, kSerialFor);
        for (int ph = 0; ph < layer.phases(true); ++ph) {
            layer.backward(ctx, ph, v, ws.data());
            layer.reduceBackward(ctx, ph, std::span<ShardView>(&v, 1));
        }
        const std::span<const ShardView> shards(&v, 1);
        for (int t = 0; t < layer.batchBackwardTasks(shards); ++t)
            layer.batchBackward(ctx, shards, t);
        std::vector<float> g(params.size());
        for (size_t i = 0; i < g.size(); ++i)
            g[i] = globalGrad[i] + shardGrad[i];
        return g;
    }
};

std::vector<float> randomVector(size_t n, uint64_t seed, float scale = 1.0f)
{
    Rng r(seed);
    std::vector<float> v(n);
    for (auto& x : v)
        x = scale * (2.0f * r.uniform() - 1.0f);
    return v;
}

// Forward's chunks of samples change no bit (each output of the products is computed alone): each
// sample's forward alone gives the batch's outputs. x and y are the batch's [C][n][H][W]; leaves the
// layer bound to a harness of its own.
bool samplesAloneMatchTheBatch(Conv2D& conv, std::vector<float> params, const std::vector<float>& x,
                               const std::vector<float>& y, int n)
{
    const Shape in = conv.inShape(), out = conv.outShape();
    const int64_t inPlane = int64_t(in.h) * in.w, outPlane = int64_t(out.h) * out.w;
    for (int s = 0; s < n; ++s) {
        Harness h1(conv, 1);
        h1.params = params;
        conv.bind(h1.params.data(), h1.state.data(), h1.globalGrad.data());
        std::vector<float> xs(size_t(inPlane * in.c));
        for (int ci = 0; ci < in.c; ++ci)
            std::copy_n(x.begin() + (int64_t(ci) * n + s) * inPlane, inPlane, xs.begin() + ci * inPlane);
        const std::vector<float> ys = h1.forward(xs);
        for (int co = 0; co < out.c; ++co)
            if (std::memcmp(ys.data() + co * outPlane, y.data() + (int64_t(co) * n + s) * outPlane,
                            size_t(outPlane) * sizeof(float)) != 0)
                return false;
    }
    return true;
}

double dot(const std::vector<float>& a, const std::vector<float>& b)
{
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * b[i];
    return s;
}

bool close(double num, double ana, double tol)
{
    return std::fabs(num - ana) <= tol * std::max(1.0, std::fabs(ana));
}

// L = sum(y * r). Compares backward's dx and dparams with central differences.
void gradientCheck(Layer& layer, int n, uint64_t seed, double tol = 2e-2, float eps = 1e-2f)
{
    Harness h(layer, n);
    h.params = randomVector(h.params.size(), seed + 1, 0.5f);
    for (auto& p : h.params)
        p += 0.5f; // keeps BN's gamma away from 0
    layer.bind(h.params.data(), h.state.data(), h.globalGrad.data());
    std::vector<float> x = randomVector(size_t(n * layer.inShape().size()), seed + 2, 2.0f);
    const std::vector<float> r = randomVector(size_t(n * layer.outShape().size()), seed + 3);
    auto loss = [&] { return dot(h.forward(x), r); };
    loss();
    const std::vector<float> dparams = h.backward(x, r);
    const std::vector<float> dx = h.dx;
    int checked = 0;
    for (size_t i = 0; i < x.size(); i += std::max<size_t>(1, x.size() / 40)) {
        const float keep = x[i];
        x[i] = keep + eps;
        const double lp = loss();
        x[i] = keep - eps;
        const double lm = loss();
        x[i] = keep;
        const double num = (lp - lm) / (2 * eps);
        QVERIFY2(close(num, dx[i], tol), qPrintable(QString("%1 dx[%2]: numerical %3 vs backward %4")
                                                        .arg(QString::fromStdString(layer.name()))
                                                        .arg(i)
                                                        .arg(num)
                                                        .arg(dx[i])));
        ++checked;
    }
    for (size_t i = 0; i < h.params.size(); i += std::max<size_t>(1, h.params.size() / 40)) {
        const float keep = h.params[i];
        h.params[i] = keep + eps;
        const double lp = loss();
        h.params[i] = keep - eps;
        const double lm = loss();
        h.params[i] = keep;
        const double num = (lp - lm) / (2 * eps);
        QVERIFY2(close(num, dparams[i], tol), qPrintable(QString("%1 dparam[%2]: numerical %3 vs backward %4")
                                                             .arg(QString::fromStdString(layer.name()))
                                                             .arg(i)
                                                             .arg(num)
                                                             .arg(dparams[i])));
        ++checked;
    }
    QVERIFY(checked > 0);
}
} // namespace

class TstLayers : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        const std::string why = fixtures::isaUnavailable();
        if (!why.empty())
            QSKIP(why.c_str());
        qInfo("kernels: %s", tb::describeKernels(tb::defaultKernels()).c_str());
    }

    void convValidForward()
    {
        Conv2D conv("c", Shape::image(3, 3, 1), 1, 2, 2, 1, 1, false, true, Activation::Linear);
        Harness h(conv, 1);
        h.params = {1, 0, 0, 1, 0.5f}; // w00 = w11 = 1, bias 0.5
        conv.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const auto& y = h.forward({1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(conv.outShape(), Shape::image(2, 2, 1));
        QCOMPARE(y, (std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f}));
    }

    void convSamePaddingAsKeras()
    {
        // 2x2 kernel, "same": Keras pads 0 before and 1 after.
        Conv2D conv("c", Shape::image(3, 3, 1), 1, 2, 2, 1, 1, true, false, Activation::Linear);
        Harness h(conv, 1);
        h.params = {1, 0, 0, 1};
        conv.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const auto& y = h.forward({1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(y, (std::vector<float>{6, 8, 3, 12, 14, 6, 7, 8, 9}));
        // 6x6 stride 2 on 28: out 14, padding 2 before (the TPU model's second conv).
        int out, pad;
        kerasPadding(true, 28, 6, 2, out, pad);
        QCOMPARE(out, 14);
        QCOMPARE(pad, 2);
        kerasPadding(true, 7, 2, 2, out, pad);
        QCOMPARE(out, 4);
        QCOMPARE(pad, 0);
        kerasPadding(false, 7, 2, 2, out, pad);
        QCOMPARE(out, 3);
    }

    void winogradMatchesTheDirectConvolution_data()
    {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("cout");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("kind");     // winograd::Kind, as Conv2D picks it for FP32 products
        QTest::addColumn<int>("kindBf16"); // and for bf16 ones (no F(7x7, 3x3))
        const int f45 = int(winograd::Kind::F4x4_5x5), f43 = int(winograd::Kind::F4x4_3x3),
                  f53 = int(winograd::Kind::F5x5_3x3), f73 = int(winograd::Kind::F7x7_3x3);
        QTest::newRow("5x5, 14x14, one chunk") << 5 << 1 << 14 << 14 << 16 << 32 << 3 << f45 << f45;
        QTest::newRow("5x5, 7x9, odd edges") << 5 << 1 << 7 << 9 << 16 << 32 << 2 << f45 << f45;
        QTest::newRow("5x5, 5x5, two chunks") << 5 << 1 << 5 << 5 << 16 << 32 << 18 << f45 << f45;
        QTest::newRow("5x5, 8 channels") << 5 << 1 << 6 << 6 << 8 << 24 << 2 << f45 << f45;
        // dW's products and transform by blocks of output channels (Conv2D::gradientBlockRows): 12,
        // 12, 12 and 4 here; the tpu conv2d_2 fold row below takes blocks of 12 (F(7x7, 3x3), FP32).
        QTest::newRow("5x5, 7x7, 64 -> 40, dW in blocks") << 5 << 1 << 7 << 7 << 64 << 40 << 2 << f45 << f45;
        // 14x14: 4 tiles of 81 elements (324 products a channel pair) instead of 9 of 49 (441) or 16
        // of 36 (576).
        QTest::newRow("3x3, 14x14") << 3 << 1 << 14 << 14 << 16 << 24 << 3 << f73 << f53;
        // 12x12: 9 tiles of 36 or 4 of 81 (324 either way): the smaller tile.
        QTest::newRow("3x3, 12x12") << 3 << 1 << 12 << 12 << 16 << 24 << 2 << f43 << f43;
        QTest::newRow("3x3, 7x5, two chunks") << 3 << 1 << 7 << 5 << 8 << 16 << 17 << f73 << f53;
        QTest::newRow("3x3, 8x12, 8 channels") << 3 << 1 << 8 << 12 << 8 << 8 << 2 << f43 << f43;
        QTest::newRow("6x6 stride 2, 28x28 (tpu conv2d_1)") << 6 << 2 << 28 << 28 << 12 << 24 << 2 << f73 << f53;
        QTest::newRow("6x6 stride 2, 14x14 (tpu conv2d_2)") << 6 << 2 << 14 << 14 << 24 << 64 << 3 << f73 << f43;
        QTest::newRow("6x6 stride 2, 10x6, two chunks") << 6 << 2 << 10 << 6 << 2 << 8 << 17 << f53 << f53;
    }
    void winogradMatchesTheDirectConvolution()
    {
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, cin);
        QFETCH(int, cout);
        QFETCH(int, n);
        QFETCH(int, kind);
        QFETCH(int, kindBf16);
        Conv2D conv("wino", Shape::image(h, w, cin), cout, kernel, kernel, stride, stride, true, true,
                    Activation::Linear);
        QVERIFY(conv.usesWinograd());
        QCOMPARE(conv.winogradFold(), stride);
        QCOMPARE(int(conv.winogradKind()), kind);
        QCOMPARE(int(conv.winogradKind(Precision::Bf16)), kindBf16);
        const ConvGeometry& g = conv.geometry();
        Harness hs(conv, n);
        hs.params = randomVector(hs.params.size(), 3, 0.5f);
        conv.bind(hs.params.data(), hs.state.data(), hs.globalGrad.data());
        const std::vector<float> x = randomVector(size_t(n) * h * w * cin, 4, 2.0f);
        const std::vector<float> y = hs.forward(x);
        // The direct convolution in double precision, [C][n][H][W] layout, Keras padding:
        // forEachTap calls fn(out, at, tap) for every output element, input element it reads and
        // kernel tap joining them.
        const size_t kk = size_t(kernel) * kernel, kernelFloats = size_t(cout) * cin * kk;
        const size_t perChannel = size_t(n) * g.ho * g.wo;
        auto forEachTap = [&](auto&& fn) {
            for (int co = 0; co < cout; ++co)
                for (int s = 0; s < n; ++s)
                    for (int oy = 0; oy < g.ho; ++oy)
                        for (int ox = 0; ox < g.wo; ++ox) {
                            const size_t out = ((size_t(co) * n + s) * g.ho + oy) * g.wo + ox;
                            for (int ci = 0; ci < cin; ++ci)
                                for (int ky = 0; ky < kernel; ++ky)
                                    for (int kx = 0; kx < kernel; ++kx) {
                                        const int iy = oy * stride + ky - g.padTop, ix = ox * stride + kx - g.padLeft;
                                        if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                                            continue;
                                        fn(out, ((size_t(ci) * n + s) * h + iy) * w + ix,
                                           (size_t(co) * cin + ci) * kk + size_t(ky) * kernel + kx);
                                    }
                        }
        };
        std::vector<double> direct(y.size());
        for (size_t out = 0; out < y.size(); ++out)
            direct[out] = hs.params[kernelFloats + out / perChannel]; // the bias
        forEachTap([&](size_t out, size_t at, size_t tap) { direct[out] += double(hs.params[tap]) * x[at]; });
        double worst = 0, scale = 0;
        for (size_t out = 0; out < y.size(); ++out) {
            worst = std::max(worst, std::fabs(y[out] - direct[out]));
            scale = std::max(scale, std::fabs(direct[out]));
        }
        qInfo("Winograd %s vs direct (double): max abs error %.3g, largest output %.3g (relative %.3g)",
              winograd::kindName(conv.winogradKind()), worst, scale, worst / scale);
        // F(7x7, 3x3)'s points are farther apart: its largest error here is 1.3e-4 of the largest
        // output (tpu-mnist-cnn's third convolution, 96 folded channels), 30x the others' largest.
        const bool wide = kind == int(winograd::Kind::F7x7_3x3);
        const double bound = wide ? 2e-4 : 1e-5;
        // Backward's, dX and dW: up to 7.5e-5 seen with F(7x7, 3x3), 9e-6 with the others.
        const double backwardBound = wide ? 2e-4 : 3e-5;
        QVERIFY(worst <= bound * scale);
        QVERIFY(samplesAloneMatchTheBatch(conv, hs.params, x, y, n));
        conv.bind(hs.params.data(), hs.state.data(), hs.globalGrad.data());
        // Backward: dX, dW and the bias gradient against the direct convolution's, in double
        // precision, at every level (the baseline has no FMA). dW sums over every tile of the batch,
        // so its error is larger than the forward's (up to about 9e-6 at avx512).
        const std::vector<float> dy = randomVector(y.size(), 5, 1.0f);
        std::vector<double> dW(kernelFloats + size_t(cout), 0.0), dX(x.size(), 0.0);
        for (size_t out = 0; out < y.size(); ++out)
            dW[kernelFloats + out / perChannel] += dy[out];
        forEachTap([&](size_t out, size_t at, size_t tap) {
            dW[tap] += double(dy[out]) * x[at];
            dX[at] += double(dy[out]) * hs.params[tap];
        });
        auto relativeError = [](const std::vector<float>& got, const std::vector<double>& want) {
            double err = 0, big = 0;
            for (size_t i = 0; i < want.size(); ++i) {
                err = std::max(err, std::fabs(got[i] - want[i]));
                big = std::max(big, std::fabs(want[i]));
            }
            return err / big;
        };
        for (Isa isa : supportedIsas()) {
            Harness hb(conv, n);
            hb.ctx.kernels = &kernelsFor(isa);
            hb.params = hs.params;
            conv.bind(hb.params.data(), hb.state.data(), hb.globalGrad.data());
            hb.forward(x);
            const std::vector<float> dp = hb.backward(x, dy);
            const double dwError = relativeError(dp, dW), dxError = relativeError(hb.dx, dX);
            qInfo("  backward at %s: dW (with the bias) relative error %.3g, dX %.3g", isaName(isa), dwError, dxError);
            QVERIFY(dwError <= backwardBound);
            QVERIFY(dxError <= backwardBound);
        }
        conv.bind(hs.params.data(), hs.state.data(), hs.globalGrad.data());
        // The bias and the activation are applied as the tiles are written: the same bits as applying
        // the activation to the linear layer's output afterwards, with and without a bias (the kernel
        // comes first in the parameters, so the layer without one takes a prefix of them).
        for (bool bias : {true, false}) {
            Conv2D linear("wino_lin", Shape::image(h, w, cin), cout, kernel, kernel, stride, stride, true, bias,
                          Activation::Linear);
            Harness hl(linear, n);
            hl.params.assign(hs.params.begin(), hs.params.begin() + std::ptrdiff_t(hl.params.size()));
            linear.bind(hl.params.data(), hl.state.data(), hl.globalGrad.data());
            const std::vector<float> linearY = hl.forward(x);
            for (Activation act : {Activation::ReLU, Activation::ELU}) {
                Conv2D activated("wino_act", Shape::image(h, w, cin), cout, kernel, kernel, stride, stride, true, bias,
                                 act);
                Harness ha(activated, n);
                ha.params = hl.params;
                activated.bind(ha.params.data(), ha.state.data(), ha.globalGrad.data());
                std::vector<float> expected = linearY;
                ha.ctx.kernels->activate(act, expected.data(), int64_t(expected.size()));
                QVERIFY(std::memcmp(ha.forward(x).data(), expected.data(), expected.size() * sizeof(float)) == 0);
            }
        }
        // The layer is linear, so a wide step is exact but for rounding, which a narrow one lets
        // dominate here: one input feeds every output channel of its tiles, and the baseline
        // (no FMA) rounds each of those sums a little differently at x + eps and x - eps; F(7x7, 3x3)'s
        // rounding, larger, takes a step 4x as wide.
        gradientCheck(conv, n, 5, 2e-2, wide ? 1.0f : 0.25f);
    }

    // The im2col path chunks its forward by what fits in cache (colab-fashion-cnn's first
    // convolution: 3 samples of 16), with the bias and the activation per chunk: the same bits as
    // one sample at a time.
    // im2col's columns, cols[(ci, ky, kx)][(s, oy, ox)] = the input pixel under tap (ky, kx) or zero
    // outside the image, against the definition: "same" stride 1 (copied as whole shifted planes),
    // kernels as wide as the image or wider, even kernels, stride 2 and "valid", chunks of samples.
    void im2colMatchesItsDefinition_data()
    {
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("same");
        QTest::newRow("3x3 same, 28x28") << 28 << 28 << 3 << 1 << true;
        QTest::newRow("5x5 same, 9x7") << 9 << 7 << 5 << 1 << true;
        QTest::newRow("2x2 same, 5x4") << 5 << 4 << 2 << 1 << true;
        QTest::newRow("7x7 same, 2x3") << 2 << 3 << 7 << 1 << true;
        QTest::newRow("3x3 same, 1x1") << 1 << 1 << 3 << 1 << true;
        QTest::newRow("3x3 valid, 6x5") << 6 << 5 << 3 << 1 << false;
        QTest::newRow("3x3 same stride 2, 7x8") << 7 << 8 << 3 << 2 << true;
    }
    void im2colMatchesItsDefinition()
    {
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(bool, same);
        const int n = 5, cin = 2, s0 = 1, cn = 3;
        const Conv2D conv("c", Shape::image(h, w, cin), 4, kernel, kernel, stride, stride, same, false,
                          Activation::Linear);
        const ConvGeometry& g = conv.geometry();
        const std::vector<float> x = randomVector(size_t(n) * cin * h * w, 80, 1.0f);
        const int64_t ohw = int64_t(g.ho) * g.wo, rowLen = cn * ohw;
        std::vector<float> cols(size_t(cin * kernel * kernel * rowLen), -1.0f);
        defaultKernels().im2col(g, x.data(), n, s0, cn, cols.data());
        int wrong = 0;
        for (int ci = 0; ci < cin; ++ci)
            for (int ky = 0; ky < kernel; ++ky)
                for (int kx = 0; kx < kernel; ++kx)
                    for (int s = 0; s < cn; ++s)
                        for (int oy = 0; oy < g.ho; ++oy)
                            for (int ox = 0; ox < g.wo; ++ox) {
                                const int iy = oy * stride + ky - g.padTop, ix = ox * stride + kx - g.padLeft;
                                const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
                                const float want =
                                    inside ? x[size_t(((int64_t(ci) * n + s0 + s) * h + iy) * w + ix)] : 0.0f;
                                const int64_t k = (int64_t(ci) * kernel + ky) * kernel + kx;
                                wrong += cols[size_t(k * rowLen + s * ohw + oy * g.wo + ox)] != want;
                            }
        QCOMPARE(wrong, 0);
    }

    // Kernels::convDirect (a thin input's convolution straight from the images) against im2col and
    // gemm, to the bit, at every level that has it: images narrower than a vector of pixels, wider
    // than a row of them, kernels wider than the image, padding after only (even kernels), several
    // blocks of output channels, signed zeros in the input and the weights.
    void convDirectGivesImToColsBits_data()
    {
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("cout");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<int>("act");
        QTest::newRow("tpu-mnist-cnn's first, 28x28, 1 -> 12, 3x3") << 28 << 28 << 1 << 12 << 3 << false << 0;
        QTest::newRow("28x28, 1 -> 64, 5x5, ELU") << 28 << 28 << 1 << 64 << 5 << true << 2;
        QTest::newRow("9x7, 3 -> 13, 2x2, ReLU") << 9 << 7 << 3 << 13 << 2 << true << 1;
        QTest::newRow("33x17, 1 -> 24, 3x3") << 33 << 17 << 1 << 24 << 3 << true << 0;
        QTest::newRow("2x3, 1 -> 5, 7x7") << 2 << 3 << 1 << 5 << 7 << false << 0;
        QTest::newRow("1x1, 2 -> 3, 3x3") << 1 << 1 << 2 << 3 << 3 << true << 1;
    }
    void convDirectGivesImToColsBits()
    {
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, cin);
        QFETCH(int, cout);
        QFETCH(int, kernel);
        QFETCH(bool, bias);
        QFETCH(int, act);
        const int n = 5;
        Conv2D conv("direct", Shape::image(h, w, cin), cout, kernel, kernel, 1, 1, true, bias, Activation(act));
        QVERIFY(!conv.usesWinograd());
        QVERIFY(kernel::convDirectApplies(conv.geometry()));
        std::vector<float> x = randomVector(size_t(n) * cin * h * w, 31, 2.0f);
        for (size_t i = 0; i < x.size(); i += 7)
            x[i] = i % 2 ? -0.0f : 0.0f;
        int levels = 0;
        for (Isa isa : supportedIsas()) {
            const Kernels& table = kernelsFor(isa);
            if (!table.convDirect)
                continue;
            ++levels;
            Kernels columns = table;
            columns.convDirect = nullptr;
            std::vector<float> got, want;
            for (const Kernels* k : {&table, static_cast<const Kernels*>(&columns)}) {
                Harness hs(conv, n, false);
                hs.params = randomVector(hs.params.size(), 32, 0.5f);
                for (size_t i = 0; i < hs.params.size(); i += 5)
                    hs.params[i] = -0.0f;
                conv.bind(hs.params.data(), hs.state.data(), hs.globalGrad.data());
                hs.ctx.kernels = k;
                (k == &table ? got : want) = hs.forward(x);
            }
            QVERIFY2(std::memcmp(got.data(), want.data(), sizeof(float) * got.size()) == 0, isaName(isa));
        }
        if (levels == 0)
            QSKIP("no level here has convDirect (the baseline's gemm is Eigen's)");
    }

    void convForwardChunksChangeNoBit()
    {
        const int n = 16;
        Conv2D conv("first", Shape::image(28, 28, 1), 64, 5, 5, 1, 1, true, true, Activation::ELU);
        QVERIFY(!conv.usesWinograd());
        Harness h(conv, n, false);
        h.params = randomVector(h.params.size(), 8, 0.5f);
        conv.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const std::vector<float> x = randomVector(size_t(n) * 28 * 28, 9, 2.0f);
        const std::vector<float> y = h.forward(x);
        QVERIFY(samplesAloneMatchTheBatch(conv, h.params, x, y, n));
    }

    void winogradOnlyWhereItApplies()
    {
        // Odd image with a 6x6 stride-2 kernel, channels not multiples of 8, 3x3 stride 2: im2col.
        QVERIFY(!Conv2D("a", Shape::image(7, 7, 12), 24, 6, 6, 2, 2, true, false, Activation::Linear).usesWinograd());
        QVERIFY(!Conv2D("b", Shape::image(8, 8, 12), 24, 3, 3, 1, 1, true, false, Activation::Linear).usesWinograd());
        QVERIFY(!Conv2D("c", Shape::image(8, 8, 16), 20, 5, 5, 1, 1, true, false, Activation::Linear).usesWinograd());
        QVERIFY(!Conv2D("d", Shape::image(8, 8, 16), 16, 3, 3, 2, 2, true, false, Activation::Linear).usesWinograd());
        QVERIFY(!Conv2D("e", Shape::image(8, 8, 16), 16, 3, 3, 1, 1, false, false, Activation::Linear).usesWinograd());
        QVERIFY(!Conv2D("f", Shape::image(28, 28, 1), 12, 3, 3, 1, 1, true, false, Activation::Linear).usesWinograd());
    }

    void convMultiChannelStride2Gradient()
    {
        Conv2D conv("conv_s2", Shape::image(5, 6, 2), 3, 3, 2, 2, 2, true, true, Activation::ELU);
        gradientCheck(conv, 3, 10);
        Conv2D valid("conv_valid", Shape::image(5, 5, 3), 2, 3, 3, 1, 1, false, true, Activation::ReLU);
        gradientCheck(valid, 2, 20);
        Conv2D nobias("conv_nobias", Shape::image(4, 4, 2), 2, 1, 1, 1, 1, false, false, Activation::Linear);
        gradientCheck(nobias, 2, 30);
    }

    // A convolution applies the inference BatchNorm after it (ShardView::yAffine) with the
    // BatchNorm's own arithmetic: the two layers' output to the bit. im2col; Winograd in the
    // output's register transpose, and on the staged rows of an image narrower than 8 pixels; 5x5;
    // 6x6 stride 2 (folded). With and without the fused ReLU, and an activation of the convolution's
    // own before it.
    void convFoldsAnInferenceBatchNorm_data()
    {
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("winograd");
        QTest::addColumn<bool>("relu");
        for (bool relu : {true, false}) {
            const char* r = relu ? ", relu" : "";
            QTest::addRow("im2col%s", r) << 12 << 1 << 3 << 1 << false << relu;
            QTest::addRow("winograd 3x3%s", r) << 12 << 8 << 3 << 1 << true << relu;
            QTest::addRow("winograd 3x3, 4x4 image%s", r) << 4 << 8 << 3 << 1 << true << relu;
            QTest::addRow("winograd 5x5%s", r) << 10 << 8 << 5 << 1 << true << relu;
            QTest::addRow("winograd 6x6 stride 2%s", r) << 12 << 4 << 6 << 2 << true << relu;
        }
    }
    void convFoldsAnInferenceBatchNorm()
    {
        QFETCH(int, side);
        QFETCH(int, cin);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(bool, winograd);
        QFETCH(bool, relu);
        const int n = 5, filters = 16;
        Conv2D conv("conv", Shape::image(side, side, cin), filters, kernel, kernel, stride, stride, true, true,
                    Activation::ELU);
        QCOMPARE(conv.usesWinograd(), winograd);
        BatchNorm bn("bn", conv.outShape(), true, true, 0.99f, 1e-3f);
        if (relu)
            bn.fuseRelu();
        Harness hc(conv, n, false), hb(bn, n, false);
        hc.params = randomVector(hc.params.size(), 70, 0.4f);
        conv.bind(hc.params.data(), hc.state.data(), hc.globalGrad.data());
        hb.params = randomVector(hb.params.size(), 71, 1.5f); // gamma, beta
        hb.state = randomVector(hb.state.size(), 72, 0.5f);   // moving mean, then variance
        for (int c = filters; c < 2 * filters; ++c)
            hb.state[size_t(c)] += 1.0f;
        bn.bind(hb.params.data(), hb.state.data(), hb.globalGrad.data());
        const std::vector<float> x = randomVector(size_t(n * conv.inShape().size()), 73, 2.0f);
        const std::vector<float> apart = hb.forward(std::vector<float>(hc.forward(x)));
        QVERIFY(apart != hc.y);
        hc.yAffine = bn.inferenceAffine();
        QVERIFY(hc.yAffine);
        const std::vector<float>& folded = hc.forward(x);
        QCOMPARE(folded.size(), apart.size());
        QVERIFY(std::memcmp(folded.data(), apart.data(), apart.size() * sizeof(float)) == 0);
        if (relu)
            QVERIFY(std::count(folded.begin(), folded.end(), 0.0f) > 0); // the ReLU cut something
    }

    void convAbsorbsAPoolingBitForBit_data()
    {
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("pool");
        QTest::addColumn<bool>("samePool");
        QTest::addColumn<bool>("winograd");
        QTest::addColumn<int>("act");
        const Activation acts[] = {Activation::ELU, Activation::ReLU, Activation::Linear};
        for (int a = 0; a < 3; ++a) {
            const char* name = activationName(acts[a]);
            QTest::addRow("im2col 5x5, pool 2, %s", name) << 12 << 1 << 5 << 1 << 2 << false << false << a;
            QTest::addRow("winograd 5x5, pool 2, %s", name) << 10 << 8 << 5 << 1 << 2 << false << true << a;
            QTest::addRow("winograd 5x5, 7x7 image, pool 2, %s", name) << 7 << 8 << 5 << 1 << 2 << false << true << a;
            QTest::addRow("winograd 3x3, pool 3 same, %s", name) << 11 << 16 << 3 << 1 << 3 << true << true << a;
            QTest::addRow("winograd 6x6 stride 2, pool 2, %s", name) << 12 << 4 << 6 << 2 << 2 << false << true << a;
        }
    }
    // A convolution running the max-pooling after it (Layer::absorbs, as the executor runs it) gives
    // the bits of the two layers apart: the pooled outputs, the argmax, dx and the gradient.
    void convAbsorbsAPoolingBitForBit()
    {
        QFETCH(int, side);
        QFETCH(int, cin);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, pool);
        QFETCH(bool, samePool);
        QFETCH(bool, winograd);
        QFETCH(int, act);
        const Activation activation = std::array{Activation::ELU, Activation::ReLU, Activation::Linear}[size_t(act)];
        const int n = 5, filters = 16;
        auto make = [&] {
            return Conv2D("conv", Shape::image(side, side, cin), filters, kernel, kernel, stride, stride, true, true,
                          activation);
        };
        Conv2D apart = make(), fused = make();
        QCOMPARE(apart.usesWinograd(), winograd);
        MaxPool2D maxPool("pool", apart.outShape(), pool, pool, pool, pool, samePool);
        QVERIFY(!apart.absorbs(MaxPool2D("overlapping", apart.outShape(), 3, 3, 2, 2, false)));
        Harness ha(apart, n), hp(maxPool, n), hf(fused, n);
        hf.absorb(maxPool);
        for (Harness* h : {&ha, &hf}) {
            h->params = randomVector(h->params.size(), 80, 0.4f);
            h->layer.bind(h->params.data(), h->state.data(), h->globalGrad.data());
        }
        const std::vector<float> x = randomVector(size_t(n * apart.inShape().size()), 81, 2.0f);
        const std::vector<float> dy = randomVector(size_t(n * maxPool.outShape().size()), 82);
        const std::vector<float> pooled = hp.forward(std::vector<float>(ha.forward(x)));
        hf.forward(x);
        auto same = [](const float* a, const float* b, size_t count) { return std::memcmp(a, b, count * 4) == 0; };
        QVERIFY(same(hf.y.data(), pooled.data(), pooled.size()));
        QVERIFY(same(hf.nextCache.data(), hp.cache.data(), pooled.size())); // the argmax
        hp.backward(ha.y, dy);
        const std::vector<float> ga = ha.backward(x, hp.dx), gf = hf.backward(x, dy);
        QVERIFY(same(gf.data(), ga.data(), ga.size()));
        QVERIFY(same(hf.dx.data(), ha.dx.data(), ha.dx.size()));
        QVERIFY(std::any_of(ga.begin(), ga.end(), [](float g) { return g != 0.0f; }));
    }

    void batchNormForward()
    {
        BatchNorm bn("bn", Shape::flat(1), true, true, 0.99f, 1e-3f);
        Harness h(bn, 4);
        const auto& y = h.forward({1, 2, 3, 4});
        const float inv = 1.0f / std::sqrt(1.25f + 1e-3f);
        QVERIFY(std::fabs(y[0] - (-1.5f * inv)) < 1e-6f);
        QVERIFY(std::fabs(y[3] - (1.5f * inv)) < 1e-6f);
        QVERIFY(std::fabs(h.state[0] - 0.025f) < 1e-7f);  // moving mean
        QVERIFY(std::fabs(h.state[1] - 1.0025f) < 1e-6f); // moving variance
        // Evaluation uses the moving statistics.
        h.ctx.training = false;
        const auto& e = h.forward({1, 2, 3, 4});
        QVERIFY(std::fabs(e[0] - (1.0f - 0.025f) / std::sqrt(1.0025f + 1e-3f)) < 1e-6f);
        QCOMPARE(bn.paramCount(), int64_t(2));
        QCOMPARE(bn.stateCount(), int64_t(2));
    }

    void batchNormGradient()
    {
        BatchNorm spatial("bn_spatial", Shape::image(3, 3, 2), true, true, 0.99f, 1e-3f);
        gradientCheck(spatial, 4, 40);
        BatchNorm flat("bn_flat_noscale", Shape::flat(5), true, false, 0.99f, 1e-3f);
        gradientCheck(flat, 6, 50);
        BatchNorm fusedSpatial("bn_relu_spatial", Shape::image(3, 3, 2), true, true, 0.99f, 1e-3f);
        fusedSpatial.fuseRelu();
        gradientCheck(fusedSpatial, 4, 41);
        BatchNorm fusedFlat("bn_relu_flat", Shape::flat(5), true, false, 0.99f, 1e-3f);
        fusedFlat.fuseRelu();
        gradientCheck(fusedFlat, 6, 51);
    }

    // BatchNorm with its fused ReLU gives exactly what BatchNorm then an Activation layer give.
    void batchNormFusedReluMatchesTwoLayers_data()
    {
        QTest::addColumn<bool>("spatial");
        QTest::newRow("spatial") << true;
        QTest::newRow("flat") << false;
    }
    void batchNormFusedReluMatchesTwoLayers()
    {
        QFETCH(bool, spatial);
        const Shape shape = spatial ? Shape::image(4, 5, 3) : Shape::flat(7);
        const int n = 6;
        BatchNorm plain("bn", shape, true, false, 0.99f, 1e-3f), fused("bn_relu", shape, true, false, 0.99f, 1e-3f);
        fused.fuseRelu();
        ActivationLayer relu("relu", shape, Activation::ReLU);
        Harness hp(plain, n), hf(fused, n), hr(relu, n);
        for (Harness* h : {&hp, &hf}) {
            h->params = randomVector(size_t(plain.paramCount()), 62, 0.3f); // beta
            h->layer.bind(h->params.data(), h->state.data(), h->globalGrad.data());
        }
        const std::vector<float> x = randomVector(size_t(n * shape.size()), 60, 2.0f);
        const std::vector<float> dy = randomVector(size_t(n * shape.size()), 61);
        const std::vector<float> mid = hp.forward(x);
        QCOMPARE(hf.forward(x), hr.forward(mid));
        hr.backward(mid, dy);
        const std::vector<float> gp = hp.backward(x, hr.dx), gf = hf.backward(x, dy);
        QCOMPARE(hf.dx, hp.dx);
        QCOMPARE(gf, gp);
        QVERIFY(std::count(hr.dx.begin(), hr.dx.end(), 0.0f) > 0); // the mask cut something
    }

    void maxPoolForwardAndGradient()
    {
        MaxPool2D pool("p", Shape::image(4, 4, 1), 2, 2, 2, 2, false);
        Harness h(pool, 1);
        const auto& y = h.forward({1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 1, 1, 9, 0, 1, 7});
        QCOMPARE(y, (std::vector<float>{5, 8, 9, 7}));
        MaxPool2D odd("pool_odd", Shape::image(7, 7, 2), 2, 2, 2, 2, false);
        QCOMPARE(odd.outShape(), Shape::image(3, 3, 2));
        gradientCheck(odd, 2, 60, 2e-2, 1e-3f);
        MaxPool2D same("pool_same", Shape::image(5, 5, 1), 2, 2, 2, 2, true);
        QCOMPARE(same.outShape(), Shape::image(3, 3, 1));
        gradientCheck(same, 2, 61, 2e-2, 1e-3f);
    }

    // The vectorized 2x2/2 window against a plain loop, at widths below, at and past one block of 8
    // outputs, with ties (the first maximum in reading order takes the gradient).
    void maxPool2x2MatchesPlainLoop()
    {
        // Widths below 8 and not multiples of 8: the partial blocks' masked loads and stores, at
        // every level.
        for (Isa isa : supportedIsas())
            for (int side : {4, 7, 14, 16, 20, 28, 33}) {
                const Shape in = Shape::image(side, side, 3);
                MaxPool2D pool("p", in, 2, 2, 2, 2, false);
                const int n = 2, Ho = side / 2, Wo = side / 2;
                Harness h(pool, n);
                h.ctx.kernels = &kernelsFor(isa);
                std::vector<float> x = randomVector(size_t(n * in.size()), uint64_t(side));
                for (float& v : x)
                    v = std::round(v * 2.0f); // five values: many ties
                const std::vector<float> y = h.forward(x);
                std::vector<float> dy(y.size());
                for (size_t i = 0; i < dy.size(); ++i)
                    dy[i] = float(i + 1);
                h.backward(x, dy);
                std::vector<float> wantDx(x.size(), 0.0f);
                for (int p = 0; p < n * in.c; ++p)
                    for (int oy = 0; oy < Ho; ++oy)
                        for (int ox = 0; ox < Wo; ++ox) {
                            const int64_t o = (int64_t(p) * Ho + oy) * Wo + ox;
                            int64_t best = -1;
                            for (int k = 0; k < 4; ++k) {
                                const int64_t at = (int64_t(p) * side + 2 * oy + k / 2) * side + 2 * ox + k % 2;
                                if (best < 0 || x[size_t(at)] > x[size_t(best)])
                                    best = at;
                            }
                            QCOMPARE(y[size_t(o)], x[size_t(best)]);
                            wantDx[size_t(best)] += dy[size_t(o)];
                        }
                QCOMPARE(h.dx, wantDx);
            }
    }

    void dropoutForwardAndGradient()
    {
        Dropout d("drop", Shape::flat(10000), 0.4f, 3);
        Harness h(d, 1);
        const std::vector<float> x(10000, 1.0f);
        const auto& y = h.forward(x);
        int kept = 0;
        for (float v : y) {
            QVERIFY(v == 0.0f || std::fabs(v - 1.0f / 0.6f) < 1e-6f);
            kept += v != 0.0f;
        }
        QVERIFY2(kept > 5700 && kept < 6300, qPrintable(QString::number(kept)));
        h.ctx.training = false;
        QCOMPARE(h.forward(x), x);
        Dropout small("dropout_grad", Shape::image(3, 3, 2), 0.5f, 1);
        gradientCheck(small, 3, 70);
    }

    void flattenIsKerasChannelsLast()
    {
        Reshape f("flatten", Shape::image(2, 2, 2), Shape::flat(8), LayerKind::Flatten);
        Harness h(f, 1);
        const auto& y = h.forward({1, 2, 3, 4, 5, 6, 7, 8}); // [C][H][W]
        QCOMPARE(y, (std::vector<float>{1, 5, 2, 6, 3, 7, 4, 8}));
        gradientCheck(f, 3, 80);
        Reshape r("reshape", Shape::flat(12), Shape::image(2, 3, 2), LayerKind::Reshape);
        gradientCheck(r, 2, 81);
    }

    void denseForwardAndGradient()
    {
        Dense d("d", Shape::flat(2), 3, true, Activation::Linear);
        Harness h(d, 1);
        h.params = {1, 2, 3, 4, 5, 6, 0.1f, 0.2f, 0.3f};
        d.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const auto& y = h.forward({1, 2});
        QVERIFY(std::fabs(y[0] - 9.1f) < 1e-5f && std::fabs(y[1] - 12.2f) < 1e-5f && std::fabs(y[2] - 15.3f) < 1e-5f);
        Dense g("dense_elu", Shape::flat(7), 4, true, Activation::ELU);
        gradientCheck(g, 5, 90);
        Dense nb("dense_nobias", Shape::flat(6), 3, false, Activation::ReLU);
        gradientCheck(nb, 4, 91);
        // Units a multiple of 8: training runs batch-wide (several forward, dX and kernel-gradient
        // tasks; 203 inputs leave a 3-column tail for dX).
        Dense wide("dense_wide", Shape::flat(203), 72, true, Activation::ELU);
        QCOMPARE(wide.batchForwardTasks(), 2);
        gradientCheck(wide, 5, 92);
    }

    // Batch-wide Dense sums every output in a fixed order: cutting the batch into other shards
    // changes nothing, to the bit, and training's forward equals evaluation's per-shard forward.
    // Every level's kernels against the best level's, forward and backward: AVX2 and AVX-512 to the
    // bit; the baseline to the bit where no product is summed (pooling, dropout, BatchNorm,
    // activations, Flatten), within 1e-5 of the largest value where it is (its products round
    // each multiply before the add).
    void levelsAgreePerLayer()
    {
        const std::vector<Isa> levels = supportedIsas();
        if (levels.size() < 2)
            QSKIP("this CPU runs one level only");
        struct Case {
            std::function<std::unique_ptr<Layer>()> make;
            bool sums;
        };
        const Case cases[] = {
            {[] {
                 return std::make_unique<Conv2D>("im2col", Shape::image(9, 9, 3), 10, 3, 3, 2, 2, true, true,
                                                 Activation::ELU);
             },
             true},
            {[] {
                 return std::make_unique<Conv2D>("wino3", Shape::image(10, 10, 16), 24, 3, 3, 1, 1, true, true,
                                                 Activation::ReLU);
             },
             true},
            {[] {
                 return std::make_unique<Conv2D>("wino5", Shape::image(9, 7, 16), 8, 5, 5, 1, 1, true, true,
                                                 Activation::ELU);
             },
             true},
            {[] {
                 return std::make_unique<Conv2D>("fold6", Shape::image(12, 12, 8), 16, 6, 6, 2, 2, true, false,
                                                 Activation::Linear);
             },
             true},
            {[] { return std::make_unique<Dense>("dense72", Shape::flat(203), 72, true, Activation::ELU); }, true},
            {[] { return std::make_unique<Dense>("dense10", Shape::flat(50), 10, true, Activation::Softmax); }, true},
            {[] {
                 auto bn = std::make_unique<BatchNorm>("bn", Shape::image(6, 5, 8), true, true, 0.99f, 1e-3f);
                 bn->fuseRelu();
                 return bn;
             },
             false},
            {[] { return std::make_unique<BatchNorm>("bn_flat", Shape::flat(13), false, true, 0.99f, 1e-3f); }, false},
            {[] { return std::make_unique<MaxPool2D>("pool", Shape::image(11, 10, 4), 2, 2, 2, 2, false); }, false},
            {[] { return std::make_unique<MaxPool2D>("pool3", Shape::image(7, 7, 2), 3, 3, 2, 2, true); }, false},
            {[] { return std::make_unique<Dropout>("drop", Shape::image(5, 5, 3), 0.3f, 2); }, false},
            {[] { return std::make_unique<ActivationLayer>("elu", Shape::flat(40), Activation::ELU); }, false},
            {[] {
                 return std::make_unique<Reshape>("flat", Shape::image(4, 3, 8), Shape::flat(96), LayerKind::Flatten);
             },
             false},
        };
        for (const Case& c : cases) {
            struct Out {
                std::vector<float> y, dx, dp;
            };
            auto run = [&](Isa isa) {
                auto layer = c.make();
                Harness h(*layer, 5);
                h.ctx.kernels = &kernelsFor(isa);
                h.params = randomVector(h.params.size(), 31, 0.5f);
                layer->bind(h.params.data(), h.state.data(), h.globalGrad.data());
                const auto x = randomVector(size_t(5 * layer->inShape().size()), 32, 2.0f);
                Out o;
                o.y = h.forward(x);
                o.dp = h.backward(x, randomVector(size_t(5 * layer->outShape().size()), 33));
                o.dx = h.dx;
                return o;
            };
            const Out best = run(levels.back());
            for (Isa isa : levels) {
                const Out o = run(isa);
                const QString what = QString::fromStdString(c.make()->name()) + " at " + isaName(isa);
                for (auto [got, want] : {std::pair{&o.y, &best.y}, {&o.dx, &best.dx}, {&o.dp, &best.dp}}) {
                    if (isa != Isa::Baseline || !c.sums) {
                        QVERIFY2(*got == *want, qPrintable(what));
                        continue;
                    }
                    double worst = 0, scale = 1e-30;
                    for (size_t i = 0; i < got->size(); ++i) {
                        worst = std::max(worst, double(std::fabs((*got)[i] - (*want)[i])));
                        scale = std::max(scale, double(std::fabs((*want)[i])));
                    }
                    QVERIFY2(worst <= 1e-5 * scale,
                             qPrintable(what + QString(": off by %1 of %2").arg(worst).arg(scale)));
                }
            }
        }
    }

    void denseBatchWideIgnoresShardCuts()
    {
        const int F = 203, U = 72, N = 13;
        Dense d("d", Shape::flat(F), U, true, Activation::ReLU);
        std::vector<float> params = randomVector(size_t(d.paramCount()), 4);
        const std::vector<float> x = randomVector(size_t(N * F), 5), dyIn = randomVector(size_t(N * U), 6);
        struct Result {
            std::vector<float> y, dx, grad;
        };
        auto run = [&](std::vector<int> cuts) {
            Result r{std::vector<float>(size_t(N * U)), std::vector<float>(size_t(N * F)),
                     std::vector<float>(params.size(), 0.0f)};
            std::vector<float> dy = dyIn;
            d.bind(params.data(), nullptr, r.grad.data());
            std::vector<ShardView> shards;
            for (size_t k = 0; k + 1 < cuts.size(); ++k) {
                ShardView v;
                v.n = cuts[k + 1] - cuts[k];
                v.x = x.data() + cuts[k] * F;
                v.y = r.y.data() + cuts[k] * U;
                v.dy = dy.data() + cuts[k] * U;
                v.dx = r.dx.data() + cuts[k] * F;
                shards.push_back(v);
            }
            PassContext ctx;
            ctx.training = true;
            ctx.batchSize = N;
            d.beginPass(*ctx.kernels, true, kSerialFor);
            for (ShardView& v : shards)
                d.forward(ctx, 0, v, nullptr);
            for (int t = 0; t < d.batchForwardTasks(); ++t)
                d.batchForward(ctx, shards, t);
            for (ShardView& v : shards)
                d.backward(ctx, 0, v, nullptr);
            for (int t = 0; t < d.batchBackwardTasks(shards); ++t)
                d.batchBackward(ctx, shards, t);
            return r;
        };
        const Result whole = run({0, N});
        QVERIFY(whole.grad != std::vector<float>(whole.grad.size(), 0.0f));
        for (const auto& cuts : {std::vector<int>{0, 5, 10, N}, std::vector<int>{0, 1, 2, 8, N}}) {
            const Result r = run(cuts);
            QCOMPARE(r.y, whole.y);
            QCOMPARE(r.dx, whole.dx);
            QCOMPARE(r.grad, whole.grad);
        }
        std::vector<float> evalY(size_t(N * U));
        ShardView v;
        v.n = N;
        v.x = x.data();
        v.y = evalY.data();
        d.beginPass(defaultKernels(), false, kSerialFor);
        d.forward(PassContext{}, 0, v, nullptr);
        QCOMPARE(evalY, whole.y);
    }

    void activations()
    {
        std::vector<float> v = {-1.0f, 0.0f, 2.0f};
        defaultKernels().activate(Activation::ELU, v.data(), 3);
        QVERIFY(std::fabs(v[0] - (std::exp(-1.0f) - 1.0f)) < 1e-7f);
        QCOMPARE(v[2], 2.0f);
        v = {-1.0f, 0.5f};
        defaultKernels().activate(Activation::ReLU, v.data(), 2);
        QCOMPARE(v, (std::vector<float>{0.0f, 0.5f}));
        ActivationLayer elu("elu", Shape::flat(9), Activation::ELU);
        gradientCheck(elu, 3, 100);
        ActivationLayer relu("re_lu", Shape::image(2, 2, 2), Activation::ReLU);
        gradientCheck(relu, 3, 101);
    }

    // Keras' LSTM equations written out for one unit and one feature over two steps, against the layer.
    void lstmForwardByHand()
    {
        Lstm l("lstm", Shape::seq(2, 1), 1, true, false);
        Harness h(l, 1);
        // kernel (1, 4), recurrent_kernel (1, 4), bias (4): gates i, f, c, o
        h.params = {0.5f, -0.3f, 0.8f, 0.2f, 0.1f, 0.4f, -0.6f, 0.3f, 0.05f, 1.0f, -0.1f, 0.2f};
        l.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const auto& y = h.forward({1.0f, 2.0f});
        auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        double hp = 0, cp = 0;
        const double xs[2] = {1.0, 2.0};
        for (int t = 0; t < 2; ++t) {
            const double i = sig(0.5 * xs[t] + 0.1 * hp + 0.05), f = sig(-0.3 * xs[t] + 0.4 * hp + 1.0);
            const double g = std::tanh(0.8 * xs[t] - 0.6 * hp - 0.1), o = sig(0.2 * xs[t] + 0.3 * hp + 0.2);
            cp = f * cp + i * g;
            hp = o * std::tanh(cp);
            QVERIFY2(std::fabs(y[size_t(t)] - hp) < 1e-6,
                     qPrintable(QString("h_%1 = %2, by hand %3").arg(t).arg(y[size_t(t)]).arg(hp)));
        }
        // The last step only without return_sequences.
        Lstm last("lstm_last", Shape::seq(2, 1), 1, false, false);
        Harness h2(last, 1);
        h2.params = h.params;
        last.bind(h2.params.data(), h2.state.data(), h2.globalGrad.data());
        QVERIFY(std::fabs(h2.forward({1.0f, 2.0f})[0] - hp) < 1e-6);
    }

    // Keras' initializers: Glorot-uniform kernel, orthogonal recurrent kernel (R R^T = I), unit forget bias.
    void lstmInitializers()
    {
        const int F = 6, H = 5;
        Lstm l("lstm", Shape::seq(3, F), H, true, true);
        QCOMPARE(l.paramCount(), int64_t(4 * H * (F + H + 1)));
        std::vector<float> p(size_t(l.paramCount()));
        Rng rng(3);
        l.initParams(p.data(), nullptr, rng);
        const float limit = float(std::sqrt(6.0 / (F + 4 * H)));
        for (int i = 0; i < F * 4 * H; ++i)
            QVERIFY(std::fabs(p[size_t(i)]) <= limit);
        const float* R = p.data() + F * 4 * H;
        for (int a = 0; a < H; ++a)
            for (int b = 0; b < H; ++b) {
                double d = 0;
                for (int k = 0; k < 4 * H; ++k)
                    d += double(R[a * 4 * H + k]) * R[b * 4 * H + k];
                QVERIFY2(std::fabs(d - (a == b ? 1.0 : 0.0)) < 1e-5,
                         qPrintable(QString("(R R^T)[%1][%2] = %3").arg(a).arg(b).arg(d)));
            }
        const float* b = R + H * 4 * H;
        for (int j = 0; j < 4 * H; ++j)
            QCOMPARE(b[j], j >= H && j < 2 * H ? 1.0f : 0.0f);
    }

    // Backpropagation through time against central differences: every output step (return_sequences)
    // and the last one only; the input gradient and kernel, recurrent kernel and bias gradients.
    void lstmGradient()
    {
        Lstm seq("lstm_seq", Shape::seq(4, 3), 5, true, false);
        gradientCheck(seq, 3, 120);
        Lstm last("lstm_last", Shape::seq(5, 2), 4, false, false);
        gradientCheck(last, 2, 121);
    }

    // An LSTM reading the Embedding's ids and table itself (Lstm::readEmbedding, what a text model
    // does) against the two layers apart: the same outputs to the bit (each row of E K is the sum X K
    // makes), and the same gradients of the table and the kernel within rounding (summed by id, not
    // by step). One id of the vocabulary is not used; its gradient stays zero.
    void lstmReadingTheEmbeddingMatchesTheTwoLayers()
    {
        const int V = 6, F = 3, H = 4, T = 5, n = 2;
        const Shape ids = Shape::tokenIds(T);
        Embedding e1("embedding", ids, V, F), e2("embedding", ids, V, F);
        Lstm l1("lstm", e1.outShape(), H, true, false), l2("lstm", e2.outShape(), H, true, false);
        l2.readEmbedding(e2);
        QVERIFY(e2.passThrough() && !e2.usesShardGradient());
        QCOMPARE(l2.gradientBefore(), e2.paramCount());
        const int64_t pe = e1.paramCount(), pl = l1.paramCount();
        std::vector<float> params = randomVector(size_t(pe + pl), 130, 0.5f), none(1);
        e1.bind(params.data(), none.data(), none.data());
        e2.bind(params.data(), none.data(), none.data());
        l1.bind(params.data() + pe, none.data(), none.data());
        l2.bind(params.data() + pe, none.data(), none.data());
        const std::vector<float> x = {0, 3, 3, 1, 2, 4, 0, 0, 1, 3}; // id 5 unused
        const std::vector<float> dy = randomVector(size_t(n * T * H), 131);
        PassContext ctx;
        ctx.training = true;
        ctx.batchSize = n;
        const auto workspace = [&](const Layer& l) {
            return std::vector<float>(size_t(std::max<int64_t>(1, l.workspaceFloats(n))));
        };

        const auto view = [&](const float* in, float* out, float* dOut, float* dIn, float* cache, float* grad) {
            ShardView v;
            v.n = n;
            v.x = in;
            v.y = out;
            v.dy = dOut;
            v.dx = dIn;
            v.cache = cache;
            v.grad = grad;
            return v;
        };

        // Apart: the Embedding's output is the LSTM's input; its gradient the Embedding's dY.
        std::vector<float> emb(size_t(n * T * F)), y1(size_t(n * T * H)), cache1(size_t(l1.cacheFloats(n)));
        std::vector<float> grad1(size_t(pe + pl), 0.0f), dEmb(emb.size()), dy1 = dy, ws1 = workspace(l1);
        ShardView ve = view(x.data(), emb.data(), dEmb.data(), nullptr, nullptr, grad1.data());
        ShardView v1 = view(emb.data(), y1.data(), dy1.data(), dEmb.data(), cache1.data(), grad1.data() + pe);
        e1.forward(ctx, 0, ve, nullptr);
        l1.beginPass(*ctx.kernels, ctx.training, kSerialFor);
        l1.forward(ctx, 0, v1, ws1.data());
        l1.backward(ctx, 0, v1, ws1.data());
        e1.backward(ctx, 0, ve, nullptr);

        // Together: the LSTM reads the ids and writes both gradients.
        std::vector<float> y2(y1.size()), cache2(size_t(l2.cacheFloats(n))), grad2(grad1.size(), 0.0f), dy2 = dy;
        std::vector<float> ws2 = workspace(l2);
        ShardView v2 = view(x.data(), y2.data(), dy2.data(), nullptr, cache2.data(), grad2.data() + pe);
        l2.beginPass(*ctx.kernels, ctx.training, kSerialFor);
        l2.forward(ctx, 0, v2, ws2.data());
        QCOMPARE(y2, y1);
        l2.backward(ctx, 0, v2, ws2.data());
        double largest = 0;
        for (size_t i = 0; i < grad1.size(); ++i) {
            QVERIFY2(std::fabs(grad2[i] - grad1[i]) <= 1e-5 * std::max(1.0f, std::fabs(grad1[i])),
                     qPrintable(QString("gradient %1: %2 apart, %3 together").arg(i).arg(grad1[i]).arg(grad2[i])));
            largest = std::max(largest, double(std::fabs(grad1[i])));
        }
        QVERIFY(largest > 1e-3); // the gradients are not all zero
        for (int f = 0; f < F; ++f)
            QCOMPARE(grad2[size_t(5 * F + f)], 0.0f);
    }

    void timeDenseForwardAndGradient()
    {
        TimeDense d("dense", Shape::seq(2, 2), 3, true, Activation::Linear);
        Harness h(d, 1);
        h.params = {1, 2, 3, 4, 5, 6, 0.1f, 0.2f, 0.3f};
        d.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const auto& y = h.forward({1, 2, 0, 1}); // the same kernel at both steps
        const float want[6] = {9.1f, 12.2f, 15.3f, 4.1f, 5.2f, 6.3f};
        for (int i = 0; i < 6; ++i)
            QVERIFY(std::fabs(y[size_t(i)] - want[i]) < 1e-5f);
        TimeDense g("dense_elu", Shape::seq(3, 4), 6, true, Activation::ELU);
        gradientCheck(g, 2, 122);
    }

    // The table's rows by id; backward adds dY into the rows of the ids (a repeated id twice).
    void embeddingForwardAndGradient()
    {
        Embedding e("embedding", Shape::tokenIds(3), 4, 2);
        Harness h(e, 1);
        h.params = {0, 1, 10, 11, 20, 21, 30, 31};
        e.bind(h.params.data(), h.state.data(), h.globalGrad.data());
        const std::vector<float> ids = {2, 0, 2};
        const auto& y = h.forward(ids);
        QCOMPARE(y, (std::vector<float>{20, 21, 0, 1, 20, 21}));
        const std::vector<float> g = h.backward(ids, {1, 2, 3, 4, 5, 6});
        QCOMPARE(g, (std::vector<float>{3, 4, 0, 0, 6, 8, 0, 0}));
        QCOMPARE(e.outShape().keras(), std::string("(None, 3, 2)"));
    }

    void softmaxCrossEntropy()
    {
        const float logits[3] = {0.0f, std::log(2.0f), 0.0f};
        const uint8_t label = 1;
        float d[3], p[3];
        const LossSums s = tb::softmaxCrossEntropy(logits, &label, 1, 3, 0.5f, d, p);
        QVERIFY(std::fabs(s.loss - std::log(2.0)) < 1e-6);
        QCOMPARE(s.correct, 1);
        QVERIFY(std::fabs(p[0] - 0.25f) < 1e-6f && std::fabs(p[1] - 0.5f) < 1e-6f);
        QVERIFY(std::fabs(d[0] - 0.125f) < 1e-6f && std::fabs(d[1] + 0.25f) < 1e-6f);
        // Numerical gradient of the mean loss over a batch.
        const int n = 4, c = 5;
        std::vector<float> z = randomVector(n * c, 5, 3.0f);
        const uint8_t labels[n] = {0, 3, 4, 1};
        std::vector<float> dz(size_t(n * c));
        tb::softmaxCrossEntropy(z.data(), labels, n, c, 1.0f / n, dz.data(), nullptr);
        for (int i = 0; i < n * c; ++i) {
            const float keep = z[size_t(i)], eps = 1e-2f;
            z[size_t(i)] = keep + eps;
            const double lp = tb::softmaxCrossEntropy(z.data(), labels, n, c, 0, nullptr, nullptr).loss / n;
            z[size_t(i)] = keep - eps;
            const double lm = tb::softmaxCrossEntropy(z.data(), labels, n, c, 0, nullptr, nullptr).loss / n;
            z[size_t(i)] = keep;
            QVERIFY(close((lp - lm) / (2 * eps), dz[size_t(i)], 1e-2));
        }
        // Stable for huge logits.
        const float big[2] = {1000.0f, -1000.0f};
        const uint8_t l0 = 0;
        QVERIFY(std::isfinite(tb::softmaxCrossEntropy(big, &l0, 1, 2, 1, nullptr, nullptr).loss));
    }
};

QTEST_GUILESS_MAIN(TstLayers)
#include "tst_layers.moc"
