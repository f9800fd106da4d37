// exp(x) - 1 for ELU, written so the compiler vectorizes the loop (std::expm1 is a scalar libm
// call). Cephes' expf polynomial: relative error about 2 ulp of exp(x); identical on every
// thread, so it keeps training deterministic.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace tb {

inline float expMinusOne(float x)
{
    x = x < -87.0f ? -87.0f : x;
    const float fx = std::floor(x * 1.44269504088896341f + 0.5f);
    float r = x - fx * 0.693359375f;
    r = r - fx * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float e = (p * r * r + r + 1.0f) * std::bit_cast<float>((int32_t(fx) + 127) << 23);
    return e - 1.0f;
}

}  // namespace tb
