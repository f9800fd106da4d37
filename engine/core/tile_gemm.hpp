// The engine's own small-matrix product for Winograd's 36 per-element products: register-blocked
// (12x32 with AVX-512, 6x16 with AVX2), no packing, and a left operand read through arbitrary
// row and column strides, so a transposed operand costs nothing. BLAS pays for packing on every
// call, which dominates at these sizes (tens to a few hundred rows and columns, called 36 times
// per chunk of tiles). Deterministic: each C element sums its K products in order.
#pragma once

#include <cstdint>

namespace tb {

// C[i][j] (+)= sum_k A[i * aRow + k * aCol] * B[k * ldb + j] for i < M, j < N; overwrites C unless
// `accumulate`. N must be a multiple of 8.
void tileGemm(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
              int64_t ldc, bool accumulate);

} // namespace tb
