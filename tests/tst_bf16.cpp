// bf16 mixed precision (Precision::Bf16): the engine's rounding to bfloat16 by hand-computed values;
// the reference products (plain C++, any CPU) against a double-precision sum of the rounded inputs;
// on a CPU with AVX512_BF16, the fast kernels against the reference to the bit (edge values, every
// shape the blocking cuts differently), Winograd's bf16 transforms through the products that read
// them, and a training run on 1, 2 and 3 threads; everywhere, a training step through the reference
// kernels gives one gradient on 1 and 2 threads (the toy model, and one whose convolutions go
// through each Winograd variant); the transformed kernels in every table's packed layout; and bf16 is
// refused with its reason where it cannot run.
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/dataset.hpp"
#include "device/device.hpp"
#include "fixtures.hpp"
#include "kernels/bf16.hpp"
#include "kernels/kernels.hpp"
#include "kernels/winograd.hpp"
#include "layers/conv2d.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/trainer.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace tb;

namespace {
using fixtures::randomMatrix;

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The first element whose bits differ (NaNs of any payload count as equal), or -1.
long firstDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    for (size_t i = 0; i < a.size(); ++i)
        if (!sameBits(a[i], b[i]) && !(std::isnan(a[i]) && std::isnan(b[i])))
            return long(i);
    return -1;
}

bool fastBf16Here()
{
    return precisionUnavailableReason(Precision::Bf16, Isa::Avx512).empty();
}

// The vdpbf16ps kernels, whose bits are the reference's (on a CPU with AMX, bf16 runs on the tiles
// by default: tst_amx tests those).
const Kernels& vectorBf16()
{
    return bf16KernelsFor(Bf16Kernels::Avx512Bf16);
}

// The four products of `k` on one problem, each against `want` (computed by the reference).
void expectProducts(const Kernels& k, const Kernels& ref, bool transA, bool transB, int M, int N, int K,
                    const std::vector<float>& A, const std::vector<float>& B, const std::vector<float>& C0,
                    bool accumulate, const QString& what)
{
    const int lda = transA ? M : K, ldb = transB ? K : N;
    std::vector<float> want = C0, got = C0;
    ref.gemm(transA, transB, M, N, K, A.data(), lda, B.data(), ldb, want.data(), N, accumulate);
    k.gemm(transA, transB, M, N, K, A.data(), lda, B.data(), ldb, got.data(), N, accumulate);
    long at = firstDifference(got, want);
    QVERIFY2(at < 0, qPrintable(QString("gemm %1: element %2 is %3, the reference %4")
                                    .arg(what)
                                    .arg(at)
                                    .arg(double(got[size_t(std::max(at, 0L))]), 0, 'g', 9)
                                    .arg(double(want[size_t(std::max(at, 0L))]), 0, 'g', 9)));
    const int64_t aRow = transA ? 1 : lda, aCol = transA ? lda : 1;
    std::vector<float> packed(size_t(kernel::packedBFloats(K, N)));
    k.packB(K, N, B.data(), ldb, transB, packed.data());
    got = C0;
    k.gemmPacked(M, N, K, A.data(), aRow, aCol, packed.data(), got.data(), N, accumulate);
    at = firstDifference(got, want);
    QVERIFY2(at < 0, qPrintable(QString("gemmPacked %1: element %2").arg(what).arg(at)));
    if (transB)
        return;
    got = C0;
    k.tileGemm(M, N, K, A.data(), aRow, aCol, B.data(), N, got.data(), N, accumulate);
    at = firstDifference(got, want);
    QVERIFY2(at < 0, qPrintable(QString("tileGemm %1: element %2").arg(what).arg(at)));
}

// fixtures::winogradModelJson: the bf16 input transform and the products on its rows run forward
// and for dX, through both Winograd variants and the fold.
const std::string kWinogradModel = fixtures::winogradModelJson();

Network makeNetwork(const Dataset& d, const std::string& json)
{
    return Network(parseModelSpec(json, "model"), Shape::image(d.inputHeight(), d.inputWidth(), 1), d.numClasses);
}

using fixtures::Step;

// One training step of `json` (by default the toy model, every layer kind) on `kernels`.
Step trainingStep(const Dataset& d, const Kernels& kernels, int threads,
                  const std::string& json = fixtures::toyModelJson())
{
    return fixtures::trainingStep(d, kernels, threads, json);
}
} // namespace

class TstBf16 : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    Dataset m_toy;

private slots:
    void initTestCase()
    {
        qInfo("bf16 here: %s",
              fastBf16Here() ? "yes (AVX512_BF16)" : precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        fixtures::writeToyDataset(m_tmp.path().toStdString(), 120, 40, 12, 3);
        m_toy = loadDataset(m_tmp.path().toStdString());
    }

    // Round to nearest, ties to even, by hand: bf16 keeps 8 bits of significand (7 stored).
    void roundingIsNearestEven()
    {
        QCOMPARE(bf16FromFloat(1.0f), uint16_t(0x3f80));
        QCOMPARE(bf16FromFloat(-2.0f), uint16_t(0xc000));
        QCOMPARE(bf16FromFloat(1.00390625f), uint16_t(0x3f80)); // 1 + 2^-8: halfway, to the even 1.0
        QCOMPARE(bf16FromFloat(1.01171875f), uint16_t(0x3f82)); // 1 + 3 * 2^-8: halfway, up to even
        QCOMPARE(bf16FromFloat(std::nextafter(1.00390625f, 2.0f)), uint16_t(0x3f81)); // past halfway: up
        QCOMPARE(bf16FromFloat(std::nextafter(1.00390625f, 0.0f)), uint16_t(0x3f80)); // short of it: down
        QCOMPARE(roundToBf16(3.14159265f), 3.140625f);
        QCOMPARE(bf16FromFloat(std::numeric_limits<float>::infinity()), uint16_t(0x7f80));
        QCOMPARE(bf16FromFloat(-std::numeric_limits<float>::infinity()), uint16_t(0xff80));
        QCOMPARE(bf16FromFloat(std::numeric_limits<float>::max()), uint16_t(0x7f80)); // rounds past the top
        const uint16_t nan = bf16FromFloat(std::nanf(""));
        QVERIFY(std::isnan(floatFromBf16(nan)));
        QVERIFY(nan & 0x40); // quiet
        // A NaN whose payload sits in the low bits alone would round to infinity if treated as a number.
        uint32_t lowNan = 0x7f800001u;
        float f;
        std::memcpy(&f, &lowNan, sizeof f);
        QVERIFY(std::isnan(roundToBf16(f)));
        // Subnormals become a zero of their sign; the smallest normal stays.
        QCOMPARE(bf16FromFloat(1e-39f), uint16_t(0x0000));
        QCOMPARE(bf16FromFloat(-1e-39f), uint16_t(0x8000));
        QCOMPARE(bf16FromFloat(std::numeric_limits<float>::min()), uint16_t(0x0080));
    }

    // The reference: each element the sum of the rounded inputs' products, within FP32's rounding of
    // the sum (the products are exact); different from the FP32 product where inputs need rounding.
    void referenceSumsTheRoundedProducts()
    {
        const Kernels& ref = bf16ReferenceKernels(Isa::Baseline);
        QCOMPARE(ref.precision, Precision::Bf16);
        const int M = 9, N = 13, K = 37;
        const auto A = randomMatrix(size_t(M * K), 1), B = randomMatrix(size_t(K * N), 2);
        std::vector<float> C(size_t(M * N)), fp32(size_t(M * N));
        ref.tileGemm(M, N, K, A.data(), K, 1, B.data(), N, C.data(), N, false);
        kernelsFor(Isa::Baseline).tileGemm(M, N, K, A.data(), K, 1, B.data(), N, fp32.data(), N, false);
        int differ = 0;
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double want = 0, scale = 0;
                for (int k = 0; k < K; ++k) {
                    const double p = double(roundToBf16(A[size_t(i * K + k)])) * roundToBf16(B[size_t(k * N + j)]);
                    want += p;
                    scale += std::fabs(p);
                }
                const float got = C[size_t(i * N + j)];
                QVERIFY2(std::fabs(got - want) <= K * 6e-8 * scale,
                         qPrintable(QString("(%1, %2): %3, expected %4").arg(i).arg(j).arg(got).arg(want)));
                differ += !sameBits(got, fp32[size_t(i * N + j)]);
            }
        QVERIFY2(differ > M * N / 2, "the bf16 products are hardly different from FP32's: are the inputs rounded?");
    }

    // The AVX512_BF16 kernels against the reference to the bit: every product, transposed operands,
    // accumulation, K odd and even, N with and without a tail of 8, M across row blocks, K across the
    // kernels' k blocks (384 and more).
    void fastKernelsGiveTheReferenceBits()
    {
        if (!fastBf16Here())
            QSKIP(precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        const Kernels &k = vectorBf16(), &ref = bf16ReferenceKernels(Isa::Avx512);
        QCOMPARE(k.precision, Precision::Bf16);
        uint64_t seed = 10;
        const int shapes[][3] = {{1, 1, 1},   {3, 5, 2},      {12, 32, 64},  {13, 33, 65}, {25, 100, 3},
                                 {5, 8, 513}, {40, 17, 1000}, {7, 200, 400}, {30, 72, 9}};
        for (const auto& s : shapes)
            for (bool transA : {false, true})
                for (bool transB : {false, true})
                    for (bool accumulate : {false, true}) {
                        const int M = s[0], N = s[1], K = s[2];
                        const auto A = randomMatrix(size_t(M * K), ++seed), B = randomMatrix(size_t(K * N), ++seed);
                        const auto C0 = randomMatrix(size_t(M * N), ++seed);
                        expectProducts(k, ref, transA, transB, M, N, K, A, B, C0, accumulate,
                                       QString("M=%1 N=%2 K=%3 transA=%4 transB=%5 acc=%6")
                                           .arg(M)
                                           .arg(N)
                                           .arg(K)
                                           .arg(transA)
                                           .arg(transB)
                                           .arg(accumulate));
                    }
    }

    // The edges of the range: zeros of both signs, subnormal inputs and sums (flushed), overflow to
    // infinity, infinities and NaNs, ties in the rounding.
    void fastKernelsGiveTheReferenceBitsAtTheEdges()
    {
        if (!fastBf16Here())
            QSKIP(precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        const Kernels &k = vectorBf16(), &ref = bf16ReferenceKernels(Isa::Avx512);
        const float edges[] = {0.0f,   -0.0f, 1e-39f, -1e-39f, 1.2e-38f, 3e38f,  -3e38f,   1.00390625f, 1.01171875f,
                               1e-20f, 1e20f, 1.5f,   -2.75f,  1e-19f,   6e-39f, INFINITY, -INFINITY,   NAN};
        Rng r(5);
        for (int trial = 0; trial < 300; ++trial) {
            const int M = 1 + int(r.next() % 14), N = 1 + int(r.next() % 40), K = 1 + int(r.next() % 9);
            auto pick = [&](float normal) {
                return r.next() % 3 ? edges[r.next() % std::size(edges)] * (r.next() % 2 ? 1.0f : -1.0f) : normal;
            };
            std::vector<float> A(size_t(M * K)), B(size_t(K * N)), C(size_t(M * N));
            for (float& x : A)
                x = pick(2.0f * r.uniform() - 1.0f);
            for (float& x : B)
                x = pick(1e-19f * r.uniform());
            for (float& x : C)
                x = pick(r.uniform());
            expectProducts(k, ref, false, false, M, N, K, A, B, C, true, QString("trial %1").arg(trial));
        }
    }

    // A training step of a model with every layer kind through the reference products: one gradient
    // on 1 and 2 threads, on any CPU; where AVX512_BF16 runs, the fast kernels give that gradient.
    void trainingStepIsTheSameOnAnyThreadCountAndKernel()
    {
        const Step one = trainingStep(m_toy, bf16ReferenceKernels(Isa::Baseline), 1);
        const Step two = trainingStep(m_toy, bf16ReferenceKernels(Isa::Baseline), 2);
        QVERIFY(std::isfinite(one.loss));
        QCOMPARE(firstDifference(two.gradient, one.gradient), -1L);
        const Step fp32 = trainingStep(m_toy, kernelsFor(Isa::Baseline), 1);
        QVERIFY(firstDifference(fp32.gradient, one.gradient) >= 0); // bf16 changes the numbers
        if (!fastBf16Here())
            return;
        const Step fast = trainingStep(m_toy, vectorBf16(), 2);
        const Step ref = trainingStep(m_toy, bf16ReferenceKernels(Isa::Avx512), 1);
        QCOMPARE(firstDifference(fast.gradient, ref.gradient), -1L);
        QCOMPARE(fast.loss, ref.loss);
    }

    // The same through Winograd's convolutions, whose bf16 input transform rounds and pairs the
    // products' left operand as it writes it (kernels/winograd_bf16.cpp).
    void winogradTrainingStepGivesTheReferenceBits()
    {
        Network net = makeNetwork(m_toy, kWinogradModel);
        QVERIFY(!dynamic_cast<const Conv2D&>(net.layer(0)).usesWinograd());
        for (int i = 1; i <= 3; ++i)
            QVERIFY2(dynamic_cast<const Conv2D&>(net.layer(i)).usesWinograd(), net.layer(i).name().c_str());
        QCOMPARE(dynamic_cast<const Conv2D&>(net.layer(3)).winogradFold(), 2);
        const Step one = trainingStep(m_toy, bf16ReferenceKernels(Isa::Baseline), 1, kWinogradModel);
        QVERIFY(std::isfinite(one.loss));
        const Step fp32 = trainingStep(m_toy, kernelsFor(Isa::Baseline), 1, kWinogradModel);
        QVERIFY(firstDifference(fp32.gradient, one.gradient) >= 0);
        if (!fastBf16Here())
            QSKIP(precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        const Step fast = trainingStep(m_toy, vectorBf16(), 2, kWinogradModel);
        const Step ref = trainingStep(m_toy, bf16ReferenceKernels(Isa::Avx512), 1, kWinogradModel);
        QCOMPARE(firstDifference(fast.gradient, ref.gradient), -1L);
        QCOMPARE(fast.loss, ref.loss);
    }

    // Winograd's bf16 transforms against the reference's FP32 ones, through the products that read
    // them: the input transform as gemmPackedRows's rows (forward, dX), both transforms as
    // gemmKRows's k-rows (dW). Each variant bf16 takes, the fold on an image wide enough for its 8-pixel reads,
    // 8- and 16-channel groups, odd and even tile counts, and edge values (a NaN, infinities,
    // subnormal transformed values).
    void winogradTransformsGiveTheReferenceProducts_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("fold");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("cout");
        QTest::addColumn<int>("samples");
        const int f45 = int(winograd::Kind::F4x4_5x5), f43 = int(winograd::Kind::F4x4_3x3);
        QTest::newRow("F(4x4,5x5) 14x14, 16 -> 24, 3 samples (48 tiles)") << f45 << 14 << 14 << 1 << 16 << 24 << 3;
        QTest::newRow("F(4x4,5x5) 9x10, 8 -> 32, 1 sample (9 tiles)") << f45 << 9 << 10 << 1 << 8 << 32 << 1;
        QTest::newRow("F(4x4,3x3) 9x11, 24 -> 16, 2 samples") << f43 << 9 << 11 << 1 << 24 << 16 << 2;
        QTest::newRow("fold 14x14 (28x28), 48 -> 24, 1 sample") << f43 << 14 << 14 << 2 << 48 << 24 << 1;
        QTest::newRow("fold 7x9 (14x18), 96 -> 40, 3 samples") << f43 << 7 << 9 << 2 << 96 << 40 << 3;
        const int f53 = int(winograd::Kind::F5x5_3x3);
        QTest::newRow("F(5x5,3x3) 14x14, 16 -> 24, 2 samples") << f53 << 14 << 14 << 1 << 16 << 24 << 2;
        QTest::newRow("F(5x5,3x3) 7x5, 8 -> 16, 3 samples") << f53 << 7 << 5 << 1 << 8 << 16 << 3;
        QTest::newRow("F(5x5,3x3) fold 14x14 (28x28), 48 -> 24, 1 sample") << f53 << 14 << 14 << 2 << 48 << 24 << 1;
    }
    void winogradTransformsGiveTheReferenceProducts()
    {
        if (!fastBf16Here())
            QSKIP(precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        QFETCH(int, kind);
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, fold);
        QFETCH(int, cin);
        QFETCH(int, cout);
        QFETCH(int, samples);
        const Kernels& fast = vectorBf16();
        const Kernels& ref = bf16ReferenceKernels(Isa::Avx512);
        const winograd::TileGrid g(winograd::Kind(kind), h, w);
        const int64_t P = g.tiles(samples), pixels = int64_t(h) * w * fold * fold;
        // x: [cin / fold^2][samples][h fold][w fold]; dy: [cout][samples][h][w].
        std::vector<float> x = randomMatrix(size_t(cin * samples * pixels / (fold * fold)), 3);
        std::vector<float> dy = randomMatrix(size_t(int64_t(cout) * samples * h * w), 4);
        x[5] = std::numeric_limits<float>::quiet_NaN();
        x[x.size() / 2] = std::numeric_limits<float>::infinity();
        dy[dy.size() / 3] = -std::numeric_limits<float>::infinity();
        for (size_t i = x.size() / 4; i < x.size() / 2; ++i)
            x[i] *= 1e-38f; // transformed values around the subnormal range
        const std::vector<float> B = randomMatrix(size_t(cin) * cout, 5);
        // The transforms' matrices lie winograd::matrixStride apart.
        const int kElems = g.elems();
        const int64_t strideIn = winograd::matrixStride(P, cin), strideOut = winograd::matrixStride(P, cout);
        auto rowsProduct = [&](const Kernels& k) {
            std::vector<float> V(size_t(kElems * strideIn), std::numeric_limits<float>::quiet_NaN());
            std::vector<float> packed(size_t(kernel::packedBFloats(cin, cout)));
            std::vector<float> C(size_t(kElems * strideOut));
            k.winogradInputRows(g, x.data(), cin, samples, 0, samples, V.data(), fold);
            k.packB(cin, cout, B.data(), cout, false, packed.data());
            for (int e = 0; e < kElems; ++e)
                k.gemmPackedRows(int(P), cout, cin, V.data() + e * strideIn, cin, packed.data(),
                                 C.data() + e * strideOut, cout, false);
            return C;
        };
        // `split`: C's rows in two blocks, the second's A from column `split` of Z (lda = cout), as
        // Conv2D's dW takes blocks of output channels.
        auto kRowsProduct = [&](const Kernels& k, int split) {
            // NaN wherever a transform leaves something unwritten that the product would read.
            const float junk = std::numeric_limits<float>::quiet_NaN();
            std::vector<float> V(size_t(kElems * strideIn), junk), Z(size_t(kElems * strideOut), junk);
            std::vector<float> dU(size_t(kElems) * cout * cin, 0.25f);
            k.winogradInputKRows(g, x.data(), cin, samples, 0, samples, V.data(), fold);
            k.winogradOutputGradientKRows(g, dy.data(), cout, samples, 0, samples, Z.data());
            for (int e = 0; e < kElems; ++e)
                for (const auto& [r0, r1] : {std::pair(0, split), std::pair(split, cout)})
                    k.gemmKRows(r1 - r0, cin, int(P), Z.data() + e * strideOut + r0, cout, V.data() + e * strideIn,
                                dU.data() + (int64_t(e) * cout + r0) * cin, cin, e % 2 == 1);
            return dU;
        };
        const std::vector<float> rows = rowsProduct(fast), rowsWant = rowsProduct(ref);
        QCOMPARE(firstDifference(rows, rowsWant), -1L);
        const std::vector<float> kRowsWant = kRowsProduct(ref, cout);
        for (int split : {cout, 8, cout - 8}) {
            QCOMPARE(firstDifference(kRowsProduct(fast, split), kRowsWant), -1L);
            // The emulated tiles (kernels/amx_tiles.hpp) read A's columns through lda too; their
            // padding pairs may turn a -0 sum into +0, so values, not bits.
            const std::vector<float> tiles = kRowsProduct(amxEmulatedKernels(), split);
            for (size_t i = 0; i < tiles.size(); ++i)
                QVERIFY2(tiles[i] == kRowsWant[i] || (std::isnan(tiles[i]) && std::isnan(kRowsWant[i])),
                         qPrintable(QString("emulated tiles, split %1: element %2").arg(split).arg(i)));
        }
        QVERIFY(std::any_of(kRowsWant.begin(), kRowsWant.end(), [](float v) { return std::isnan(v); }));
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](float v) { return std::isfinite(v) && v != 0.0f; }));
    }

    // Kernels::winogradKernel writes the transformed kernels straight into the products' packed
    // layout: every table's (the FP32 levels' panels, the bf16 kernels' pairs of rows) must be what
    // its packB makes of the row-major matrices the reference writes, in any split into row blocks
    // of even length. Each variant, transposed or not; 40 columns end in a partial panel at the
    // AVX2 and AVX-512 widths (24 and 32 columns; the baseline's are 8).
    void transformedKernelsComeOutAsPackBPacksThem_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("transposed");
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("cout");
        const int f45 = int(winograd::Kind::F4x4_5x5), f43 = int(winograd::Kind::F4x4_3x3);
        QTest::newRow("F(4x4,5x5) 24 -> 40") << f45 << false << 24 << 40;
        QTest::newRow("F(4x4,5x5) 40 -> 24, transposed") << f45 << true << 40 << 24;
        QTest::newRow("F(4x4,3x3) 8 -> 16") << f43 << false << 8 << 16;
        QTest::newRow("F(4x4,3x3) 48 -> 40, transposed") << f43 << true << 48 << 40;
        const int f53 = int(winograd::Kind::F5x5_3x3);
        QTest::newRow("F(5x5,3x3) 48 -> 24") << f53 << false << 48 << 24;
        QTest::newRow("F(5x5,3x3) 24 -> 40, transposed") << f53 << true << 24 << 40;
        const int f73 = int(winograd::Kind::F7x7_3x3); // FP32's alone, but every table packs it
        QTest::newRow("F(7x7,3x3) 48 -> 24") << f73 << false << 48 << 24;
        QTest::newRow("F(7x7,3x3) 24 -> 40, transposed") << f73 << true << 24 << 40;
    }
    void transformedKernelsComeOutAsPackBPacksThem()
    {
        QFETCH(int, kind);
        QFETCH(bool, transposed);
        QFETCH(int, cin);
        QFETCH(int, cout);
        const winograd::Kind k = winograd::Kind(kind);
        const winograd::TileGrid g(k, 8, 8);
        const int taps = k == winograd::Kind::F4x4_5x5 ? 25 : 9;
        const std::vector<float> w = randomMatrix(size_t(cout) * cin * taps, 6);
        const int rows = transposed ? cout : cin, cols = transposed ? cin : cout;
        const int64_t per = kernel::packedBFloats(rows, cols);
        const float unwritten = std::numeric_limits<float>::quiet_NaN();
        // Whole, or in blocks [0, 2), [2, 8), [8, rows): every block even, as the callers split them.
        auto transformed = [&](const Kernels& t, bool blocks) {
            std::vector<float> out(size_t(g.elems() * per), unwritten);
            const std::vector<int> cuts = blocks ? std::vector<int>{0, 2, 8, rows} : std::vector<int>{0, rows};
            for (size_t b = 0; b + 1 < cuts.size(); ++b)
                t.winogradKernel(k, w.data(), cout, cin, transposed, cuts[b], cuts[b + 1], out.data());
            return out;
        };
        for (Isa isa : supportedIsas()) {
            const std::vector<float> rowMajor = transformed(bf16ReferenceKernels(isa), false);
            QVERIFY(std::none_of(rowMajor.begin(), rowMajor.end(), [](float v) { return std::isnan(v); }));
            std::vector<const Kernels*> tables = {&kernelsFor(isa), &bf16ReferenceKernels(isa)};
            if (isa == Isa::Avx512 && fastBf16Here()) {
                tables.push_back(&vectorBf16());
                tables.push_back(&amxEmulatedKernels()); // the tiles' packB is the same code
            }
            for (const Kernels* t : tables) {
                std::vector<float> want(size_t(g.elems() * per), unwritten);
                for (int e = 0; e < g.elems(); ++e)
                    t->packB(rows, cols, rowMajor.data() + e * per, cols, false, want.data() + e * per);
                const std::string what = std::string(isaName(isa)) + ", " + t->gemmName;
                QVERIFY2(firstDifference(transformed(*t, false), want) == -1, what.c_str());
                QVERIFY2(firstDifference(transformed(*t, true), want) == -1, (what + ", in row blocks").c_str());
            }
        }
    }

    // Whole runs on a bf16 device (cpu:N+bf16): the same weights on 1, 2 and 3 threads, other
    // weights than FP32's, and they learn.
    void bf16RunsGiveTheSameWeightsOnAnyThreadCount()
    {
        if (!fastBf16Here())
            QSKIP(precisionUnavailableReason(Precision::Bf16, Isa::Avx512).c_str());
        auto train = [&](int threads, Precision p) {
            Network net = makeNetwork(m_toy, fixtures::toyModelJson());
            net.initialize(42);
            TrainConfig cfg;
            cfg.epochs = 3;
            cfg.batchSize = 50;
            cfg.seed = 42;
            cfg.device = parseDeviceSpec("cpu:" + std::to_string(threads) + "+" + precisionName(p));
            Trainer t(net, m_toy, cfg);
            t.run();
            return std::make_pair(net.weightsSha256(), t.history());
        };
        const auto one = train(1, Precision::Bf16);
        QCOMPARE(train(2, Precision::Bf16).first, one.first);
        QCOMPARE(train(3, Precision::Bf16).first, one.first);
        const auto fp32 = train(1, Precision::Fp32);
        QVERIFY(fp32.first != one.first);
        for (const auto& e : one.second)
            qInfo("epoch %d: bf16 loss %.4f accuracy %.3f, fp32 loss %.4f accuracy %.3f", e.epoch, e.loss, e.accuracy,
                  fp32.second[size_t(e.epoch - 1)].loss, fp32.second[size_t(e.epoch - 1)].accuracy);
        QVERIFY2(one.second.back().loss < one.second.front().loss, "the bf16 run's loss did not go down");
        QVERIFY2(std::fabs(one.second.back().loss - fp32.second.back().loss) < 0.02 * fp32.second.back().loss,
                 "the bf16 run's loss is more than 2% from FP32's");
    }

    // Names, parsing, the device syntax, and the refusals with their reasons.
    void precisionIsNamedParsedAndRefused()
    {
        QCOMPARE(parsePrecision("bf16"), Precision::Bf16);
        QCOMPARE(parsePrecision("fp32"), Precision::Fp32);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parsePrecision("fp16"));
        const DeviceSpec d = parseDeviceSpec("cpu:2@avx512+bf16");
        QCOMPARE(d.precision, Precision::Bf16);
        QCOMPARE(d.isa, std::optional<Isa>(Isa::Avx512));
        QCOMPARE(d.id(), std::string("cpu:2@avx512+bf16"));
        QCOMPARE(parseDeviceSpec("cpu:2").id(), std::string("cpu:2"));
        QCOMPARE(parseDeviceSpec("cpu:1+bf16").id(), std::string("cpu:1+bf16"));
        QCOMPARE(parseDeviceSpec("CPU:2@AVX512+BF16").id(), std::string("cpu:2@avx512+bf16")); // names take any case
        QCOMPARE(parseDeviceSpec("OpenCL:1").id(), std::string("opencl:1"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseDeviceSpec("opencl:0+bf16"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseDeviceSpec("cpu:2+int8"));
        // A list's --precision goes to the devices that name none.
        const std::vector<DeviceSpec> list = parseDeviceList("cpu:1, cpu:2+fp32,opencl:0", Precision::Bf16);
        QCOMPARE(list.size(), size_t(3));
        QCOMPARE(list[0].id(), std::string("cpu:1+bf16"));
        QCOMPARE(list[1].id(), std::string("cpu:2"));
        QCOMPARE(list[2].precision, Precision::Bf16);
        // A trailing comma is accepted; an empty entry between two is refused, not skipped.
        QCOMPARE(parseDeviceList("cpu:1,cpu:2,", Precision::Fp32).size(), size_t(2));
        for (const char* bad : {"cpu:1,,cpu:2", ",cpu:1", "cpu:1, ,cpu:2"}) {
            try {
                parseDeviceList(bad, Precision::Fp32);
                QFAIL(bad);
            } catch (const ConfigError& e) {
                QVERIFY2(std::string(e.what()).find("empty entry between two commas") != std::string::npos, e.what());
            }
        }
        // Never on a level below AVX-512, whatever the CPU.
        const std::string why = precisionUnavailableReason(Precision::Bf16, Isa::Avx2);
        QVERIFY(!why.empty());
        try {
            kernelsFor(Isa::Avx2, Precision::Bf16);
            QFAIL("bf16 on the avx2 kernels was not refused");
        } catch (const ConfigError& e) {
            QCOMPARE(std::string(e.what()), why);
        }
        // On an Intel CPU with AMX, bf16 by vdpbf16ps runs with a note on its speed (half FMA's rate
        // there), and on the tiles with one on its bits; none elsewhere, or for FP32.
        const Bf16Kernels vdp = Bf16Kernels::Avx512Bf16, amx = Bf16Kernels::Amx;
        QVERIFY(precisionSpeedNote(Precision::Bf16, true, vdp).find("slower than FP32") != std::string::npos);
        QVERIFY(precisionSpeedNote(Precision::Bf16, true, amx).find("AMX-BF16 tiles") != std::string::npos);
        QVERIFY(precisionSpeedNote(Precision::Bf16, false, vdp).empty());
        QVERIFY(precisionSpeedNote(Precision::Fp32, true, vdp).empty());
        QVERIFY(precisionSpeedNote(Precision::Fp32).empty());
        // The two bf16 products by name; the tiles refused with their reason where they cannot run.
        QCOMPARE(parseBf16Kernels("amx"), amx);
        QCOMPARE(parseBf16Kernels("avx512bf16"), vdp);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseBf16Kernels("amx-int8"));
        if (const std::string noTiles = bf16KernelsUnavailableReason(amx); !noTiles.empty()) {
            QCOMPARE(defaultBf16Kernels(), vdp);
            try {
                bf16KernelsFor(amx);
                QFAIL("the AMX kernels were not refused");
            } catch (const ConfigError& e) {
                QCOMPARE(std::string(e.what()), noTiles);
            }
            QVERIFY_THROWS_EXCEPTION(ConfigError, setDefaultBf16Kernels(amx));
        }
        SystemInfo system;
        system.cpu = detectCpu();
        QCOMPARE(deviceUnavailableReason(parseDeviceSpec("cpu:1@avx2+bf16"), system), why);
        if (fastBf16Here()) {
            QVERIFY(deviceUnavailableReason(parseDeviceSpec("cpu:1+bf16"), system).empty() ||
                    defaultIsa() != Isa::Avx512);
            const char* name = defaultBf16Kernels() == Bf16Kernels::Amx ? "AMX-BF16" : "AVX512_BF16";
            QVERIFY(describeKernels(kernelsFor(Isa::Avx512, Precision::Bf16)).find(name) != std::string::npos);
        } else {
            QVERIFY(why.find("AVX512_BF16") != std::string::npos);
            QVERIFY_THROWS_EXCEPTION(ConfigError, kernelsFor(Isa::Avx512, Precision::Bf16));
        }
    }
};

QTEST_GUILESS_MAIN(TstBf16)
#include "tst_bf16.moc"
