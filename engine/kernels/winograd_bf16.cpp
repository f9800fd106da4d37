// Winograd's transforms for the bf16 products: the FP32 transforms of kernels/winograd_tiles.hpp,
// each matrix element's channels rounded to bf16 and paired as they are stored, in the layouts the
// bf16 products read (kernels/gemm_bf16.cpp). The products' operands are then written once, half
// as large, instead of written in FP32 and read back to be rounded and packed: the same values in
// the same pairs, so the same bits.
//   winogradInputRows            V as gemmPackedRows's left operand: a tile's channels in pairs
//                                (row p: (c0, c1), (c2, c3), ... in its first channels / 2 words);
//   winogradInputKRows and       V and Z as gemmKRows's operands: consecutive tiles in pairs
//   winogradOutputGradientKRows  (row q: word c = (tile 2q, tile 2q + 1) of channel c);
//   winogradKernel               U in packB's panels: row pair q's word c = (row 2q, row 2q + 1)
//                                of column c, so the kernels are transformed and packed at once.
#include "kernels/bf16_avx512.hpp"
#include "kernels/isa_kernels.hpp"
#include "kernels/winograd_tiles.hpp"

// GCC 12 warns -Wuninitialized inside AVX-512 intrinsics that start from _mm512_undefined_*()
// (_mm512_srli_epi32, _mm512_cvtepi32_epi16) wherever they are inlined into the transforms' loops of
// 8 and 16 lanes: a false positive (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wuninitialized"

namespace tb::TB_ISA {

namespace {
// 16 (or the first 8) lanes' bf16 values in order, as 16 (8) 16-bit words.
template <int Lanes> __m256i bf16Halves(const float* lanes)
{
    static_assert(Lanes == 8 || Lanes == 16);
    const __m512 v = Lanes == 16 ? _mm512_loadu_ps(lanes) : _mm512_maskz_loadu_ps(0xff, lanes);
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(roundedHigh(v), 16));
}

// Channels c0 .. c0 + Lanes - 1 (c0 a multiple of 8) of tile p as the words c0 / 2 .. of row p:
// word w holds bf16(channel 2w) in its low half and bf16(channel 2w + 1) in its high half, which is
// the channels' bf16 values in order.
struct StorePairs {
    template <int Lanes> static void put(float* block, int64_t p, int channels, int c0, const float* lanes)
    {
        void* out = reinterpret_cast<uint32_t*>(block + p * channels) + c0 / 2;
        const __m256i halves = bf16Halves<Lanes>(lanes);
        if constexpr (Lanes == 16)
            _mm256_storeu_si256(static_cast<__m256i*>(out), halves);
        else
            _mm_storeu_si128(static_cast<__m128i*>(out), _mm256_castsi256_si128(halves));
    }
    static void finish(float*, int64_t, int) {}
};

// Channels c0 .. of tile p into the low (p even) or high (p odd) halves of words c0 .. of row p / 2.
// An odd tile count leaves the last row's high halves to finish(), which zeroes them: the products
// read a whole last pair, and a zero there adds nothing.
struct StoreTilePairs {
    template <int Lanes> static void put(float* block, int64_t p, int channels, int c0, const float* lanes)
    {
        void* out = reinterpret_cast<uint32_t*>(block) + (p / 2) * channels + c0;
        // Each 16-bit value to its own 32-bit word, in the half that p's parity names.
        __m512i words = _mm512_cvtepu16_epi32(bf16Halves<Lanes>(lanes));
        if (p % 2)
            words = _mm512_slli_epi32(words, 16);
        const __mmask32 half = p % 2 ? 0xaaaaaaaau : 0x55555555u;
        _mm512_mask_storeu_epi16(out, Lanes == 16 ? half : half & 0xffffu, words);
    }
    static void finish(float* block, int64_t P, int channels)
    {
        if (P % 2 == 0)
            return;
        uint32_t* last = reinterpret_cast<uint32_t*>(block) + (P / 2) * channels;
        for (int c = 0; c < channels; c += 16)
            _mm512_mask_storeu_epi16(last + c, channels - c >= 16 ? 0xaaaaaaaau : 0xaaaau, _mm512_setzero_si512());
    }
};

// kernelTiles's store: row r's columns into the low (r even) or high (r odd) halves of its pair's
// words in packB's panels (kernels/gemm_bf16.cpp's packB: the rows in order, so an even row writes
// whole words, its pair's high halves zero until the odd row fills them, and stay zero when the
// last row is even, as packB's are).
struct StoreKernelPairPanels {
    static void put(float* matrix, int rows, int cols, int r, int c0, const float* lanes, int count)
    {
        uint32_t* words = reinterpret_cast<uint32_t*>(matrix);
        for (int h = 0; h < count; h += 8) {
            void* out = words + panelOffset((rows + 1) / 2, cols, r / 2, c0 + h);
            const __m256i pairs = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(bf16Halves<8>(lanes + h)));
            if (r % 2)
                _mm256_mask_storeu_epi16(out, 0xaaaa, _mm256_slli_epi32(pairs, 16));
            else
                _mm256_storeu_si256(static_cast<__m256i*>(out), pairs);
        }
    }
};
} // namespace

void winogradInputRows(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    winogradInputAs<StorePairs>(g, x, channels, n, s0, cn, V, fold);
}

void winogradInputKRows(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    winogradInputAs<StoreTilePairs>(g, x, channels, n, s0, cn, V, fold);
}

void winogradOutputGradientKRows(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z)
{
    winogradOutputGradientAs<StoreTilePairs>(g, dy, channels, n, s0, cn, Z);
}

void winogradKernel(Kind kind, const float* w, int cout, int cin, bool transposed, int r0, int r1, float* U)
{
    winogradKernelAs<StoreKernelPairPanels>(kind, w, cout, cin, transposed, r0, r1, U);
}

} // namespace tb::TB_ISA
