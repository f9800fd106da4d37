// The engine's matrix kernels: gemm() on each backend and the small-product kernel against a
// double-precision reference, the choice between OpenBLAS and Eigen, and the blocked transpose.
#include "core/gemm.hpp"
#include "core/rng.hpp"
#include "core/tile_gemm.hpp"
#include "core/transpose.hpp"

#include <QtTest>
#include <cmath>
#include <vector>

using namespace tb;

namespace {
std::vector<float> randomMatrix(size_t n, uint64_t seed)
{
    Rng r(seed);
    std::vector<float> v(n);
    for (auto& x : v)
        x = 2.0f * r.uniform() - 1.0f;
    return v;
}

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
} // namespace

class TstCore : public QObject {
    Q_OBJECT
private slots:
    void gemmMatchesReference_data()
    {
        QTest::addColumn<int>("backend");
        QTest::newRow("eigen") << int(GemmBackend::Eigen);
        if (gemmHasOpenBlas())
            QTest::newRow("openblas") << int(GemmBackend::OpenBlas);
    }
    void gemmMatchesReference()
    {
        QFETCH(int, backend);
        setGemmBackend(GemmBackend(backend));
        QCOMPARE(int(gemmBackend()), backend);
        const int M = 13, N = 21, K = 37;
        uint64_t seed = 1;
        for (bool ta : {false, true})
            for (bool tb : {false, true})
                for (float beta : {0.0f, 1.0f, 0.5f}) {
                    // Row strides wider than the rows, as the engine's column chunks use them.
                    const int lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 5, ldc = N + 2;
                    const auto A = randomMatrix(size_t((ta ? K : M) * lda), ++seed);
                    const auto B = randomMatrix(size_t((tb ? N : K) * ldb), ++seed);
                    auto C = randomMatrix(size_t(M * ldc), ++seed);
                    if (beta == 0.0f)
                        std::fill(C.begin(), C.end(), std::nanf("")); // beta 0 must not read C
                    const auto want = referenceGemm(ta, tb, M, N, K, 0.75, A, lda, B, ldb, beta,
                                                    beta == 0.0f ? std::vector<float>(C.size(), 0.0f) : C, ldc);
                    gemm(ta, tb, M, N, K, 0.75f, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
                    for (int i = 0; i < M; ++i) // the padding columns are not part of C
                        for (int j = N; j < ldc; ++j)
                            C[size_t(i * ldc + j)] = float(want[size_t(i * ldc + j)]);
                    expectClose(C, want, 1e-5, qPrintable(QString("ta=%1 tb=%2 beta=%3").arg(ta).arg(tb).arg(beta)));
                }
        setGemmBackend(GemmBackend::OpenBlas); // back to the default where there is one
    }

    void tileGemmMatchesReference()
    {
        // Row counts around the block heights (6, 12) and every column shape (8, 16, 24, 32 and more).
        for (int M : {1, 5, 12, 13, 49})
            for (int N : {8, 16, 24, 32, 40, 72})
                for (bool accumulate : {false, true}) {
                    const int K = 19;
                    // A read transposed through its strides: A[i][k] = At[k][i].
                    const auto At = randomMatrix(size_t(K * M), uint64_t(M * 100 + N));
                    const auto B = randomMatrix(size_t(K * N), uint64_t(M * 100 + N + 1));
                    auto C = randomMatrix(size_t(M * N), uint64_t(M * 100 + N + 2));
                    const auto want =
                        referenceGemm(true, false, M, N, K, 1.0, At, M, B, N, accumulate ? 1.0 : 0.0, C, N);
                    tileGemm(M, N, K, At.data(), 1, M, B.data(), N, C.data(), N, accumulate);
                    expectClose(C, want, 1e-5, qPrintable(QString("M=%1 N=%2").arg(M).arg(N)));
                }
    }

    void transposeMatrixMovesEveryElement()
    {
        for (int rows : {1, 7, 8, 17, 64})
            for (int cols : {1, 8, 12, 49}) {
                const int lds = cols + 3, ldd = rows + 5;
                const auto src = randomMatrix(size_t(rows * lds), uint64_t(rows * 100 + cols));
                std::vector<float> dst(size_t(cols * ldd), -7.0f);
                transposeMatrix(src.data(), rows, cols, lds, dst.data(), ldd);
                for (int j = 0; j < cols; ++j)
                    for (int i = 0; i < ldd; ++i) // the padding past each row stays untouched
                        QCOMPARE(dst[size_t(j * ldd + i)], i < rows ? src[size_t(i * lds + j)] : -7.0f);
            }
    }

    void openBlasKernelWidths()
    {
        QCOMPARE(openBlasKernelBits("SkylakeX"), 512);
        QCOMPARE(openBlasKernelBits("Cooperlake"), 512);
        QCOMPARE(openBlasKernelBits("Haswell"), 256);
        QCOMPARE(openBlasKernelBits("Zen"), 256);
        QCOMPARE(openBlasKernelBits("Prescott"), 128);
        QCOMPARE(openBlasKernelBits("Sandybridge"), 128);
        QVERIFY(eigenKernelBits() >= 128);
    }

    // Run by CTest a second time with OPENBLAS_CORETYPE=Prescott, which is what OpenBLAS picks on a
    // CPU newer than its table: then the engine must not use those kernels when Eigen has wider ones.
    void oldOpenBlasKernelsAreNotUsed()
    {
        initGemm();
        const QByteArray forced = qgetenv("OPENBLAS_CORETYPE");
        if (!gemmHasOpenBlas() || forced != "Prescott")
            QSKIP("needs OpenBLAS and OPENBLAS_CORETYPE=Prescott (the tst_core_old_openblas CTest entry)");
        const QString name = QString::fromLatin1(gemmBackendName());
        if (eigenKernelBits() > 128) {
            QCOMPARE(int(gemmBackend()), int(GemmBackend::Eigen));
            QVERIFY2(name.startsWith("Eigen") && name.contains("Prescott"), qPrintable(name));
        } else {
            QCOMPARE(int(gemmBackend()), int(GemmBackend::OpenBlas));
            QCOMPARE(name, QString("OpenBLAS (Prescott)"));
        }
    }
};

QTEST_GUILESS_MAIN(TstCore)
#include "tst_core.moc"
