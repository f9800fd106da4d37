// bf16 rounding on 16 AVX-512 lanes, for the bf16 kernels (kernels/gemm_bf16.cpp,
// kernels/winograd_bf16.cpp): the engine's own rounding (kernels/bf16.hpp), not the CPU's
// conversion instructions. Private to the kernel sources: inside their level's namespace, in an
// anonymous one (kernels/isa_kernels.hpp).
#pragma once

#include "kernels/isa_kernels.hpp"

#include <immintrin.h>

namespace tb::TB_ISA {

// The bf16 kernels' Winograd transforms (kernels/winograd_bf16.cpp); the FP32 tables use the
// FP32 transforms in their place.
kernel::WinogradInput winogradInputRows;
kernel::WinogradInput winogradInputKRows;
kernel::WinogradOutputGradient winogradOutputGradientKRows;

namespace {

// The rounding of 16 lanes, bf16's bits in each lane's high half (the low half is left over).
// NaNs and subnormals, rare in training, are found by one class test and fixed on a slow path.
__m512i roundedHigh(__m512 v)
{
    const __m512i x = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
    __m512i r = _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7fff)), lsb);
    const __mmask16 special = _mm512_fpclass_ps_mask(v, 0x01 | 0x80 | 0x20); // quiet NaN, signalling NaN, subnormal
    if (__builtin_expect(special != 0, 0)) {
        const __mmask16 nan = _mm512_fpclass_ps_mask(v, 0x01 | 0x80);
        r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(x, _mm512_set1_epi32(0x00400000)));
        r = _mm512_mask_mov_epi32(r, special & ~nan, _mm512_and_si512(x, _mm512_set1_epi32(int(0x80000000u))));
    }
    return r;
}

} // namespace
} // namespace tb::TB_ISA
