// The bf16 products on AMX-BF16 tiles (Intel Sapphire Rapids and later): kernels/gemm_bf16.cpp
// built once more with TB_AMX, whose sweeps come here instead of the 12x32 vdpbf16ps blocks
// (kernels/isa.hpp's Bf16Kernels::Amx). The operands are the same pairs of bf16 values; a tile of A
// is 16 rows of 16 pairs, a tile of B 16 pairs of 16 columns (a pair per 32-bit word, as packB's
// panels hold them), and TDPBF16PS adds their 16 x 16 products to a tile of FP32 sums.
//
// A 32 x 32 block of C is four tiles, loaded from C (or a zero-padded copy at the edges), summed
// over every 16 pairs in k order, and stored back. The tiles read A and B in place where the pairs
// are a multiple of 16 and the block or strip is whole; elsewhere from copies padded with zeros, so
// that no load reads past the operands. Products over fewer than 16 pairs (K < 31) stay on
// vdpbf16ps's blocks (kernels/gemm_bf16.cpp): a tile step over them would be mostly padding.
//
// The tiles sum each group of 16 pairs in an order of their own, which no scalar order matches
// (docs/accelerators.md), so the sums differ in their last bits from vdpbf16ps's and the
// reference's. Each C element is still one fixed sequence, k groups in order from pair 0, whatever
// the thread count, the row blocks or the column strips: the same bits on 1 and N threads.
//
// TB_AMX == 1: the tile instructions. TB_AMX == 2: the same sweep with each instruction emulated in
// plain C++, summing each pair as vdpbf16ps does (odd product, then even, flushed): the reference's
// bits (kernels/bf16_reference.cpp), except that a sum of -0 comes out +0 where a step adds padding
// pairs (zero products), so the tests check this file's packing and blocking on any CPU with
// AVX512_BF16 (kernels/isa.hpp's amxEmulatedKernels).
#pragma once

#include "kernels/isa_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <immintrin.h>

namespace tb::TB_ISA {
namespace {

constexpr int kTileRows = 16;  // rows of every tile: 16 rows of A or C, 16 pairs of B
constexpr int kTileWords = 16; // 32-bit words per tile row: 16 pairs of A, 16 columns of B or C

#if TB_AMX == 1
// Tiles 0-3 hold C's 2 x 2 blocks, 4-5 A's two row blocks, 6-7 B's two column strips; all 16 rows of
// 64 bytes (palette 1).
struct Tiles {
    static void begin()
    {
        alignas(64) unsigned char config[64] = {};
        config[0] = 1; // palette 1
        for (int t = 0; t < 8; ++t) {
            const uint16_t bytes = kTileWords * 4;
            std::memcpy(config + 16 + 2 * t, &bytes, sizeof bytes);
            config[48 + t] = kTileRows;
        }
        _tile_loadconfig(config);
    }
    static void end() { _tile_release(); }
    // GCC's tile intrinsics are asm statements that name no memory: a compiler barrier before the
    // loads (after the operands are packed) and after the stores (before C is read).
    static void fence() { __asm__ volatile("" ::: "memory"); }
    // The intrinsics are macros that paste the tile's number into the instruction: one literal each.
    template <int T> static void zero()
    {
        static_assert(T < 4, "only C's tiles start from zero");
        if constexpr (T == 0)
            _tile_zero(0);
        else if constexpr (T == 1)
            _tile_zero(1);
        else if constexpr (T == 2)
            _tile_zero(2);
        else
            _tile_zero(3);
    }
    template <int T> static void load(const void* p, int64_t strideBytes)
    {
        if constexpr (T == 0)
            _tile_loadd(0, p, strideBytes);
        else if constexpr (T == 1)
            _tile_loadd(1, p, strideBytes);
        else if constexpr (T == 2)
            _tile_loadd(2, p, strideBytes);
        else if constexpr (T == 3)
            _tile_loadd(3, p, strideBytes);
        else if constexpr (T == 4)
            _tile_loadd(4, p, strideBytes);
        else if constexpr (T == 5)
            _tile_loadd(5, p, strideBytes);
        else if constexpr (T == 6)
            _tile_loadd(6, p, strideBytes);
        else
            _tile_loadd(7, p, strideBytes);
    }
    template <int T> static void store(void* p, int64_t strideBytes)
    {
        static_assert(T < 4, "only C's tiles are stored");
        if constexpr (T == 0)
            _tile_stored(0, p, strideBytes);
        else if constexpr (T == 1)
            _tile_stored(1, p, strideBytes);
        else if constexpr (T == 2)
            _tile_stored(2, p, strideBytes);
        else
            _tile_stored(3, p, strideBytes);
    }
    // C's tile T: A's tile 4 + T / 2 (its row block) times B's 6 + T % 2 (its strip).
    template <int C, int A, int B> static void dot()
    {
        static_assert(A == 4 + C / 2 && B == 6 + C % 2, "tile C sums its row block's A and its strip's B");
        if constexpr (C == 0)
            _tile_dpbf16ps(0, 4, 6);
        else if constexpr (C == 1)
            _tile_dpbf16ps(1, 4, 7);
        else if constexpr (C == 2)
            _tile_dpbf16ps(2, 5, 6);
        else
            _tile_dpbf16ps(3, 5, 7);
    }
};
#else
struct Tiles {
    alignas(64) static inline thread_local uint32_t t_tile[8][kTileRows][kTileWords];

    static void begin() {}
    static void end() {}
    static void fence() {}
    template <int T> static void zero() { std::memset(t_tile[T], 0, sizeof t_tile[T]); }
    template <int T> static void load(const void* p, int64_t strideBytes)
    {
        for (int r = 0; r < kTileRows; ++r)
            std::memcpy(t_tile[T][r], static_cast<const char*>(p) + r * strideBytes, sizeof t_tile[T][r]);
    }
    template <int T> static void store(void* p, int64_t strideBytes)
    {
        for (int r = 0; r < kTileRows; ++r)
            std::memcpy(static_cast<char*>(p) + r * strideBytes, t_tile[T][r], sizeof t_tile[T][r]);
    }
    template <int C, int A, int B> static void dot()
    {
        for (int m = 0; m < kTileRows; ++m)
            for (int n = 0; n < kTileWords; ++n) {
                float acc = flushed(asFloat(t_tile[C][m][n]));
                for (int k = 0; k < kTileWords; ++k) {
                    const uint32_t a = t_tile[A][m][k], b = t_tile[B][k][n];
                    acc = flushed(std::fma(asFloat(a & 0xffff0000u), asFloat(b & 0xffff0000u), acc));
                    acc = flushed(std::fma(asFloat(a << 16), asFloat(b << 16), acc));
                }
                std::memcpy(&t_tile[C][m][n], &acc, sizeof acc);
            }
    }

private:
    static float asFloat(uint32_t bits)
    {
        float x;
        std::memcpy(&x, &bits, sizeof x);
        return x;
    }
    static float flushed(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
};
#endif

// Where a tile's rows start and how many 32-bit words apart they are.
struct TileRows {
    const uint32_t* at;
    int64_t stride;
};

// C's block of up to 32 x 32 at c (ldc floats a row) += one or two row blocks of A (a0, a1: 16 rows
// of `pairs` pairs each) times one or two strips of B (b0, b1: `pairs` rows of 16 columns), over
// `pairs` (a multiple of 16), 16 pairs a step. `load`: start from C, else from zero.
template <bool TwoRows, bool TwoCols>
void tileBlock(int pairs, TileRows a0, TileRows a1, TileRows b0, TileRows b1, float* c, int64_t ldc, bool load)
{
    const int64_t cStride = ldc * 4;
    float* c1 = c + kTileRows * ldc;
    Tiles::fence();
    if (load) {
        Tiles::load<0>(c, cStride);
        if constexpr (TwoCols)
            Tiles::load<1>(c + kTileWords, cStride);
        if constexpr (TwoRows)
            Tiles::load<2>(c1, cStride);
        if constexpr (TwoRows && TwoCols)
            Tiles::load<3>(c1 + kTileWords, cStride);
    } else {
        Tiles::zero<0>();
        if constexpr (TwoCols)
            Tiles::zero<1>();
        if constexpr (TwoRows)
            Tiles::zero<2>();
        if constexpr (TwoRows && TwoCols)
            Tiles::zero<3>();
    }
    for (int q = 0; q < pairs; q += kTileWords) {
        Tiles::load<4>(a0.at + q, a0.stride * 4);
        if constexpr (TwoRows)
            Tiles::load<5>(a1.at + q, a1.stride * 4);
        Tiles::load<6>(b0.at + q * b0.stride, b0.stride * 4);
        if constexpr (TwoCols)
            Tiles::load<7>(b1.at + q * b1.stride, b1.stride * 4);
        Tiles::dot<0, 4, 6>();
        if constexpr (TwoCols)
            Tiles::dot<1, 4, 7>();
        if constexpr (TwoRows)
            Tiles::dot<2, 5, 6>();
        if constexpr (TwoRows && TwoCols)
            Tiles::dot<3, 5, 7>();
    }
    Tiles::store<0>(c, cStride);
    if constexpr (TwoCols)
        Tiles::store<1>(c + kTileWords, cStride);
    if constexpr (TwoRows)
        Tiles::store<2>(c1, cStride);
    if constexpr (TwoRows && TwoCols)
        Tiles::store<3>(c1 + kTileWords, cStride);
    Tiles::fence();
}

using TileBlockFn = void (*)(int, TileRows, TileRows, TileRows, TileRows, float*, int64_t, bool);
constexpr TileBlockFn kTileBlocks[2][2] = {{&tileBlock<false, false>, &tileBlock<false, true>},
                                           {&tileBlock<true, false>, &tileBlock<true, true>}};

// A strip of B's 16 columns j0 ..: pair p of column j0 + j at at[p * stride + j], for j < width
// (the columns stored there; zero columns past N count).
struct TileStrip {
    const uint32_t* at;
    int64_t stride;
    int width;
};

thread_local Scratch<uint32_t> t_tileA, t_tileB;
thread_local Scratch<TileRows> t_tileStrips;
thread_local Scratch<float> t_tileC;

// C (M x N, ldc) (+)= A B over P pairs (P >= 16). A's pair p of row i at A[i * aRow + p * aCol];
// B's columns in strips of 16, `strip(j0)` for j0 = 0, 16, ...
//
// The tiles read the operands in place where they can: B's strip when P is a multiple of 16 and
// the strip holds 16 columns; A's rows when they are rows of pairs (aCol 1), P is a multiple of 16
// and the block is a whole 16 or 32 rows. Otherwise from copies padded with zeros.
template <class Strip>
void tileProduct(int M, int N, int P, const uint32_t* A, int64_t aRow, int64_t aCol, Strip strip, float* C, int64_t ldc,
                 bool accumulate)
{
    const int pairs = (P + kTileWords - 1) / kTileWords * kTileWords;
    const int strips = (N + kTileWords - 1) / kTileWords;
    TileRows* b = t_tileStrips.get(strips);
    uint32_t* copies = nullptr;
    for (int s = 0; s < strips; ++s) {
        const TileStrip from = strip(s * kTileWords);
        if (P == pairs && from.width >= kTileWords) {
            b[s] = {from.at, from.stride};
            continue;
        }
        if (!copies)
            copies = t_tileB.get(int64_t(strips) * pairs * kTileWords);
        uint32_t* to = copies + int64_t(s) * pairs * kTileWords;
        const int width = std::min(from.width, std::min(kTileWords, N - s * kTileWords));
        for (int p = 0; p < P; ++p) {
            std::memcpy(to + int64_t(p) * kTileWords, from.at + p * from.stride, sizeof(uint32_t) * size_t(width));
            std::memset(to + int64_t(p) * kTileWords + width, 0, sizeof(uint32_t) * size_t(kTileWords - width));
        }
        std::memset(to + int64_t(P) * kTileWords, 0, sizeof(uint32_t) * size_t(pairs - P) * kTileWords);
        b[s] = {to, kTileWords};
    }
    uint32_t* a = t_tileA.get(int64_t(2 * kTileRows) * pairs);
    float* edge = t_tileC.get(int64_t(2 * kTileRows) * 2 * kTileWords);
    Tiles::begin();
    for (int i0 = 0; i0 < M; i0 += 2 * kTileRows) {
        const int rows = M - i0 < 2 * kTileRows ? M - i0 : 2 * kTileRows;
        const bool twoRows = rows > kTileRows;
        TileRows a0{A + i0 * aRow, aRow};
        if (aCol != 1 || P != pairs || (rows != kTileRows && rows != 2 * kTileRows)) {
            // A's rows, pairs contiguous and zero past P; rows past M zero.
            std::memset(a, 0, sizeof(uint32_t) * size_t(2 * kTileRows) * size_t(pairs));
            if (aCol == 1) {
                for (int r = 0; r < rows; ++r)
                    std::memcpy(a + int64_t(r) * pairs, A + (i0 + r) * aRow, sizeof(uint32_t) * size_t(P));
            } else {
                for (int p = 0; p < P; ++p)
                    for (int r = 0; r < rows; ++r)
                        a[int64_t(r) * pairs + p] = A[(i0 + r) * aRow + p * aCol];
            }
            a0 = {a, pairs};
        }
        const TileRows a1{a0.at + kTileRows * a0.stride, a0.stride};
        for (int s = 0; s < strips; s += 2) {
            const bool twoCols = s + 1 < strips;
            const int j0 = s * kTileWords, cols = N - j0 < 2 * kTileWords ? N - j0 : 2 * kTileWords;
            const TileBlockFn fn = kTileBlocks[twoRows][twoCols];
            const TileRows b1 = twoCols ? b[s + 1] : b[s];
            float* c = C + i0 * ldc + j0;
            if (rows == (twoRows ? 2 : 1) * kTileRows && cols == (twoCols ? 2 : 1) * kTileWords) {
                fn(pairs, a0, a1, b[s], b1, c, ldc, accumulate);
                continue;
            }
            // An edge block: through a zero-padded copy of C's rows and columns.
            const int ld = 2 * kTileWords;
            for (int i = 0; i < 2 * kTileRows; ++i)
                for (int j = 0; j < ld; ++j)
                    edge[i * ld + j] = accumulate && i < rows && j < cols ? c[i * ldc + j] : 0.0f;
            fn(pairs, a0, a1, b[s], b1, edge, ld, accumulate);
            for (int i = 0; i < rows; ++i)
                std::memcpy(c + i * ldc, edge + i * ld, sizeof(float) * size_t(cols));
        }
    }
    Tiles::end();
}

} // namespace
} // namespace tb::TB_ISA
