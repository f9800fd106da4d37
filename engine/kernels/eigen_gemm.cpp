#include "kernels/eigen_gemm.hpp"

#include <Eigen/Core>

#include <cstring>
#include <mutex>

namespace tb {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using Map = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

template <typename LA, typename LB> void product(Map& c, const LA& a, const LB& b, bool accumulate)
{
    if (accumulate)
        c.noalias() += a * b;
    else
        c.noalias() = a * b;
}
} // namespace

const char kEigenGemmName[] = "Eigen " EIGEN_MAKESTRING(EIGEN_WORLD_VERSION) "." EIGEN_MAKESTRING(
    EIGEN_MAJOR_VERSION) "." EIGEN_MAKESTRING(EIGEN_MINOR_VERSION);

void eigenGemm(bool transA, bool transB, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    Map c(C, M, N, Eigen::OuterStride<>(ldc));
    if (K <= 0) {
        if (!accumulate)
            c.setZero();
        return;
    }
    // Eigen sizes its blocks from the cache sizes CPUID reports, and the blocks decide the order in
    // which a product's terms are summed: fixed sizes make the baseline's results the same on
    // every CPU (tests/qemu_portability.sh compares an emulated Nehalem's weights with this one's).
    static std::once_flag fixedBlocking;
    std::call_once(fixedBlocking, [] { Eigen::setCpuCacheSizes(32 << 10, 512 << 10, 8 << 20); });
    // A stored row-major is either M x K (no transpose) or K x M (transposed).
    ConstMap a(A, transA ? K : M, transA ? M : K, Eigen::OuterStride<>(lda));
    ConstMap b(B, transB ? N : K, transB ? K : N, Eigen::OuterStride<>(ldb));
    if (!transA && !transB)
        product(c, a, b, accumulate);
    else if (transA && !transB)
        product(c, a.transpose(), b, accumulate);
    else if (!transA && transB)
        product(c, a, b.transpose(), accumulate);
    else
        product(c, a.transpose(), b.transpose(), accumulate);
}

} // namespace tb
