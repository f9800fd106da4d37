// The engine's own matrix products: a register-blocked kernel (12x32 with AVX-512, 6x16 with AVX2,
// 6x8 at the baseline), no packing, and a left operand read through arbitrary row and column
// strides, so a transposed operand costs nothing. BLAS pays for packing on every call, which
// dominates at Winograd's sizes (tens to a few hundred rows and columns, 36 products per chunk).
// Every C element sums its K products in order with madd (isa_kernels.hpp), so a product cut into
// other row or column blocks gives the same bits.
#include "kernels/isa_kernels.hpp"

#include <utility>

namespace tb::TB_ISA {

namespace {
#if TB_ISA_LEVEL >= 2
constexpr int kLanes = 16;
constexpr int kRows = 12; // 12 x 2 accumulators + 2 B vectors + a broadcast: 27 of 32 registers
#elif TB_ISA_LEVEL == 1
constexpr int kLanes = 8;
constexpr int kRows = 6; // 6 x 2 accumulators + 2 + 1: 15 of 16 registers
#else
constexpr int kLanes = 4;
constexpr int kRows = 6; // the same with SSE registers
#endif
constexpr int kCols = 2 * kLanes;
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
typedef float Half __attribute__((vector_size(8 * sizeof(float)))); // an 8-column tail with AVX-512

// One R-row block of C, F full vectors wide plus an 8-column half vector when H.
template <int R, int F, bool H>
void block(int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C, int64_t ldc,
           bool accumulate)
{
    Vec c[R][F > 0 ? F : 1];
    Half h[R];
    for (int r = 0; r < R; ++r) {
        for (int f = 0; f < F; ++f)
            c[r][f] = accumulate ? load<Vec>(C + r * ldc + f * kLanes) : Vec{};
        if constexpr (H)
            h[r] = accumulate ? load<Half>(C + r * ldc + F * kLanes) : Half{};
    }
    for (int k = 0; k < K; ++k) {
        const float* b = B + k * ldb;
        Vec bv[F > 0 ? F : 1];
        for (int f = 0; f < F; ++f)
            bv[f] = load<Vec>(b + f * kLanes);
        Half bh{};
        if constexpr (H)
            bh = load<Half>(b + F * kLanes);
        const float* a = A + k * aCol;
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
            const float ar = a[r * aRow];
            for (int f = 0; f < F; ++f)
                c[r][f] = madd(Vec{} + ar, bv[f], c[r][f]);
            if constexpr (H)
                h[r] = madd(Half{} + ar, bh, h[r]);
        }
    }
    for (int r = 0; r < R; ++r) {
        for (int f = 0; f < F; ++f)
            store(C + r * ldc + f * kLanes, c[r][f]);
        if constexpr (H)
            store(C + r * ldc + F * kLanes, h[r]);
    }
}

using BlockFn = void (*)(int, const float*, int64_t, int64_t, const float*, int64_t, float*, int64_t, bool);
struct RowTable {
    BlockFn fn[kRows];
};

// Blocks of 1..kRows rows for one column shape.
template <int F, bool H, size_t... I> constexpr RowTable rowTable(std::index_sequence<I...>)
{
    return {{&block<int(I) + 1, F, H>...}};
}
template <int F, bool H> constexpr RowTable kBlocks = rowTable<F, H>(std::make_index_sequence<kRows>{});

// The kernel for `cols` columns (a multiple of 8, at most kCols).
const RowTable& blocksFor(int cols)
{
    if (cols == kCols)
        return kBlocks<2, false>;
    if constexpr (kLanes == 16) {
        if (cols == 16)
            return kBlocks<1, false>;
        if (cols == 24)
            return kBlocks<1, true>;
        return kBlocks<0, true>; // 8
    }
    return kBlocks<1, false>; // 8 lanes: 8 columns
}

// Columns [0, N) with N a multiple of 8. Row blocks outside: a block's rows of A (R x K) stay in L1
// while B streams past. Blocks are balanced (49 rows: 10+10+10+10+9, not 12+12+12+12+1): a thin
// block wastes most of its loads.
void fullColumns(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
                 int64_t ldc, bool accumulate)
{
    const int blocks = (M + kRows - 1) / kRows;
    for (int b = 0; b < blocks; ++b) {
        const int i0 = int(int64_t(M) * b / blocks);
        const int rows = int(int64_t(M) * (b + 1) / blocks) - i0;
        for (int j0 = 0; j0 < N; j0 += kCols) {
            const int cols = N - j0 < kCols ? N - j0 : kCols;
            blocksFor(cols).fn[rows - 1](K, A + i0 * aRow, aRow, aCol, B + j0, ldb, C + i0 * ldc + j0, ldc, accumulate);
        }
    }
}

thread_local Scratch<float> t_tailB, t_tailC;
#if TB_ISA_LEVEL > 0
thread_local Scratch<float> t_packedB;
#endif
} // namespace

void tileGemm(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
              int64_t ldc, bool accumulate)
{
    const int full = N / 8 * 8, tail = N - full;
    fullColumns(M, full, K, A, aRow, aCol, B, ldb, C, ldc, accumulate);
    if (tail == 0 || M == 0)
        return;
    // The last N % 8 columns through an 8-column block on zero-padded copies: the same operations,
    // so the same bits as if N were a multiple of 8.
    float* b = t_tailB.get(int64_t(K) * 8);
    float* c = t_tailC.get(int64_t(M) * 8);
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < 8; ++j)
            b[k * 8 + j] = j < tail ? B[k * ldb + full + j] : 0.0f;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < 8; ++j)
            c[i * 8 + j] = accumulate && j < tail ? C[i * ldc + full + j] : 0.0f;
    fullColumns(M, 8, K, A, aRow, aCol, b, 8, c, 8, accumulate);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < tail; ++j)
            C[i * ldc + full + j] = c[i * 8 + j];
}

#if TB_ISA_LEVEL > 0 // the baseline's general product is Eigen's (kernels/table.cpp)
void gemm(bool transA, bool transB, int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
          int ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0) {
        if (!accumulate)
            for (int i = 0; i < M; ++i)
                std::memset(C + int64_t(i) * ldc, 0, sizeof(float) * size_t(N));
        return;
    }
    // A transposed is a stride swap; B transposed is packed once into K x N.
    const int64_t aRow = transA ? 1 : lda, aCol = transA ? lda : 1;
    const float* b = B;
    int64_t bRow = ldb;
    if (transB) {
        float* packed = t_packedB.get(int64_t(K) * N);
        transposeMatrix(B, N, K, ldb, packed, N);
        b = packed;
        bRow = N;
    }
    // Column panels of B small enough (K x panel floats, about 128 KB) to stay in L2 while every
    // row block of A passes over them.
    const int panel = K * kCols > 32768 ? kCols : 32768 / K / kCols * kCols;
    for (int j0 = 0; j0 < N; j0 += panel) {
        const int cols = N - j0 < panel ? N - j0 : panel;
        tileGemm(M, cols, K, A, aRow, aCol, b + j0, bRow, C + j0, ldc, accumulate);
    }
}
#endif

} // namespace tb::TB_ISA
