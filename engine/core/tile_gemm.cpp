#include "core/tile_gemm.hpp"

#include <array>
#include <cstring>
#include <utility>

namespace tb {

namespace {
#if defined(__AVX512F__)
constexpr int kLanes = 16;
constexpr int kRows = 12; // 12 x 2 accumulators + 2 B vectors + a broadcast: 27 of 32 registers
#else
constexpr int kLanes = 8;
constexpr int kRows = 6; // 6 x 2 accumulators + 2 + 1: 15 of 16 registers
#endif
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
typedef float Half __attribute__((vector_size(8 * sizeof(float)))); // an 8-column tail with AVX-512

template <class V> inline V load(const float* p)
{
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V> inline void store(float* p, V v)
{
    std::memcpy(p, &v, sizeof v);
}

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
                c[r][f] += ar * bv[f];
            if constexpr (H)
                h[r] += ar * bh;
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

// blocks[rows - 1] for one column shape.
template <int F, bool H, size_t... I> constexpr std::array<BlockFn, kRows> rowTable(std::index_sequence<I...>)
{
    return {&block<int(I) + 1, F, H>...};
}
template <int F, bool H>
constexpr std::array<BlockFn, kRows> kBlocks = rowTable<F, H>(std::make_index_sequence<kRows>{});

// The kernel for `cols` columns (a multiple of 8, at most 2 vectors).
const std::array<BlockFn, kRows>& blocksFor(int cols)
{
    if (cols == 2 * kLanes)
        return kBlocks<2, false>;
    if (cols == kLanes)
        return kBlocks<1, false>;
    if constexpr (kLanes == 16) {
        if (cols == 24)
            return kBlocks<1, true>;
        return kBlocks<0, true>; // 8
    }
    return kBlocks<1, false>; // unreachable: with 8 lanes every multiple of 8 is covered above
}
} // namespace

void tileGemm(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
              int64_t ldc, bool accumulate)
{
    constexpr int kCols = 2 * kLanes;
    // Row blocks outside: a block's rows of A (R x K) stay in L1 while B streams past. Blocks are
    // balanced (49 rows: 10+10+10+10+9, not 12+12+12+12+1): a thin block wastes most of its loads.
    const int blocks = (M + kRows - 1) / kRows;
    for (int b = 0; b < blocks; ++b) {
        const int i0 = int(int64_t(M) * b / blocks);
        const int rows = int(int64_t(M) * (b + 1) / blocks) - i0;
        for (int j0 = 0; j0 < N; j0 += kCols) {
            const int cols = N - j0 < kCols ? N - j0 : kCols;
            blocksFor(cols)[size_t(rows - 1)](K, A + i0 * aRow, aRow, aCol, B + j0, ldb, C + i0 * ldc + j0, ldc,
                                              accumulate);
        }
    }
}

} // namespace tb
