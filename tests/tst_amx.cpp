// The bf16 products on AMX-BF16 tiles (kernels/amx_tiles.hpp). Plain C++, no Qt: the only CPUs
// with AMX at hand are those of the lent GPU machines, which have no Qt.
//   - Everywhere with AVX512_BF16: the tile kernels with their instructions emulated in vdpbf16ps's
//     order give the reference's bits (a zero of either sign counts as one zero): every product,
//     transposed operands, accumulation, shapes across the 32-row blocks, the 16-column strips and
//     the 16-pair steps, edge values, and a training step through Winograd's products.
//   - Where the tiles run: each element within the bound of its sum's rounding of the reference, on
//     the same shapes; a training step gives one gradient on 1, 2 and 3 threads; whole bf16 runs give
//     one set of weights on 1 and 3 threads.
// Exit status 0 when every check passed, 77 when nothing could run (CTest's skip), 1 otherwise.
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/dataset.hpp"
#include "device/device.hpp"
#include "fixtures.hpp"
#include "kernels/bf16.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/trainer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tb;

namespace {

int g_failures = 0;

void check(bool ok, const std::string& what)
{
    if (!ok) {
        ++g_failures;
        std::printf("FAIL   %s\n", what.c_str());
    }
}

// The same bits, where a zero of either sign equals the other and NaNs equal any NaN. The tiles
// add a step's padding pairs (zero products) too, which turn a sum of -0 into +0.
bool sameValue(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0 || (a == 0.0f && b == 0.0f) || (std::isnan(a) && std::isnan(b));
}

struct Problem {
    int M, N, K;
    bool transA, transB, accumulate;
    std::vector<float> A, B, C0;
    std::string name() const
    {
        return "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
               " transA=" + std::to_string(transA) + " transB=" + std::to_string(transB) +
               " acc=" + std::to_string(accumulate);
    }
};

// Compares each element of `got` with `want` by `same(got, want, index)`; names the first miss.
template <class Same>
void expectSame(const std::vector<float>& got, const std::vector<float>& want, const std::string& what, Same same)
{
    for (size_t i = 0; i < want.size(); ++i)
        if (!same(got[i], want[i], i)) {
            char line[160];
            std::snprintf(line, sizeof line, ": element %zu is %.9g, the reference %.9g", i, double(got[i]),
                          double(want[i]));
            check(false, what + line);
            return;
        }
}

// gemm, gemmPacked and tileGemm of `k` on one problem against the reference's gemm.
template <class Same> void expectProducts(const Kernels& k, const Problem& p, Same same)
{
    const Kernels& ref = bf16ReferenceKernels(Isa::Avx512);
    const int lda = p.transA ? p.M : p.K, ldb = p.transB ? p.K : p.N;
    std::vector<float> want = p.C0, got = p.C0;
    ref.gemm(p.transA, p.transB, p.M, p.N, p.K, p.A.data(), lda, p.B.data(), ldb, want.data(), p.N, p.accumulate);
    k.gemm(p.transA, p.transB, p.M, p.N, p.K, p.A.data(), lda, p.B.data(), ldb, got.data(), p.N, p.accumulate);
    expectSame(got, want, std::string(k.gemmName) + " gemm " + p.name(), same);
    const int64_t aRow = p.transA ? 1 : lda, aCol = p.transA ? lda : 1;
    std::vector<float> packed(size_t(kernel::packedBFloats(p.K, p.N)));
    k.packB(p.K, p.N, p.B.data(), ldb, p.transB, packed.data());
    got = p.C0;
    k.gemmPacked(p.M, p.N, p.K, p.A.data(), aRow, aCol, packed.data(), got.data(), p.N, p.accumulate);
    expectSame(got, want, std::string(k.gemmName) + " gemmPacked " + p.name(), same);
    if (p.transB)
        return;
    got = p.C0;
    k.tileGemm(p.M, p.N, p.K, p.A.data(), aRow, aCol, p.B.data(), p.N, got.data(), p.N, p.accumulate);
    expectSame(got, want, std::string(k.gemmName) + " tileGemm " + p.name(), same);
}

// Random problems on shapes that cut each way: rows across 16 and 32, columns across the 8-column
// padding, the 16-column strips and the 32-column panels, K across the 16-pair steps, odd K, and K
// across the 256-value blocks of packing products.
template <class Each> void forEachProblem(Each each)
{
    const int shapes[][3] = {{1, 1, 1},    {3, 5, 2},      {12, 32, 64},  {13, 33, 65}, {25, 100, 3},
                             {5, 8, 513},  {40, 17, 1000}, {7, 200, 400}, {30, 72, 9},  {16, 16, 32},
                             {32, 32, 32}, {33, 48, 31},   {17, 24, 33},  {64, 64, 64}, {100, 40, 300}};
    uint64_t seed = 100;
    for (const auto& s : shapes)
        for (bool transA : {false, true})
            for (bool transB : {false, true})
                for (bool accumulate : {false, true}) {
                    Problem p{s[0], s[1], s[2], transA, transB, accumulate, {}, {}, {}};
                    p.A = fixtures::randomMatrix(size_t(p.M * p.K), ++seed);
                    p.B = fixtures::randomMatrix(size_t(p.K * p.N), ++seed);
                    p.C0 = fixtures::randomMatrix(size_t(p.M * p.N), ++seed);
                    each(p);
                }
}

// The edges of the range (kernels/bf16_reference.cpp's): zeros of both signs, subnormals, overflow,
// infinities, NaNs, ties.
template <class Each> void forEachEdgeProblem(Each each)
{
    const float edges[] = {0.0f,   -0.0f, 1e-39f, -1e-39f, 1.2e-38f, 3e38f,  -3e38f,   1.00390625f, 1.01171875f,
                           1e-20f, 1e20f, 1.5f,   -2.75f,  1e-19f,   6e-39f, INFINITY, -INFINITY,   NAN};
    Rng r(5);
    for (int trial = 0; trial < 200; ++trial) {
        Problem p{
            1 + int(r.next() % 40), 1 + int(r.next() % 40), 1 + int(r.next() % 40), false, false, true, {}, {}, {}};
        auto pick = [&](float normal) {
            return r.next() % 3 ? edges[r.next() % std::size(edges)] * (r.next() % 2 ? 1.0f : -1.0f) : normal;
        };
        p.A.resize(size_t(p.M * p.K));
        p.B.resize(size_t(p.K * p.N));
        p.C0.resize(size_t(p.M * p.N));
        for (float& x : p.A)
            x = pick(2.0f * r.uniform() - 1.0f);
        for (float& x : p.B)
            x = pick(1e-19f * r.uniform());
        for (float& x : p.C0)
            x = pick(r.uniform());
        each(p);
    }
}

// One training step of the Winograd model (its products through gemmPackedRows and gemmKRows too).
fixtures::Step trainingStep(const Dataset& d, const Kernels& kernels, int threads)
{
    return fixtures::trainingStep(d, kernels, threads, fixtures::winogradModelJson());
}

void emulatedTilesGiveTheReferenceBits(const Dataset& toy)
{
    const Kernels& emulated = amxEmulatedKernels();
    const auto exact = [](float got, float want, size_t) { return sameValue(got, want); };
    int problems = 0;
    forEachProblem([&](const Problem& p) {
        expectProducts(emulated, p, exact);
        ++problems;
    });
    forEachEdgeProblem([&](const Problem& p) {
        expectProducts(emulated, p, exact);
        ++problems;
    });
    const auto want = trainingStep(toy, bf16ReferenceKernels(Isa::Avx512), 1);
    for (int threads : {1, 2}) {
        const auto got = trainingStep(toy, emulated, threads);
        expectSame(got.gradient, want.gradient,
                   "emulated tiles, Winograd training step, threads " + std::to_string(threads), exact);
        check(got.loss == want.loss, "emulated tiles, Winograd training step: the loss");
    }
    std::printf("INFO   emulated tiles against the reference: %d problems, a Winograd training step\n", problems);
}

// Each element within the bound of FP32 sums in any order: |got - want| <= 2 K u sum |a b| (u = 2^-24),
// with sum |a b| over the rounded inputs and C's start.
void tilesStayWithinTheirBound(const Dataset& toy)
{
    const Kernels& tiles = bf16KernelsFor(Bf16Kernels::Amx);
    int problems = 0, differ = 0, elements = 0;
    forEachProblem([&](const Problem& p) {
        const int lda = p.transA ? p.M : p.K, ldb = p.transB ? p.K : p.N;
        const auto bound = [&](float got, float want, size_t index) {
            const int i = int(index) / p.N, j = int(index) % p.N;
            double scale = p.accumulate ? std::fabs(double(p.C0[index])) : 0.0;
            for (int k = 0; k < p.K; ++k) {
                const float a = p.A[size_t(p.transA ? k * lda + i : i * lda + k)];
                const float b = p.B[size_t(p.transB ? j * ldb + k : k * ldb + j)];
                scale += std::fabs(double(roundToBf16(a)) * double(roundToBf16(b)));
            }
            ++elements;
            differ += !sameValue(got, want);
            return std::fabs(double(got) - double(want)) <= 2.0 * (p.K + 1) * std::ldexp(1.0, -24) * scale;
        };
        expectProducts(tiles, p, bound);
        ++problems;
    });
    std::printf("INFO   AMX tiles within the bound: %d problems, %d of %d elements differ from the reference\n",
                problems, differ, elements);
    const auto one = trainingStep(toy, tiles, 1);
    check(std::isfinite(one.loss), "AMX tiles, Winograd training step: a finite loss");
    for (int threads : {2, 3}) {
        const auto got = trainingStep(toy, tiles, threads);
        expectSame(got.gradient, one.gradient, "AMX tiles, Winograd training step, threads " + std::to_string(threads),
                   [](float a, float b, size_t) { return std::memcmp(&a, &b, sizeof a) == 0; });
    }
}

// gemm, tileGemm and gemmPacked give one another's bits on the tiles too, however long K is: the
// packing products cut K in blocks of whole tile steps, none of fewer than 16 pairs (K = 513 left a
// block of one pair to vdpbf16ps, which sums otherwise).
void tileProductsAgree()
{
    const Kernels& tiles = bf16KernelsFor(Bf16Kernels::Amx);
    const auto bits = [](float a, float b, size_t) { return std::memcmp(&a, &b, sizeof a) == 0; };
    forEachProblem([&](const Problem& p) {
        if (p.transB)
            return;
        const int lda = p.transA ? p.M : p.K;
        const int64_t aRow = p.transA ? 1 : lda, aCol = p.transA ? lda : 1;
        std::vector<float> whole = p.C0, tile = p.C0, packedC = p.C0;
        tiles.gemm(p.transA, false, p.M, p.N, p.K, p.A.data(), lda, p.B.data(), p.N, whole.data(), p.N, p.accumulate);
        tiles.tileGemm(p.M, p.N, p.K, p.A.data(), aRow, aCol, p.B.data(), p.N, tile.data(), p.N, p.accumulate);
        std::vector<float> packed(size_t(kernel::packedBFloats(p.K, p.N)));
        tiles.packB(p.K, p.N, p.B.data(), p.N, false, packed.data());
        tiles.gemmPacked(p.M, p.N, p.K, p.A.data(), aRow, aCol, packed.data(), packedC.data(), p.N, p.accumulate);
        expectSame(tile, packedC, "AMX tiles: tileGemm against gemmPacked " + p.name(), bits);
        expectSame(whole, packedC, "AMX tiles: gemm against gemmPacked " + p.name(), bits);
    });
}

// Whole bf16 runs of the toy model on the tiles (the default bf16 kernels here): the same weights
// on 1 and 3 threads, and the loss goes down.
void tilesTrainTheSameOnAnyThreadCount(const Dataset& toy)
{
    auto train = [&](int threads) {
        Network net(parseModelSpec(fixtures::toyModelJson(), "model"),
                    Shape::image(toy.inputHeight(), toy.inputWidth(), 1), toy.numClasses);
        net.initialize(42);
        TrainConfig cfg;
        cfg.epochs = 3;
        cfg.batchSize = 50;
        cfg.seed = 42;
        cfg.device = parseDeviceSpec("cpu:" + std::to_string(threads) + "+bf16");
        Trainer t(net, toy, cfg);
        t.run();
        return std::make_pair(net.weightsSha256(), t.history());
    };
    const auto one = train(1), three = train(3);
    check(one.first == three.first, "AMX tiles: the weights on 1 and 3 threads differ");
    check(one.second.back().loss < one.second.front().loss, "AMX tiles: the loss did not go down");
    std::printf("INFO   AMX tiles, toy runs: weights %s on 1 and 3 threads, loss %.4f -> %.4f\n",
                one.first.substr(0, 16).c_str(), one.second.front().loss, one.second.back().loss);
}

} // namespace

int main()
{
    const std::string noBf16 = precisionUnavailableReason(Precision::Bf16, Isa::Avx512);
    if (!noBf16.empty()) {
        std::printf("SKIP   %s\n", noBf16.c_str());
        return 77;
    }
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("tst_amx_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    fixtures::writeToyDataset(dir.string(), 120, 40, 12, 3);
    const Dataset toy = loadDataset(dir.string());
    try {
        emulatedTilesGiveTheReferenceBits(toy);
        const std::string noTiles = bf16KernelsUnavailableReason(Bf16Kernels::Amx);
        if (noTiles.empty()) {
            check(defaultBf16Kernels() == Bf16Kernels::Amx, "bf16 does not run on the tiles by default");
            tilesStayWithinTheirBound(toy);
            tileProductsAgree();
            tilesTrainTheSameOnAnyThreadCount(toy);
        } else {
            std::printf("SKIP   the AMX tiles themselves: %s\n", noTiles.c_str());
        }
    } catch (const std::exception& e) {
        check(false, std::string("exception: ") + e.what());
    }
    std::filesystem::remove_all(dir);
    std::printf("%s: %d failures\n", g_failures ? "FAILED" : "PASSED", g_failures);
    return g_failures ? 1 : 0;
}
