// bfloat16 as the engine rounds to it (Precision::Bf16, kernels/isa.hpp): the top 16 bits of an
// FP32 value, rounded to nearest even; subnormals become a zero of the same sign (the AVX512_BF16
// products read them as zero anyway), infinities stay, a NaN stays a quiet NaN. Plain C++: the
// same on every CPU. kernels/gemm_bf16.cpp has its own copy inside its level's namespace, as every
// kernel source must (kernels/isa_kernels.hpp); tst_core checks the two agree.
#pragma once

#include <cstdint>
#include <cstring>

namespace tb {

inline uint16_t bf16FromFloat(float x)
{
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0)
        return uint16_t((u >> 16) | 0x40u);
    if ((u & 0x7f800000u) == 0)
        return uint16_t((u >> 16) & 0x8000u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float floatFromBf16(uint16_t b)
{
    const uint32_t u = uint32_t(b) << 16;
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// x rounded to the nearest bf16, as an FP32 value.
inline float roundToBf16(float x)
{
    return floatFromBf16(bf16FromFloat(x));
}

} // namespace tb
