// The one matrix-product entry point of the engine: row-major single-precision GEMM through
// OpenBLAS (when built with TRAINBENCH_USE_BLAS) or Eigen's own product. Always single-threaded:
// the engine parallelizes over batch shards itself, so results never depend on the thread count.
//
// OpenBLAS picks its kernels at load time from a table of CPU models; on a CPU newer than its
// table it falls back to old SSE3 kernels ("Prescott"), 3-5x slower than this machine can do.
// So the engine uses OpenBLAS only where its kernels are at least as wide as the vectors Eigen was
// compiled for, and Eigen otherwise; gemmBackendName() says which and why.
#pragma once

#include <string_view>

namespace tb {

// C = alpha * op(A) * op(B) + beta * C, all row-major; op(A) is M x K, op(B) is K x N.
// lda/ldb/ldc are the row strides of A, B and C as stored.
void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda, const float* B, int ldb,
          float beta, float* C, int ldc);

// Called once per process before the first gemm: pins the BLAS to one thread and picks the backend.
void initGemm();

// "OpenBLAS (SkylakeX)", "Eigen 3.4.0", or "Eigen 3.4.0 (OpenBLAS would use Prescott kernels)".
const char* gemmBackendName();

enum class GemmBackend { OpenBlas, Eigen };
GemmBackend gemmBackend();
// Tests run both backends through the same checks.
void setGemmBackend(GemmBackend backend);
bool gemmHasOpenBlas(); // built with TRAINBENCH_USE_BLAS

// Vector width in bits of the sgemm kernels OpenBLAS uses for a core it names ("SkylakeX": 512,
// "Haswell" and "Zen": 256, "Prescott": 128).
int openBlasKernelBits(std::string_view coreName);
// Vector width in bits Eigen's kernels were compiled for (512, 256 or 128).
int eigenKernelBits();

} // namespace tb
