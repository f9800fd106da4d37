// The sweeps of a product's columns, read in place or from packed panels, shared by the FP32 and
// the bf16 kernels (kernels/gemm.cpp, kernels/gemm_bf16.cpp), which differ in their register block
// and in what an element is (a float, or a pair of bf16 values). Private to the kernel sources: inside
// their level's namespace, in an anonymous one, so no two levels share a symbol
// (kernels/isa_kernels.hpp).
#pragma once

#include <cstdint>
#if TB_ISA_LEVEL >= 2
#include <immintrin.h>
#endif

namespace tb::TB_ISA {
namespace {

#if TB_ISA_LEVEL >= 2
// The 8-column tail of a register block (24, 40, ... columns) for two rows in one 16-lane vector:
// row r's 8 sums in the low half, row r + 1's in the high half. An 8-lane AVX-512 instruction costs
// the issue slot of a 16-lane one, so a 12x24 block takes 18 multiply-adds a step this way instead
// of 24; each sum is the same chain of them either way. For the FP32 and the bf16 blocks alike: a
// bf16 pair is a 32-bit word, moved here as a float's bits.
struct TailPair {
    // C's tails of two rows (hi: the odd row's, or lo again when there is none).
    static __m512 load(const float* lo, const float* hi)
    {
        return _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(lo)), _mm256_loadu_ps(hi), 1);
    }
    // B's 8 tail columns (floats or pairs) in both halves.
    static __m512 both(const void* b) { return _mm512_broadcast_f32x8(_mm256_loadu_ps(static_cast<const float*>(b))); }
    // Row r's value of A in the low 8 lanes, row r + 1's in the high 8.
    static __m512 broadcast(float lo, float hi)
    {
        return _mm512_mask_broadcastss_ps(_mm512_set1_ps(lo), __mmask16(0xff00), _mm_set_ss(hi));
    }
    // Back into C's two rows (hi null: an odd block's last row has no partner).
    static void store(float* lo, float* hi, __m512 v)
    {
        _mm256_storeu_ps(lo, _mm512_castps512_ps256(v));
        if (hi)
            _mm256_storeu_ps(hi, _mm512_extractf32x8_ps(v, 1));
    }
};
#endif

// Rows [0, M) of A (A[i * aRow + d * aCol] for d < depth) times B read in place (B[d * ldb + j]),
// N a multiple of 8. Row blocks outside: a block's rows of A stay in L1 while B streams past. Blocks
// are balanced (49 rows: 10+10+10+10+9, not 12+12+12+12+1): a thin block wastes most of its loads.
// `blocksFor` as below.
template <int kRows, int kCols, class T, class BlocksFor>
void sweepColumns(int M, int N, int depth, const T* A, int64_t aRow, int64_t aCol, const T* B, int64_t ldb, float* C,
                  int64_t ldc, bool accumulate, BlocksFor blocksFor)
{
    const int blocks = (M + kRows - 1) / kRows;
    for (int b = 0; b < blocks; ++b) {
        const int i0 = int(int64_t(M) * b / blocks);
        const int rows = int(int64_t(M) * (b + 1) / blocks) - i0;
        for (int j0 = 0; j0 < N; j0 += kCols) {
            const int w = N - j0 < kCols ? N - j0 : kCols;
            blocksFor(w).fn[rows - 1](depth, A + i0 * aRow, aRow, aCol, B + j0, ldb, C + i0 * ldc + j0, ldc,
                                      accumulate);
        }
    }
}

// Rows [0, M) of A (A[i * aRow + d * aCol] for d < depth) times packed panels of N columns: each
// panel depth x w elements contiguous (w = kCols, the last one N's rest padded to a multiple of 8),
// so its rows stay in L1/L2 whatever B's row stride (a power-of-two stride such as an LSTM's 4H
// maps a panel's rows to a handful of cache sets, and streamed them from L3 on every row block).
// The panels go in groups of about 128 KB (kept in L2); each row block sweeps a group's panels
// while its rows of A stay in L1. Blocks are balanced (49 rows: 10+10+10+10+9, not 12+12+12+12+1):
// a thin block wastes most of its loads. A panel holding the N % 8 tail goes through a zero-padded
// copy of C's rows (scratch, kRows x kCols): the same operations per element. `blocksFor(w)` gives
// the row table of the register blocks w columns wide: `.fn[rows - 1](depth, A, aRow, aCol, panel,
// w, C, ldc, accumulate)`.
template <int kRows, int kCols, class T, class BlocksFor>
void sweepPanels(int M, int N, int depth, const T* A, int64_t aRow, int64_t aCol, const T* packed, float* C,
                 int64_t ldc, bool accumulate, float* scratch, BlocksFor blocksFor)
{
    const int padded = (N + 7) / 8 * 8;
    const int blocks = (M + kRows - 1) / kRows;
    const int group = depth * kCols >= 32768 ? kCols : 32768 / depth / kCols * kCols;
    for (int g0 = 0; g0 < padded; g0 += group) {
        const int g1 = padded - g0 < group ? padded : g0 + group;
        for (int b = 0; b < blocks; ++b) {
            const int i0 = int(int64_t(M) * b / blocks);
            const int rows = int(int64_t(M) * (b + 1) / blocks) - i0;
            for (int j0 = g0; j0 < g1; j0 += kCols) {
                const int w = g1 - j0 < kCols ? g1 - j0 : kCols, real = N - j0 < w ? N - j0 : w;
                const auto fn = blocksFor(w).fn[rows - 1];
                const T* panel = packed + int64_t(depth) * j0;
                float* c = C + i0 * ldc + j0;
                if (real == w) {
                    fn(depth, A + i0 * aRow, aRow, aCol, panel, w, c, ldc, accumulate);
                    continue;
                }
                for (int i = 0; i < rows; ++i)
                    for (int j = 0; j < w; ++j)
                        scratch[i * w + j] = accumulate && j < real ? c[i * ldc + j] : 0.0f;
                fn(depth, A + i0 * aRow, aRow, aCol, panel, w, scratch, w, accumulate);
                for (int i = 0; i < rows; ++i)
                    for (int j = 0; j < real; ++j)
                        c[i * ldc + j] = scratch[i * w + j];
            }
        }
    }
}

} // namespace
} // namespace tb::TB_ISA
