// The matrix products in bfloat16 (kernels/isa.hpp's Precision::Bf16) with AVX512_BF16's vdpbf16ps:
// each instruction multiplies 16 pairs of bf16 values and adds both products to 16 FP32 sums. Built
// only for the AVX-512 level with -mavx512bf16, into tb::isa_avx512bf16; the table of that
// precision (kernels/isa.cpp) is AVX-512's with these products in place of its own, and with
// Winograd transforms that write their operands already rounded and paired (winograd_bf16.cpp).
//
// Both operands are rounded to bf16 by the engine's own integer code (round to nearest even,
// subnormals to a signed zero, NaN kept quiet), not by the CPU's conversion instructions, and
// packed as pairs of consecutive k: a 32-bit word holds bf16(x[2p]) in its low half and
// bf16(x[2p + 1]) in its high half (an odd K ends with a zero). Every C element is one chain over
// the pairs in k order, each pair adding the odd product then the even one, each addition rounded
// to nearest even with subnormals flushed (what vdpbf16ps does); so a product cut into other row,
// column or k blocks gives the same bits, and kernels/bf16_reference.cpp gives them on any CPU.
//
// Built twice more with TB_AMX (into tb::isa_amxbf16, and tb::isa_amxemulated for the tests): the
// products over 16 pairs or more go to AMX-BF16's tiles (kernels/amx_tiles.hpp), the same operands
// summed in the tiles' own order; fewer pairs stay on the blocks below.
#include "kernels/bf16_avx512.hpp"
#include "kernels/isa_kernels.hpp"
#include "kernels/panel_sweep.hpp"
#if defined(TB_AMX)
#include "kernels/amx_tiles.hpp"
#endif

#include <utility>

// GCC 12 warns -Wuninitialized inside the AVX-512 intrinsics that start from _mm512_undefined_*()
// (TailPair's _mm512_extractf32x8_ps, kernels/panel_sweep.hpp) where they are inlined: a false
// positive (GCC bug 105593), as in kernels/winograd_bf16.cpp.
#pragma GCC diagnostic ignored "-Wuninitialized"

namespace tb::TB_ISA {

namespace {
constexpr int kLanes = 16;
constexpr int kRows = 12; // 12 x 2 accumulators + 2 B vectors + a broadcast: 27 of 32 registers
constexpr int kVectors = 2;
constexpr int kCols = kVectors * kLanes;
static_assert(kCols == kPanelCols, "packB's panels are the register block's width");

int pairsOf(int K)
{
    return (K + 1) / 2;
}

// bf16's bits of x in the low 16 bits.
uint32_t bf16Bits(float x)
{
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0)
        return (u >> 16) | 0x40u; // NaN: keep the sign and top payload, quiet
    if ((u & 0x7f800000u) == 0)
        return (u >> 16) & 0x8000u; // zero or subnormal: a signed zero
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

uint32_t pairBits(float even, float odd)
{
    return bf16Bits(even) | bf16Bits(odd) << 16;
}

// 16 pairs: bf16(even[j]) in the low half, bf16(odd[j]) in the high half of lane j.
__m512i pairLanes(__m512 even, __m512 odd)
{
    const __m512i lo = _mm512_srli_epi32(roundedHigh(even), 16);
    // (high & 0xffff0000) | lo in one ternary logic instruction
    return _mm512_ternarylogic_epi32(roundedHigh(odd), _mm512_set1_epi32(int(0xffff0000u)), lo, 0xEA);
}

void store32(uint32_t* p, uint32_t v)
{
    std::memcpy(p, &v, sizeof v);
}

// The pairs of K contiguous values: out[p] = (a[2p], a[2p + 1]), the bf16 values in order.
// The first `count` of 16 lanes (none when count <= 0).
__mmask16 lanes(int count)
{
    return count >= kLanes ? __mmask16(0xffff) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1);
}

void contiguousPairs(const float* a, int K, uint32_t* out)
{
    const int P = pairsOf(K);
    int p = 0;
    // The high halves of 32 rounded values, in order: 16 pairs.
    const __m512i odd = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27, 25,
                                         23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    for (; 2 * p + 32 <= K; p += 16) {
        const __m512i lo = roundedHigh(_mm512_loadu_ps(a + 2 * p)), hi = roundedHigh(_mm512_loadu_ps(a + 2 * p + 16));
        _mm512_storeu_si512(out + p, _mm512_permutex2var_epi16(lo, odd, hi));
    }
    if (p == P)
        return;
    // The last fewer than 32 values through masks (masked-off lanes read as zero, never touched).
    const int left = K - 2 * p;
    const __m512i lo = roundedHigh(_mm512_maskz_loadu_ps(lanes(left), a + 2 * p));
    const __m512i hi = roundedHigh(_mm512_maskz_loadu_ps(lanes(left - kLanes), a + 2 * p + kLanes));
    _mm512_mask_storeu_epi32(out + p, lanes(P - p), _mm512_permutex2var_epi16(lo, odd, hi));
}

// out[j] = the pair (even[j], odd[j]) for j < n (odd null: zero), then zero up to width (>= n).
void rowPairs(const float* even, const float* odd, int n, int width, uint32_t* out)
{
    for (int j = 0; j < width; j += kLanes) {
        const __mmask16 load = lanes(n - j);
        const __m512 e = _mm512_maskz_loadu_ps(load, even + j);
        const __m512 o = odd ? _mm512_maskz_loadu_ps(load, odd + j) : _mm512_setzero_ps();
        _mm512_mask_storeu_epi32(out + j, lanes(width - j), pairLanes(e, o));
    }
}

// A (M x K, A[i * aRow + k * aCol]) as pairs: pair p of row i at data[i * row + p * col].
struct PackedA {
    const uint32_t* data;
    int64_t row, col;
    PackedA pairs(int p0) const { return {data + p0 * col, row, col}; }
};

// A's rows contiguous (aCol 1): each row's bf16 values in order are its pairs, rows of P words. A's
// columns contiguous (aRow 1, a transposed operand): pair p of 16 rows at once from columns 2p and
// 2p + 1, stored pair-major (P rows of M words). Else one pair at a time.
PackedA packA(int M, int K, const float* A, int64_t aRow, int64_t aCol, uint32_t* out)
{
    const int P = pairsOf(K);
    if (aRow == 1 && aCol != 1) {
        for (int p = 0; p < P; ++p) {
            const float* even = A + 2 * p * aCol;
            rowPairs(even, 2 * p + 1 < K ? even + aCol : nullptr, M, M, out + int64_t(p) * M);
        }
        return {out, 1, M};
    }
    for (int i = 0; i < M; ++i) {
        const float* a = A + i * aRow;
        uint32_t* o = out + int64_t(i) * P;
        if (aCol == 1) {
            contiguousPairs(a, K, o);
            continue;
        }
        for (int p = 0; p < P; ++p)
            store32(o + p, pairBits(a[2 * p * aCol], 2 * p + 1 < K ? a[(2 * p + 1) * aCol] : 0.0f));
    }
    return {out, P, 1};
}

// One R-row block of C over P pairs: F full vectors wide plus an 8-column tail when H, two rows'
// tails per vector (kernels/panel_sweep.hpp's TailPair). A: R rows of pairs (PackedA's strides); B: P
// rows of ldb words.
template <int R, int F, bool H>
void block(int P, const uint32_t* A, int64_t aRow, int64_t aCol, const uint32_t* B, int64_t ldb, float* C, int64_t ldc,
           bool accumulate)
{
    constexpr int T = H ? (R + 1) / 2 : 0; // tail pairs; an odd R's last pair has no high row
    __m512 c[R][F > 0 ? F : 1];
    [[maybe_unused]] __m512 t[T > 0 ? T : 1];
    // Cleared, then loaded when accumulating: kernels/gemm.cpp's block says why.
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
        for (int f = 0; f < F; ++f)
            c[r][f] = _mm512_setzero_ps();
    }
#pragma GCC unroll 6
    for (int q = 0; q < T; ++q)
        t[q] = _mm512_setzero_ps();
    if (accumulate) {
        for (int r = 0; r < R; ++r)
            for (int f = 0; f < F; ++f)
                c[r][f] = _mm512_loadu_ps(C + r * ldc + f * kLanes);
        for (int q = 0; q < T; ++q) {
            const float* lo = C + 2 * q * ldc + F * kLanes;
            t[q] = TailPair::load(lo, 2 * q + 1 < R ? lo + ldc : lo);
        }
    }
    for (int p = 0; p < P; ++p) {
        const uint32_t* b = B + int64_t(p) * ldb;
        __m512bh bv[F > 0 ? F : 1];
#pragma GCC unroll 4
        for (int f = 0; f < F; ++f)
            bv[f] = (__m512bh)_mm512_loadu_si512(b + f * kLanes);
        const uint32_t* a = A + p * aCol;
        float ar[R]; // each row's pair, as a float's bits
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
            std::memcpy(&ar[r], a + r * aRow, sizeof ar[r]);
#pragma GCC unroll 4
            for (int f = 0; f < F; ++f)
                c[r][f] = _mm512_dpbf16_ps(c[r][f], (__m512bh)_mm512_set1_ps(ar[r]), bv[f]);
        }
        if constexpr (H) {
            const __m512bh bt = (__m512bh)TailPair::both(b + F * kLanes);
#pragma GCC unroll 6
            for (int q = 0; q < T; ++q) {
                const float hi = 2 * q + 1 < R ? ar[2 * q + 1] : ar[2 * q];
                t[q] = _mm512_dpbf16_ps(t[q], (__m512bh)TailPair::broadcast(ar[2 * q], hi), bt);
            }
        }
    }
    for (int r = 0; r < R; ++r)
        for (int f = 0; f < F; ++f)
            _mm512_storeu_ps(C + r * ldc + f * kLanes, c[r][f]);
    for (int q = 0; q < T; ++q) {
        float* lo = C + 2 * q * ldc + F * kLanes;
        TailPair::store(lo, 2 * q + 1 < R ? lo + ldc : nullptr, t[q]);
    }
}

using BlockFn = void (*)(int, const uint32_t*, int64_t, int64_t, const uint32_t*, int64_t, float*, int64_t, bool);
struct RowTable {
    BlockFn fn[kRows];
};
template <int F, bool H, size_t... I> constexpr RowTable rowTable(std::index_sequence<I...>)
{
    return {{&block<int(I) + 1, F, H>...}};
}
template <int F, bool H> constexpr RowTable kBlocks = rowTable<F, H>(std::make_index_sequence<kRows>{});

// The kernel for a panel `cols` wide (a multiple of 8, at most kCols).
const RowTable& blocksFor(int cols)
{
    if (cols == kCols)
        return kBlocks<kVectors, false>;
    if (cols == 16)
        return kBlocks<1, false>;
    if (cols == 24)
        return kBlocks<1, true>;
    return kBlocks<0, true>; // 8
}

// Rows [0, M) of A's pairs times the packed panels of N columns over P pairs (packB's layout):
// kernels/panel_sweep.hpp.
void packedColumns(int M, int N, int P, PackedA A, const uint32_t* packed, float* C, int64_t ldc, bool accumulate,
                   float* scratch)
{
#if defined(TB_AMX)
    if (P >= kTileWords) {
        // Panels of kCols columns, the last one N's rest padded to a multiple of 8 (zeros past N): a
        // 16-column strip never straddles two.
        const int padded = (N + 7) / 8 * 8;
        const auto strip = [&](int j0) {
            const int panel = j0 / kCols * kCols, width = padded - panel < kCols ? padded - panel : kCols;
            return TileStrip{packed + int64_t(P) * panel + (j0 - panel), width, width - (j0 - panel)};
        };
        return tileProduct(M, N, P, A.data, A.row, A.col, strip, C, ldc, accumulate);
    }
#endif
    sweepPanels<kRows, kCols>(M, N, P, A.data, A.row, A.col, packed, C, ldc, accumulate, scratch, blocksFor);
}

// C's rows zeroed (accumulate off) or kept: a product over K = 0.
void emptyProduct(int M, int N, float* C, int64_t ldc, bool accumulate)
{
    if (!accumulate)
        for (int i = 0; i < M; ++i)
            std::memset(C + i * ldc, 0, sizeof(float) * size_t(N));
}

thread_local Scratch<uint32_t> t_packedA, t_packedB, t_column;
thread_local Scratch<float> t_tailC;
} // namespace

// Panels of kCols columns (the last one the rest, padded to a multiple of 8), each P x w words:
// panel[p * w + j] = the pair (B[2p][j0 + j], B[2p + 1][j0 + j]), zero past N and past K.
void packB(int K, int N, const float* B, int64_t ldb, bool transB, float* packedFloats)
{
    uint32_t* packed = reinterpret_cast<uint32_t*>(packedFloats);
    const int P = pairsOf(K), padded = (N + 7) / 8 * 8;
    for (int j0 = 0; j0 < padded; j0 += kCols) {
        const int w = padded - j0 < kCols ? padded - j0 : kCols, real = N - j0 < w ? N - j0 : w;
        uint32_t* panel = packed + int64_t(P) * j0;
        if (transB) { // B[k][j] at B[j * ldb + k]: column j's k run along a stored row
            uint32_t* column = t_column.get(P);
            for (int j = 0; j < w; ++j) {
                if (j < real)
                    contiguousPairs(B + int64_t(j0 + j) * ldb, K, column);
                for (int p = 0; p < P; ++p)
                    panel[p * w + j] = j < real ? column[p] : 0u;
            }
            continue;
        }
        for (int p = 0; p < P; ++p) {
            const float* even = B + int64_t(2 * p) * ldb + j0;
            rowPairs(even, 2 * p + 1 < K ? even + ldb : nullptr, real, w, panel + p * w);
        }
    }
}

namespace {
// C (+)= A B with A packed (packA) and B (K x N, B[k * ldb + j], or
// B[j * ldb + k] when transB) packed here a block of kc rows (an even count: a pair never straddles
// two blocks) and about 128 KB at a time, kept in L2; blocks after the first continue C's sums in k
// order: the same bits as one pass, and as gemmPacked over the whole of K. A rest of fewer than 32
// rows joins the block before it: on the AMX tiles, a block of fewer than 16 pairs would run on
// vdpbf16ps, which sums otherwise (kernels/amx_tiles.hpp).
void packingProduct(int M, int N, int K, PackedA a, const float* B, int64_t ldb, bool transB, float* C, int64_t ldc,
                    bool accumulate)
{
    constexpr int kMinBlock = 32; // rows: the tiles' 16 pairs
    float* scratch = t_tailC.get(int64_t(kRows) * kCols);
    const int kc = K <= 384 ? K : 256;
    const int cols = kc * kCols >= 65536 ? kCols : 65536 / kc / kCols * kCols;
    uint32_t* packed = t_packedB.get(int64_t(pairsOf(kc + kMinBlock)) * ((cols + 7) / 8 * 8));
    for (int j0 = 0; j0 < N; j0 += cols) {
        const int nc = N - j0 < cols ? N - j0 : cols;
        for (int k0 = 0, kn = 0; k0 < K; k0 += kn) {
            kn = K - k0 - kc < kMinBlock ? K - k0 : kc;
            packB(kn, nc, transB ? B + j0 * ldb + k0 : B + k0 * ldb + j0, ldb, transB,
                  reinterpret_cast<float*>(packed));
            packedColumns(M, nc, pairsOf(kn), a.pairs(k0 / 2), packed, C + j0, ldc, accumulate || k0 > 0, scratch);
        }
    }
}

PackedA packedRows(int M, int K, const float* A, int64_t aRow, int64_t aCol)
{
    return packA(M, K, A, aRow, aCol, t_packedA.get(int64_t(M) * pairsOf(K)));
}
} // namespace

void gemmPacked(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* packed, float* C,
                int64_t ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0)
        return emptyProduct(M, N, C, ldc, accumulate);
    packedColumns(M, N, pairsOf(K), packedRows(M, K, A, aRow, aCol), reinterpret_cast<const uint32_t*>(packed), C, ldc,
                  accumulate, t_tailC.get(int64_t(kRows) * kCols));
}

// A's rows are already pairs (winogradInputRows, kernels/winograd_bf16.cpp).
void gemmPackedRows(int M, int N, int K, const float* A, int64_t aRow, const float* packed, float* C, int64_t ldc,
                    bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0)
        return emptyProduct(M, N, C, ldc, accumulate);
    packedColumns(M, N, pairsOf(K), PackedA{reinterpret_cast<const uint32_t*>(A), aRow, 1},
                  reinterpret_cast<const uint32_t*>(packed), C, ldc, accumulate, t_tailC.get(int64_t(kRows) * kCols));
}

// A and B as pairs of k-rows (winogradInputKRows, winogradOutputGradientKRows): A's pairs for 12
// rows of C are 12 consecutive words of a pair row (aRow 1, aCol lda), B's pair rows are read in place,
// N words apart (about 100 KB for Winograd's dW products, in L2 across the row blocks).
// kernels/panel_sweep.hpp; N is a multiple of 8, so every block is a full 8, 16, 24 or 32 columns.
void gemmKRows(int M, int N, int K, const float* A, int64_t lda, const float* B, float* C, int64_t ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0)
        return emptyProduct(M, N, C, ldc, accumulate);
#if defined(TB_AMX)
    if (pairsOf(K) >= kTileWords) {
        const uint32_t* b = reinterpret_cast<const uint32_t*>(B);
        return tileProduct(
            M, N, pairsOf(K), reinterpret_cast<const uint32_t*>(A), 1, lda,
            [&](int j0) {
                return TileStrip{b + j0, N, N - j0};
            },
            C, ldc, accumulate);
    }
#endif
    sweepColumns<kRows, kCols>(M, N, pairsOf(K), reinterpret_cast<const uint32_t*>(A), 1, lda,
                               reinterpret_cast<const uint32_t*>(B), N, C, ldc, accumulate, blocksFor);
}

// The FP32 kernels read B in place; here it is rounded and packed first, as in gemm.
void tileGemm(int M, int N, int K, const float* A, int64_t aRow, int64_t aCol, const float* B, int64_t ldb, float* C,
              int64_t ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0)
        return emptyProduct(M, N, C, ldc, accumulate);
    packingProduct(M, N, K, packedRows(M, K, A, aRow, aCol), B, ldb, false, C, ldc, accumulate);
}

void gemm(bool transA, bool transB, int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* C,
          int ldc, bool accumulate)
{
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0)
        return emptyProduct(M, N, C, ldc, accumulate);
    packingProduct(M, N, K, packedRows(M, K, A, transA ? 1 : lda, transA ? lda : 1), B, ldb, transB, C, ldc,
                   accumulate);
}

} // namespace tb::TB_ISA
