// Winograd's input transform for the bf16 products (Kernels::winogradInputRows): the FP32 transform
// of kernels/winograd_tiles.hpp, each matrix element's channels rounded to bf16 and paired as it is
// stored, in the layout gemmPackedRows (kernels/gemm_bf16.cpp) reads. The products' left operand
// is then written once, half as large, instead of written in FP32 and read back to be packed:
// the same values in the same pairs, so the same bits.
#include "kernels/bf16_avx512.hpp"
#include "kernels/isa_kernels.hpp"
#include "kernels/winograd_tiles.hpp"

namespace tb::TB_ISA {

namespace {
// Channels c0 .. c0 + Lanes - 1 (c0 a multiple of 8) as the words c0 / 2 ..: word w holds
// bf16(channel 2w) in its low half and bf16(channel 2w + 1) in its high half, which is the
// channels' bf16 values in order.
struct StorePairs {
    template <int Lanes> static void put(float* row, int c0, const float* lanes)
    {
        static_assert(Lanes == 8 || Lanes == 16);
        const __m512 v = Lanes == 16 ? _mm512_loadu_ps(lanes) : _mm512_maskz_loadu_ps(0xff, lanes);
        const __m256i halves = _mm512_cvtepi32_epi16(_mm512_srli_epi32(roundedHigh(v), 16));
        void* out = reinterpret_cast<uint32_t*>(row) + c0 / 2;
        if constexpr (Lanes == 16)
            _mm256_storeu_si256(static_cast<__m256i*>(out), halves);
        else
            _mm_storeu_si128(static_cast<__m128i*>(out), _mm256_castsi256_si128(halves));
    }
};
} // namespace

void winogradInputRows(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    winogradInputAs<StorePairs>(g, x, channels, n, s0, cn, V, fold);
}

} // namespace tb::TB_ISA
