// The engine's own matrix products: a register-blocked kernel (12x32 with AVX-512, 4x24 with AVX2,
// 6x8 at the baseline) and a left operand read through arbitrary row and column strides, so a
// transposed operand costs nothing. tileGemm reads B in place (BLAS pays for packing on every call,
// which dominates at Winograd's sizes); gemm packs B's column panels when several row blocks read
// them; gemmPacked takes B packed once by packB (an LSTM's recurrent matrix, constant for a batch).
// Every C element sums its K products in order with madd (isa_kernels.hpp), so a product cut into
// other row or column blocks gives the same bits.
#include "kernels/isa_kernels.hpp"
#include "kernels/panel_sweep.hpp"

#include <utility>

namespace tb::TB_ISA {

namespace {
#if TB_ISA_LEVEL >= 2
constexpr int kLanes = 16;
constexpr int kRows = 12; // 12 x 2 accumulators + 2 B vectors + a broadcast: 27 of 32 registers
constexpr int kVectors = 2;
#elif TB_ISA_LEVEL == 1
constexpr int kLanes = 8;
// 4 x 3 accumulators + 3 B vectors + a broadcast: 16 of 16 registers. Four broadcasts of A per
// twelve FMAs; with the broadcast straight from memory (`ar - Vec{}` below) 4x24 and 6x16 run
// alike, about 95% of the FMA peak on the development VM (packed B, K = 256, in L1).
constexpr int kRows = 4;
constexpr int kVectors = 3;
#else
constexpr int kLanes = 4;
constexpr int kRows = 6; // 6 x 2 accumulators + 2 + 1 SSE registers: 15 of 16
constexpr int kVectors = 2;
#endif
constexpr int kCols = kVectors * kLanes;
static_assert(kCols == kPanelCols, "packB's panels are the register block's width");
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

#if TB_ISA_LEVEL >= 2
// GCC 12 warns -Wuninitialized inside the AVX-512 intrinsics that start from _mm512_undefined_*()
// (TailPair's _mm512_broadcast_f32x8, _mm512_extractf32x8_ps, kernels/panel_sweep.hpp) where they
// are inlined: a false positive (GCC bug 105593), as in kernels/winograd_bf16.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#endif

// One R-row block of C, F full vectors wide plus an 8-column tail when H (AVX-512 only: two rows'
// tails per vector, kernels/panel_sweep.hpp's TailPair).
template <int R, int F, bool H>
void block(int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C, int64_t ldc,
           bool accumulate)
{
#if TB_ISA_LEVEL < 2
    static_assert(!H, "8-column tails are AVX-512's");
#endif
    constexpr int P = H ? (R + 1) / 2 : 0; // tail pairs; an odd R's last pair has no high row
    Vec c[R][F > 0 ? F : 1];
    [[maybe_unused]] Vec t[P > 0 ? P : 1];
    // Cleared, then loaded when accumulating: `accumulate ? load : zero` per element compiled, in
    // the blocks one vector wide or narrower, to two `rep stos` clearing a copy on the stack first
    // (6% of a 12x24 block's time at K = 48, tpu-mnist-cnn's second convolution).
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int f = 0; f < F; ++f)
            c[r][f] = Vec{};
    }
#pragma GCC unroll 6
    for (int p = 0; p < P; ++p)
        t[p] = Vec{};
    if (accumulate) {
        for (int r = 0; r < R; ++r)
            for (int f = 0; f < F; ++f)
                c[r][f] = load<Vec>(C + r * ldc + f * kLanes);
#if TB_ISA_LEVEL >= 2
        if constexpr (H)
            for (int p = 0; p < P; ++p) {
                const float* lo = C + 2 * p * ldc + F * kLanes;
                t[p] = Vec(TailPair::load(lo, 2 * p + 1 < R ? lo + ldc : lo));
            }
#endif
    }
    for (int k = 0; k < K; ++k) {
        const float* b = B + k * ldb;
        Vec bv[F > 0 ? F : 1];
#pragma GCC unroll 4
        for (int f = 0; f < F; ++f)
            bv[f] = load<Vec>(b + f * kLanes);
        const float* a = A + k * aCol;
        // The broadcasts as `a - 0`, which compilers fold to a broadcast from memory. `0 + a` they
        // cannot fold (-0 + 0 is +0): it compiled to a scalar add and a register broadcast, and the
        // kernel ran at 80% of the FMA peak instead of 95%.
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
            const float ar = a[r * aRow];
#pragma GCC unroll 4
            for (int f = 0; f < F; ++f)
                c[r][f] = madd(ar - Vec{}, bv[f], c[r][f]);
        }
#if TB_ISA_LEVEL >= 2
        if constexpr (H) {
            const Vec bt = Vec(TailPair::both(b + F * kLanes));
#pragma GCC unroll 6
            for (int p = 0; p < P; ++p) {
                const float lo = a[2 * p * aRow], hi = 2 * p + 1 < R ? a[(2 * p + 1) * aRow] : lo;
                t[p] = madd(Vec(TailPair::broadcast(lo, hi)), bt, t[p]);
            }
        }
#endif
    }
    for (int r = 0; r < R; ++r)
        for (int f = 0; f < F; ++f)
            store(C + r * ldc + f * kLanes, c[r][f]);
#if TB_ISA_LEVEL >= 2
    if constexpr (H)
        for (int p = 0; p < P; ++p) {
            float* lo = C + 2 * p * ldc + F * kLanes;
            TailPair::store(lo, 2 * p + 1 < R ? lo + ldc : nullptr, __m512(t[p]));
        }
#endif
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
        return kBlocks<kVectors, false>;
#if TB_ISA_LEVEL >= 2
    if (cols == 16)
        return kBlocks<1, false>;
    if (cols == 24)
        return kBlocks<1, true>;
    return kBlocks<0, true>; // 8
#else
    if constexpr (kVectors == 3) {
        if (cols == 16)
            return kBlocks<2, false>;
    }
    return kBlocks<1, false>; // 8 lanes: 8 columns
#endif
}

// Columns [0, N) with N a multiple of 8, B read in place: kernels/panel_sweep.hpp.
void fullColumns(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
                 int64_t ldc, bool accumulate)
{
    sweepColumns<kRows, kCols>(M, N, K, A, aRow, aCol, B, ldb, C, ldc, accumulate, blocksFor);
}

// Rows [0, M) times packed panels (packB's layout) of N columns: kernels/panel_sweep.hpp.
void packedColumns(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* P, float* C,
                   int64_t ldc, bool accumulate, float* scratch)
{
    sweepPanels<kRows, kCols>(M, N, K, A, aRow, aCol, P, C, ldc, accumulate, scratch, blocksFor);
}

thread_local Scratch<float> t_tailB, t_tailC;
#if TB_ISA_LEVEL > 0
thread_local Scratch<float> t_packedB;
#endif
} // namespace

void packB(int K, int N, const float* B, int64_t ldb, bool transB, float* packed)
{
    const int padded = (N + 7) / 8 * 8;
    for (int j0 = 0; j0 < padded; j0 += kCols) {
        const int w = padded - j0 < kCols ? padded - j0 : kCols, real = N - j0 < w ? N - j0 : w;
        float* panel = packed + int64_t(K) * j0;
        if (transB) { // B[k][j] stored at B[j * ldb + k]: read along B's stored rows
            for (int j = 0; j < w; ++j) {
                const float* src = B + int64_t(j0 + j) * ldb;
                for (int k = 0; k < K; ++k)
                    panel[k * w + j] = j < real ? src[k] : 0.0f;
            }
        } else {
            for (int k = 0; k < K; ++k) {
                const float* src = B + int64_t(k) * ldb + j0;
                for (int j = 0; j < w; ++j)
                    panel[k * w + j] = j < real ? src[j] : 0.0f;
            }
        }
    }
}

void gemmPacked(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* packed, float* C,
                int64_t ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    packedColumns(M, N, K, A, aRow, aCol, packed, C, ldc, accumulate, t_tailC.get(int64_t(kRows) * kCols));
}

void gemmPackedRows(int M, int N, int K, const float* A, int64_t aRow, const float* packed, float* C, int64_t ldc,
                    bool accumulate)
{
    gemmPacked(M, N, K, A, aRow, 1, packed, C, ldc, accumulate);
}

void gemmKRows(int M, int N, int K, const float* A, int64_t lda, const float* B, float* C, int64_t ldc, bool accumulate)
{
    tileGemm(M, N, K, A, 1, lda, B, N, C, ldc, accumulate);
}

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
    // A transposed is a stride swap.
    const int64_t aRow = transA ? 1 : lda, aCol = transA ? lda : 1;
    if (M > kRows) {
        // More than one row block reads each column of B: B packed, a block of kc rows and about
        // 128 KB at a time (kept in L2), each block then swept by every row block of A while that
        // block's rows of A (kRows x kc) stay in L1. k blocks after the first continue C's sums
        // (accumulate), in k order: the same bits as one pass.
        const int kc = K <= 192 ? K : 128;
        const int cols = kc * kCols >= 32768 ? kCols : 32768 / kc / kCols * kCols;
        float* packed = t_packedB.get(int64_t(kc) * cols);
        float* scratch = t_tailC.get(int64_t(kRows) * kCols);
        for (int j0 = 0; j0 < N; j0 += cols) {
            const int nc = N - j0 < cols ? N - j0 : cols;
            for (int k0 = 0; k0 < K; k0 += kc) {
                const int kn = K - k0 < kc ? K - k0 : kc;
                packB(kn, nc, transB ? B + int64_t(j0) * ldb + k0 : B + int64_t(k0) * ldb + j0, ldb, transB, packed);
                packedColumns(M, nc, kn, A + k0 * aCol, aRow, aCol, packed, C + j0, ldc, accumulate || k0 > 0, scratch);
            }
        }
        return;
    }
    // One row block: B is read once, in place (B transposed: packed once into K x N).
    const float* b = B;
    int64_t bRow = ldb;
    if (transB) {
        float* packed = t_packedB.get(int64_t(K) * N);
        transposeMatrix(B, N, K, ldb, packed, N);
        b = packed;
        bRow = N;
    }
    tileGemm(M, N, K, A, aRow, aCol, b, bRow, C, ldc, accumulate);
}
#endif

} // namespace tb::TB_ISA
