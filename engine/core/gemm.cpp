#include "core/gemm.hpp"

#include <Eigen/Core>
#include <mutex>
#include <string>

#ifdef TRAINBENCH_OPENBLAS
extern "C" {
void openblas_set_num_threads(int);
char* openblas_get_config(void);
char* openblas_get_corename(void);
}
#endif

namespace tb {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using Map = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

template <typename LA, typename LB>
void product(Map& c, const LA& a, const LB& b, float alpha, float beta)
{
    if (beta == 0.0f) {
        c.noalias() = alpha * (a * b);
    } else {
        if (beta != 1.0f)
            c *= beta;
        c.noalias() += alpha * (a * b);
    }
}
}  // namespace

void initGemm()
{
    static std::once_flag once;
    std::call_once(once, [] {
#ifdef TRAINBENCH_OPENBLAS
        openblas_set_num_threads(1);
#endif
        Eigen::setNbThreads(1);
    });
}

const char* gemmBackendName()
{
#ifdef TRAINBENCH_OPENBLAS
    static const std::string name = std::string("OpenBLAS (") + openblas_get_corename() + ")";
    return name.c_str();
#else
    return "Eigen " EIGEN_MAKESTRING(EIGEN_WORLD_VERSION) "." EIGEN_MAKESTRING(EIGEN_MAJOR_VERSION) "." EIGEN_MAKESTRING(EIGEN_MINOR_VERSION);
#endif
}

void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
          const float* B, int ldb, float beta, float* C, int ldc)
{
    if (M == 0 || N == 0)
        return;
    Map c(C, M, N, Eigen::OuterStride<>(ldc));
    if (K == 0) {
        if (beta == 0.0f)
            c.setZero();
        else
            c *= beta;
        return;
    }
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

}  // namespace tb
