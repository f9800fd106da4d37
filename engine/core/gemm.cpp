#include "core/gemm.hpp"

#include <Eigen/Core>
#include <atomic>
#include <mutex>
#include <string>

#ifdef TRAINBENCH_OPENBLAS
// Declared here rather than through cblas.h, whose location differs between OpenBLAS builds.
// The CBLAS enums are ints: CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112.
extern "C" {
void cblas_sgemm(int order, int transA, int transB, int M, int N, int K, float alpha, const float* A, int lda,
                 const float* B, int ldb, float beta, float* C, int ldc);
void openblas_set_num_threads(int);
char* openblas_get_corename(void);
}
#endif

namespace tb {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using Map = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

template <typename LA, typename LB> void product(Map& c, const LA& a, const LB& b, float alpha, float beta)
{
    if (beta == 0.0f) {
        c.noalias() = alpha * (a * b);
    } else {
        if (beta != 1.0f)
            c *= beta;
        c.noalias() += alpha * (a * b);
    }
}

void eigenGemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda, const float* B,
               int ldb, float beta, float* C, int ldc)
{
    Map c(C, M, N, Eigen::OuterStride<>(ldc));
    // A stored row-major is either M x K (no transpose) or K x M (transposed).
    ConstMap a(A, transA ? K : M, transA ? M : K, Eigen::OuterStride<>(lda));
    ConstMap b(B, transB ? N : K, transB ? K : N, Eigen::OuterStride<>(ldb));
    if (!transA && !transB)
        product(c, a, b, alpha, beta);
    else if (transA && !transB)
        product(c, a.transpose(), b, alpha, beta);
    else if (!transA && transB)
        product(c, a, b.transpose(), alpha, beta);
    else
        product(c, a.transpose(), b.transpose(), alpha, beta);
}

const std::string kEigenName = "Eigen " EIGEN_MAKESTRING(EIGEN_WORLD_VERSION) "." EIGEN_MAKESTRING(
    EIGEN_MAJOR_VERSION) "." EIGEN_MAKESTRING(EIGEN_MINOR_VERSION);

std::atomic<GemmBackend> g_backend{GemmBackend::Eigen};
// Written once, in initGemm.
std::string g_openBlasName;
std::string g_eigenName = kEigenName;
} // namespace

int openBlasKernelBits(std::string_view core)
{
    for (std::string_view wide : {"SkylakeX", "Cooperlake", "SapphireRapids"})
        if (core == wide)
            return 512;
    for (std::string_view avx2 : {"Haswell", "Zen", "Excavator"})
        if (core == avx2)
            return 256;
    return 128; // Prescott, Core2, Nehalem, Sandybridge (AVX without FMA), ...
}

int eigenKernelBits()
{
#if defined(__AVX512F__)
    return 512;
#elif defined(__AVX2__) && defined(__FMA__)
    return 256;
#else
    return 128;
#endif
}

bool gemmHasOpenBlas()
{
#ifdef TRAINBENCH_OPENBLAS
    return true;
#else
    return false;
#endif
}

void initGemm()
{
    static std::once_flag once;
    std::call_once(once, [] {
        Eigen::setNbThreads(1);
#ifdef TRAINBENCH_OPENBLAS
        openblas_set_num_threads(1);
        const std::string core = openblas_get_corename();
        g_openBlasName = "OpenBLAS (" + core + ")";
        if (openBlasKernelBits(core) >= eigenKernelBits())
            g_backend = GemmBackend::OpenBlas;
        else
            g_eigenName = kEigenName + " (OpenBLAS would use " + core + " kernels on this CPU)";
#endif
    });
}

const char* gemmBackendName()
{
    initGemm();
    return gemmBackend() == GemmBackend::OpenBlas ? g_openBlasName.c_str() : g_eigenName.c_str();
}

GemmBackend gemmBackend()
{
    return g_backend.load(std::memory_order_relaxed);
}

void setGemmBackend(GemmBackend backend)
{
    initGemm();
    g_backend = gemmHasOpenBlas() ? backend : GemmBackend::Eigen;
}

void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
          float beta, float* C, int ldc)
{
    if (M == 0 || N == 0)
        return;
    if (K == 0) {
        Map c(C, M, N, Eigen::OuterStride<>(ldc));
        if (beta == 0.0f)
            c.setZero();
        else
            c *= beta;
        return;
    }
#ifdef TRAINBENCH_OPENBLAS
    if (gemmBackend() == GemmBackend::OpenBlas) {
        cblas_sgemm(101, transA ? 112 : 111, transB ? 112 : 111, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
#endif
    eigenGemm(transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

} // namespace tb
