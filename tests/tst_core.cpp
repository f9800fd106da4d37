// The engine's matrix kernels on every instruction-set level this CPU runs: the general GEMM and
// the small-product kernel against a double-precision reference, the same bits whatever blocks a
// product is cut into, AVX2 and AVX-512 identical to each other, the blocked transpose, and the
// level detection and overrides.
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/rng.hpp"
#include "environment.hpp"
#include "fixtures.hpp"
#include "kernels/kernels.hpp"

#include <QtTest>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace tb;

namespace {
using fixtures::randomMatrix;

// C = alpha op(A) op(B) + beta C in double, row-major with the given strides.
std::vector<double> referenceGemm(bool ta, bool tb, int M, int N, int K, double alpha, const std::vector<float>& A,
                                  int lda, const std::vector<float>& B, int ldb, double beta,
                                  const std::vector<float>& C, int ldc)
{
    std::vector<double> out(C.begin(), C.end());
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double s = 0;
            for (int k = 0; k < K; ++k)
                s += double(ta ? A[size_t(k * lda + i)] : A[size_t(i * lda + k)]) *
                     double(tb ? B[size_t(j * ldb + k)] : B[size_t(k * ldb + j)]);
            out[size_t(i * ldc + j)] = alpha * s + beta * C[size_t(i * ldc + j)];
        }
    return out;
}

void expectClose(const std::vector<float>& got, const std::vector<double>& want, double tol, const char* what)
{
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::fabs(got[i] - want[i]) <= tol * std::max(1.0, std::fabs(want[i])),
                 qPrintable(QString("%1: element %2 is %3, expected %4").arg(what).arg(i).arg(got[i]).arg(want[i])));
}
// The environment as `vars` holds it when it is read (the map lives on, and may change, between reads).
env::Lookup lookupIn(const std::map<std::string, std::string>& vars)
{
    return [&vars](const char* name) {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}
// Every level this CPU runs, as test rows.
void addLevelRows()
{
    QTest::addColumn<int>("isa");
    for (Isa isa : supportedIsas())
        QTest::newRow(isaName(isa)) << int(isa);
}
} // namespace

class TstCore : public QObject {
    Q_OBJECT
private slots:
    // The memory refusals measure against a control group's limit (a container's): beyond it the
    // kernel kills the process in silence. The lowest of the group's and its ancestors', v2 and v1;
    // "max" and v1's near-2^63 "no limit" are none. What is free is the tightest room left under one
    // of them, its clean page cache counted free (the kernel takes it back first) and its shared
    // memory (tmpfs files) not.
    void aControlGroupsMemoryLimitCounts()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        const auto write = [](const std::string& path, const std::string& text) {
            QVERIFY(QDir().mkpath(QFileInfo(QString::fromStdString(path)).path()));
            fixtures::writeRaw(path, text);
        };
        const auto group = [&](const std::string& self, const std::string& fs) {
            const tb::MemoryGroup g = tb::cgroupMemory(root + self, root + fs);
            return std::make_pair(g.limit, g.available);
        };
        constexpr uint64_t GiB = uint64_t(1) << 30;
        write(root + "/self", "0::/user.slice/job\n");
        write(root + "/fs/user.slice/job/memory.max", "max\n");
        QCOMPARE(group("/self", "/fs"), std::make_pair(uint64_t(0), uint64_t(0)));
        write(root + "/fs/user.slice/memory.max", "6442450944\n"); // 6 GiB on the parent, no use known
        QCOMPARE(group("/self", "/fs"), std::make_pair(6 * GiB, 6 * GiB));
        // The parent holds 5 GiB, 3 of them page cache, 1 of which tmpfs files: 3 GiB held, 3 free.
        write(root + "/fs/user.slice/memory.current", std::to_string(5 * GiB) + "\n");
        write(root + "/fs/user.slice/memory.stat",
              "anon 2147483648\nfile " + std::to_string(3 * GiB) + "\nkernel 0\nshmem " + std::to_string(GiB) + "\n");
        QCOMPARE(group("/self", "/fs"), std::make_pair(6 * GiB, 3 * GiB));
        // Half a GiB of it not yet written back to disk, dirty or under writeback: not free either.
        write(root + "/fs/user.slice/memory.stat",
              "anon 2147483648\nfile " + std::to_string(3 * GiB) + "\nkernel 0\nshmem " + std::to_string(GiB) +
                  "\nfile_dirty " + std::to_string(GiB / 4) + "\nfile_writeback " + std::to_string(GiB / 4) + "\n");
        QCOMPARE(group("/self", "/fs"), std::make_pair(6 * GiB, 3 * GiB - GiB / 2));
        // The job's own 4 GiB limit, of which it holds 2 (none of it cache): 2 free, the parent's 3
        // do not raise it; and a job over its limit has none.
        write(root + "/fs/user.slice/job/memory.max", std::to_string(4 * GiB) + "\n");
        write(root + "/fs/user.slice/job/memory.current", std::to_string(2 * GiB) + "\n");
        QCOMPARE(group("/self", "/fs"), std::make_pair(4 * GiB, 2 * GiB));
        write(root + "/fs/user.slice/job/memory.current", std::to_string(5 * GiB) + "\n");
        QCOMPARE(group("/self", "/fs"), std::make_pair(4 * GiB, uint64_t(0)));
        // v1, the memory controller among others, and a container whose view starts at its group: the
        // path named does not exist there, the root's files hold the limit and the use.
        write(root + "/self1", "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n");
        write(root + "/fs1/memory/memory.limit_in_bytes", "9223372036854771712\n");
        QCOMPARE(group("/self1", "/fs1").first, uint64_t(0));
        write(root + "/fs1/memory/memory.limit_in_bytes", "2147483648\n");
        write(root + "/fs1/memory/memory.usage_in_bytes", std::to_string(GiB) + "\n");
        write(root + "/fs1/memory/memory.stat", "cache 1\nrss 2\ntotal_cache " + std::to_string(GiB / 2) +
                                                    "\ntotal_rss 0\ntotal_shmem 0\ntotal_dirty 0\n");
        QCOMPARE(group("/self1", "/fs1"), std::make_pair(2 * GiB, 2 * GiB - GiB / 2));
        QCOMPARE(group("/missing", "/fs1"), std::make_pair(uint64_t(0), uint64_t(0)));
    }

    void gemmMatchesReference_data() { addLevelRows(); }
    void gemmMatchesReference()
    {
        QFETCH(int, isa);
        const Kernels& k = kernelsFor(Isa(isa));
        uint64_t seed = 1;
        for (int N : {21, 8, 40})
            for (bool ta : {false, true})
                for (bool tb : {false, true})
                    for (bool accumulate : {false, true}) {
                        const int M = 13, K = 37;
                        // Row strides wider than the rows, as the engine's column chunks use them.
                        const int lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 5, ldc = N + 2;
                        const auto A = randomMatrix(size_t((ta ? K : M) * lda), ++seed);
                        const auto B = randomMatrix(size_t((tb ? N : K) * ldb), ++seed);
                        auto C = randomMatrix(size_t(M * ldc), ++seed);
                        if (!accumulate)
                            std::fill(C.begin(), C.end(), std::nanf("")); // an overwrite must not read C
                        const auto want = referenceGemm(ta, tb, M, N, K, 1.0, A, lda, B, ldb, accumulate ? 1.0 : 0.0,
                                                        accumulate ? C : std::vector<float>(C.size(), 0.0f), ldc);
                        k.gemm(ta, tb, M, N, K, A.data(), lda, B.data(), ldb, C.data(), ldc, accumulate);
                        for (int i = 0; i < M; ++i) // the padding columns are not part of C
                            for (int j = N; j < ldc; ++j)
                                C[size_t(i * ldc + j)] = float(want[size_t(i * ldc + j)]);
                        expectClose(
                            C, want, 1e-5,
                            qPrintable(QString("N=%1 ta=%2 tb=%3 acc=%4").arg(N).arg(ta).arg(tb).arg(accumulate)));
                    }
    }

    void tileGemmMatchesReference_data() { addLevelRows(); }
    void tileGemmMatchesReference()
    {
        QFETCH(int, isa);
        const Kernels& k = kernelsFor(Isa(isa));
        // Row counts around the block heights (6, 12) and every column shape, with 1..7-column tails.
        for (int M : {1, 5, 12, 13, 49})
            for (int N : {1, 8, 10, 16, 24, 25, 32, 40, 72})
                for (bool accumulate : {false, true}) {
                    const int K = 19;
                    // A read transposed through its strides: A[i][k] = At[k][i].
                    const auto At = randomMatrix(size_t(K * M), uint64_t(M * 100 + N));
                    const auto B = randomMatrix(size_t(K * N), uint64_t(M * 100 + N + 1));
                    auto C = randomMatrix(size_t(M * N), uint64_t(M * 100 + N + 2));
                    const auto want =
                        referenceGemm(true, false, M, N, K, 1.0, At, M, B, N, accumulate ? 1.0 : 0.0, C, N);
                    k.tileGemm(M, N, K, At.data(), 1, M, B.data(), N, C.data(), N, accumulate);
                    expectClose(C, want, 1e-5, qPrintable(QString("M=%1 N=%2").arg(M).arg(N)));
                }
    }

    // Each element is one chain of multiply-adds in k order: cutting the product into row blocks,
    // column blocks or k ranges (continued with accumulate) gives the same bits.
    void tileGemmIgnoresBlockCuts_data() { addLevelRows(); }
    void tileGemmIgnoresBlockCuts()
    {
        QFETCH(int, isa);
        const Kernels& k = kernelsFor(Isa(isa));
        const int M = 29, N = 75, K = 300;
        const auto A = randomMatrix(size_t(M * K), 11), B = randomMatrix(size_t(K * N), 12);
        std::vector<float> whole(size_t(M * N)), cut(size_t(M * N));
        k.tileGemm(M, N, K, A.data(), K, 1, B.data(), N, whole.data(), N, false);
        const int rows[] = {0, 1, 8, 20, M}, cols[] = {0, 16, 24, 67, N}, ks[] = {0, 100, 257, K};
        for (int r = 0; r + 1 < 5; ++r)
            for (int c = 0; c + 1 < 5; ++c)
                for (int q = 0; q + 1 < 4; ++q)
                    k.tileGemm(rows[r + 1] - rows[r], cols[c + 1] - cols[c], ks[q + 1] - ks[q],
                               A.data() + rows[r] * K + ks[q], K, 1, B.data() + ks[q] * N + cols[c], N,
                               cut.data() + rows[r] * N + cols[c], N, q > 0);
        QCOMPARE(cut, whole);
    }

    // B packed once (an LSTM's recurrent matrix) gives tileGemm's bits, with B read directly or
    // transposed, every column shape and tail, and A through row strides wider than its rows; gemm,
    // which packs B's panels itself when several row blocks read them, too (above the baseline,
    // whose gemm is Eigen's).
    void gemmPackedGivesTileGemmBits_data() { addLevelRows(); }
    void gemmPackedGivesTileGemmBits()
    {
        QFETCH(int, isa);
        const Kernels& k = kernelsFor(Isa(isa));
        uint64_t seed = 100;
        for (int K : {23, 300}) // 300: gemm's blocks of k (128, 128, 44) continue each sum
            for (int M : {1, 5, 7, 13, 49})
                for (int N : {1, 8, 10, 16, 24, 25, 40, 72})
                    for (bool transB : {false, true})
                        for (bool accumulate : {false, true}) {
                            const int lda = K + 9, ldb = (transB ? K : N) + 3, ldc = N + 4;
                            const auto A = randomMatrix(size_t(M * lda), ++seed);
                            const auto B = randomMatrix(size_t((transB ? N : K) * ldb), ++seed);
                            std::vector<float> Bkn(size_t(K * N)); // B as K x N for tileGemm
                            for (int kk = 0; kk < K; ++kk)
                                for (int j = 0; j < N; ++j)
                                    Bkn[size_t(kk * N + j)] =
                                        transB ? B[size_t(j * ldb + kk)] : B[size_t(kk * ldb + j)];
                            const auto C0 = randomMatrix(size_t(M * ldc), ++seed);
                            auto want = C0, packedC = C0, gemmC = C0;
                            k.tileGemm(M, N, K, A.data(), lda, 1, Bkn.data(), N, want.data(), ldc, accumulate);
                            std::vector<float> packed(size_t(kernel::packedBFloats(K, N)), std::nanf(""));
                            k.packB(K, N, B.data(), ldb, transB, packed.data());
                            k.gemmPacked(M, N, K, A.data(), lda, 1, packed.data(), packedC.data(), ldc, accumulate);
                            const QString what =
                                QString("M=%1 N=%2 transB=%3 acc=%4").arg(M).arg(N).arg(transB).arg(accumulate);
                            QVERIFY2(packedC == want, qPrintable("gemmPacked " + what)); // C's padding untouched too
                            if (Isa(isa) == Isa::Baseline)
                                continue;
                            k.gemm(false, transB, M, N, K, A.data(), lda, B.data(), ldb, gemmC.data(), ldc, accumulate);
                            QVERIFY2(gemmC == want, qPrintable("gemm " + what));
                        }
    }

    // Both levels fuse every multiply-add: the same bits at 8 and 16 lanes.
    void avx2AndAvx512AgreeToTheBit()
    {
        if (!isaSupported(Isa::Avx512))
            QSKIP("this CPU has no AVX-512");
        const Kernels &a = kernelsFor(Isa::Avx2), &b = kernelsFor(Isa::Avx512);
        const int M = 37, N = 59, K = 131;
        const auto A = randomMatrix(size_t(M * K), 21), B = randomMatrix(size_t(K * N), 22);
        std::vector<float> ca(size_t(M * N)), cb(size_t(M * N));
        a.tileGemm(M, N, K, A.data(), K, 1, B.data(), N, ca.data(), N, false);
        b.tileGemm(M, N, K, A.data(), K, 1, B.data(), N, cb.data(), N, false);
        QCOMPARE(ca, cb);
        a.gemm(true, true, N, M, K, B.data(), N, A.data(), K, ca.data(), M, false);
        b.gemm(true, true, N, M, K, B.data(), N, A.data(), K, cb.data(), M, false);
        QCOMPARE(ca, cb);
    }

    void transposeMatrixMovesEveryElement_data() { addLevelRows(); }
    void transposeMatrixMovesEveryElement()
    {
        QFETCH(int, isa);
        const Kernels& k = kernelsFor(Isa(isa));
        for (int rows : {1, 7, 8, 17, 64})
            for (int cols : {1, 8, 12, 49}) {
                const int lds = cols + 3, ldd = rows + 5;
                const auto src = randomMatrix(size_t(rows * lds), uint64_t(rows * 100 + cols));
                std::vector<float> dst(size_t(cols * ldd), -7.0f);
                k.transpose(src.data(), rows, cols, lds, dst.data(), ldd);
                for (int j = 0; j < cols; ++j)
                    for (int i = 0; i < ldd; ++i) // the padding past each row stays untouched
                        QCOMPARE(dst[size_t(j * ldd + i)], i < rows ? src[size_t(i * lds + j)] : -7.0f);
            }
    }

    void levelsAreDetectedAndNamed()
    {
        // Every x86-64-v2 CPU runs the baseline; the levels are ordered and the best is supported.
        QVERIFY(isaSupported(Isa::Baseline));
        QVERIFY(isaSupported(detectIsa()));
        if (isaSupported(Isa::Avx512))
            QVERIFY(isaSupported(Isa::Avx2));
        for (Isa isa : supportedIsas()) {
            QCOMPARE(parseIsa(isaName(isa)), isa);
            QCOMPARE(kernelsFor(isa).isa, isa);
            QVERIFY(describeKernels(kernelsFor(isa)).find(isaName(isa)) == 0);
        }
        QVERIFY_THROWS_EXCEPTION(ConfigError, parseIsa("sse9"));
    }

    // TRAINBENCH_ISA, read by the front ends (app/environment), picks a lower level; an unknown one
    // or one the CPU lacks is a clear error naming the variable, and leaves the level as it was.
    void environmentOverride()
    {
        const Isa before = defaultIsa();
        const auto lookup = [](const char* isa) {
            return [isa](const char* name) { return std::strcmp(name, "TRAINBENCH_ISA") == 0 ? isa : nullptr; };
        };
        env::applyToEngine(lookup("baseline"));
        QCOMPARE(defaultIsa(), Isa::Baseline);
        try {
            env::applyToEngine(lookup("avx3"));
            QFAIL("an unknown level was accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("TRAINBENCH_ISA=avx3") && QString(e.what()).contains("avx512"),
                     e.what());
        }
        QCOMPARE(defaultIsa(), Isa::Baseline);
        if (!isaSupported(Isa::Avx512)) {
            try {
                env::applyToEngine(lookup("avx512"));
                QFAIL("a level the CPU lacks was accepted");
            } catch (const ConfigError& e) {
                QVERIFY2(QString(e.what()).contains("TRAINBENCH_ISA=avx512: this CPU has no AVX-512"), e.what());
            }
        }
        env::applyToEngine(lookup(nullptr)); // unset: the level stays as set
        QCOMPARE(defaultIsa(), Isa::Baseline);
        setDefaultIsa(before);
    }

    // TRAINBENCH_BF16_KERNELS picks the bf16 products; an unknown name, or kernels this CPU cannot
    // run, is an error naming the variable and the reason, and leaves the choice as it was.
    void bf16KernelsFromTheEnvironment()
    {
        if (!precisionUnavailableReason(Precision::Bf16, Isa::Avx512).empty())
            QSKIP("no bf16 on this CPU: TRAINBENCH_BF16_KERNELS has nothing to choose");
        const Bf16Kernels before = defaultBf16Kernels();
        const auto lookup = [](const char* kernels) {
            return [kernels](const char* name) {
                return std::strcmp(name, "TRAINBENCH_BF16_KERNELS") == 0 ? kernels : nullptr;
            };
        };
        env::applyToEngine(lookup("avx512bf16"));
        QCOMPARE(defaultBf16Kernels(), Bf16Kernels::Avx512Bf16);
        QVERIFY(std::string(kernelsFor(Isa::Avx512, Precision::Bf16).gemmName).find("AVX512_BF16") !=
                std::string::npos);
        try {
            env::applyToEngine(lookup("amx-int8"));
            QFAIL("unknown bf16 kernels were accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("TRAINBENCH_BF16_KERNELS=amx-int8: unknown bf16 kernels") &&
                         QString(e.what()).contains("avx512bf16 or amx"),
                     e.what());
        }
        if (const std::string noTiles = bf16KernelsUnavailableReason(Bf16Kernels::Amx); !noTiles.empty()) {
            try {
                env::applyToEngine(lookup("amx"));
                QFAIL("AMX was accepted on a CPU that cannot run it");
            } catch (const ConfigError& e) {
                QCOMPARE(QString(e.what()), QString::fromStdString("TRAINBENCH_BF16_KERNELS=amx: " + noTiles));
            }
        }
        QCOMPARE(defaultBf16Kernels(), Bf16Kernels::Avx512Bf16);
        setDefaultBf16Kernels(before);
    }

    // Each variable is applied or refused on its own: a bad one does not keep a good one from taking
    // effect, and the error names every bad one.
    void environmentSettingsOneByOne()
    {
        const Isa before = defaultIsa();
        std::map<std::string, std::string> vars = {{"TRAINBENCH_ISA", "baseline"},
                                                   {"TRAINBENCH_BF16_KERNELS", "tiles"}};
        const env::Lookup lookup = lookupIn(vars);
        try {
            env::applyToEngine(lookup);
            QFAIL("unknown bf16 kernels were accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).startsWith("TRAINBENCH_BF16_KERNELS=tiles: "), e.what());
        }
        QCOMPARE(defaultIsa(), Isa::Baseline);
        vars["TRAINBENCH_ISA"] = "avx3";
        vars["TRAINBENCH_OPENCL_MEMORY_LIMIT"] = "lots";
        try {
            env::applyToEngine(lookup);
            QFAIL("three bad settings were accepted");
        } catch (const ConfigError& e) {
            const QStringList parts = QString(e.what()).split("; ");
            QCOMPARE(parts.size(), 3);
            QVERIFY2(parts[0].startsWith("TRAINBENCH_ISA=avx3: "), e.what());
            QVERIFY2(parts[1].startsWith("TRAINBENCH_BF16_KERNELS=tiles: "), e.what());
            QVERIFY2(parts[2].startsWith("TRAINBENCH_OPENCL_MEMORY_LIMIT=lots: "), e.what());
        }
        setDefaultIsa(before);
    }

    // The MPI launch and the folders, from the variables mpirun, srun and the XDG spec set.
    void environmentOfTheProcess()
    {
        std::map<std::string, std::string> vars;
        const env::Lookup lookup = lookupIn(vars);
        ProcessLaunch alone = env::processLaunch(lookup);
        QVERIFY(!alone.byLauncher);
        QCOMPARE(alone.mpiTimeoutSeconds, 60.0);
        QVERIFY(processCommunicator(alone) == nullptr); // a single process never touches MPI
        vars = {{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}, {"TRAINBENCH_MPI_TIMEOUT", "2.5"}};
        const ProcessLaunch ompi = env::processLaunch(lookup);
        QVERIFY(ompi.byLauncher);
        QCOMPARE(ompi.size, 4);
        QCOMPARE(ompi.rank, 3);
        QCOMPARE(ompi.mpiTimeoutSeconds, 2.5);
        vars = {{"PMIX_RANK", "1"}};
        QVERIFY(env::processLaunch(lookup).byLauncher);
        QCOMPARE(env::processLaunch(lookup).rank, 1);
        // Refused where the communicator is made, not where the launch is read: the error path reads it too.
        for (const char* bad : {"0", "-3", "soon", "1e999"}) {
            vars = {{"TRAINBENCH_MPI_TIMEOUT", bad}};
            const ProcessLaunch launch = env::processLaunch(lookup);
            QCOMPARE(launch.timeoutProblem,
                     "TRAINBENCH_MPI_TIMEOUT=" + std::string(bad) + ": expected a positive number of seconds");
            QVERIFY_THROWS_EXCEPTION(ConfigError, processCommunicator(launch));
        }
        vars = {{"XDG_DATA_HOME", "/data"}, {"HOME", "/home/ana"}, {"XDG_CACHE_HOME", "/cache"}};
        QCOMPARE(env::runsDir(lookup), std::string("/data/trainbench/runs"));
        QCOMPARE(env::kernelCacheDir(lookup), std::string("/cache/trainbench"));
        vars = {{"XDG_DATA_HOME", "relative"}, {"HOME", "/home/ana"}};
        QCOMPARE(env::runsDir(lookup), std::string("/home/ana/.local/share/trainbench/runs"));
    }
};

QTEST_GUILESS_MAIN(TstCore)
#include "tst_core.moc"
