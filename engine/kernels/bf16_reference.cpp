// The bf16 products one element at a time (kernels/isa.hpp's bf16ReferenceKernels): what the
// AVX512_BF16 kernels (kernels/gemm_bf16.cpp) compute, written as vdpbf16ps is specified. Each C
// element starts from C (read as zero when subnormal) or zero, then for each pair of k (2p, 2p+1;
// an odd K's last pair has a zero second half) adds the odd product, then the even one; each
// addition is a fused multiply-add rounded to nearest even, a subnormal result flushed to zero. A
// product of two bf16 values is exact in FP32, so the fused form only matters at the edges of the
// range.
#include "kernels/bf16_reference.hpp"

#include "kernels/bf16.hpp"

#include <cmath>
#include <cstring>

namespace tb::bf16_reference {

namespace {
float flushed(float x)
{
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// One element: sum over k of a(k) b(k), a(k) = A[k * aStep], b(k) = B[k * bStep].
float element(float start, int K, const float* A, int64_t aStep, const float* B, int64_t bStep)
{
    float acc = flushed(start);
    for (int k = 0; k < K; k += 2) {
        const bool odd = k + 1 < K;
        const float a1 = odd ? roundToBf16(A[(k + 1) * aStep]) : 0.0f,
                    b1 = odd ? roundToBf16(B[(k + 1) * bStep]) : 0.0f;
        acc = flushed(std::fma(a1, b1, acc));
        acc = flushed(std::fma(roundToBf16(A[k * aStep]), roundToBf16(B[k * bStep]), acc));
    }
    return acc;
}

void product(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t bRow,
             int64_t bCol, float* C, int64_t ldc, bool accumulate)
{
    if (K <= 0 && accumulate)
        return; // C as it is (the fast kernels do not read it)
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float& c = C[i * ldc + j];
            c = element(accumulate ? c : 0.0f, K, A + i * aRow, aCol, B + j * bCol, bRow);
        }
}
} // namespace

void tileGemm(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
              int64_t ldc, bool accumulate)
{
    product(M, N, K, A, aRow, aCol, B, ldb, 1, C, ldc, accumulate);
}

void gemm(bool transA, bool transB, int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
          int ldc, bool accumulate)
{
    product(M, N, K, A, transA ? 1 : lda, transA ? lda : 1, B, transB ? 1 : ldb, transB ? ldb : 1, C, ldc, accumulate);
}

// This table's own layout: B as it is, K x N row-major (K * N <= packedBFloats(K, N)).
void packB(int K, int N, const float* B, int64_t ldb, bool transB, float* packed)
{
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j)
            packed[int64_t(k) * N + j] = transB ? B[j * ldb + k] : B[k * ldb + j];
}

void gemmPacked(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* packed, float* C,
                int64_t ldc, bool accumulate)
{
    product(M, N, K, A, aRow, aCol, packed, N, 1, C, ldc, accumulate);
}

// This table's rows are FP32 rows, rounded as they are multiplied.
void gemmPackedRows(int M, int N, int K, const float* A, int64_t aRow, const float* packed, float* C, int64_t ldc,
                    bool accumulate)
{
    product(M, N, K, A, aRow, 1, packed, N, 1, C, ldc, accumulate);
}

// And its k-rows are FP32 rows.
void gemmKRows(int M, int N, int K, const float* A, int64_t lda, const float* B, float* C, int64_t ldc, bool accumulate)
{
    product(M, N, K, A, 1, lda, B, N, 1, C, ldc, accumulate);
}

} // namespace tb::bf16_reference
