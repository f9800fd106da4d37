// exp(x) from Cephes' expf polynomial, written so that a loop over it vectorizes (std::exp is a
// scalar libm call): x clamped to [-87, 88], relative error about 2 ulp; exp(88) and
// 1 / (1 + exp(88)) stay finite. Used by the ELU kernel (kernels/elementwise.cpp) and the LSTM cell
// (layers/lstm_cell.cpp), so both compute the same bits from one definition.
//
// A kernel source is compiled once per instruction-set level with TB_ISA naming that level's
// namespace (kernels/isa_kernels.hpp); there this header defines the function inside that
// namespace, so each level keeps its own copy and the linker cannot merge an AVX-512 copy into the
// baseline (tests/check_isa_leaks.sh). Elsewhere (code compiled once, with the engine's flags) it is
// tb::expPoly.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#ifdef TB_ISA
namespace tb::TB_ISA {
#else
namespace tb {
#endif

inline float expPoly(float x)
{
    x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
    const float fx = std::floor(x * 1.44269504088896341f + 0.5f);
    float r = x - fx * 0.693359375f;
    r = r - fx * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    return (p * r * r + r + 1.0f) * std::bit_cast<float>((int32_t(fx) + 127) << 23);
}

} // namespace tb or tb::TB_ISA
