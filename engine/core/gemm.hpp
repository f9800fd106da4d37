// The one matrix-product entry point of the engine: row-major single-precision GEMM through Eigen
// (which hands it to OpenBLAS when built with TRAINBENCH_USE_BLAS). Always single-threaded: the
// engine parallelizes over batch shards itself, so results never depend on the thread count.
#pragma once

namespace tb {

// C = alpha * op(A) * op(B) + beta * C, all row-major; op(A) is M x K, op(B) is K x N.
// lda/ldb/ldc are the row strides of A, B and C as stored.
void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
          const float* B, int ldb, float beta, float* C, int ldc);

// Called once per process before the first gemm: pins the BLAS to one thread.
void initGemm();

// "OpenBLAS 0.3.21 (Haswell)" or "Eigen 3.4.0".
const char* gemmBackendName();

}  // namespace tb
