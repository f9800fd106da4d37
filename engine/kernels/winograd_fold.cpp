// The space-to-depth fold that turns a 6x6 stride-2 convolution into a 3x3 stride-1 one over 4x the
// channels (kernels/winograd.hpp); the transforms themselves are kernels (kernels/winograd.cpp).
#include "kernels/winograd.hpp"

#include <cstdint>

namespace tb::winograd {

namespace {
// Index of folded tap (co, phase*cin + ci, a, b) and of its source tap (co, ci, 2a+py, 2b+px).
template <typename Fn> void forEachFoldedTap(int cout, int cin, Fn&& fn)
{
    for (int co = 0; co < cout; ++co)
        for (int phase = 0; phase < 4; ++phase)
            for (int ci = 0; ci < cin; ++ci)
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b) {
                        const int64_t folded = ((int64_t(co) * 4 * cin + phase * cin + ci) * 3 + a) * 3 + b;
                        const int64_t src = ((int64_t(co) * cin + ci) * 6 + 2 * a + phase / 2) * 6 + 2 * b + phase % 2;
                        fn(folded, src);
                    }
}
} // namespace

void foldKernel(const float* w, int cout, int cin, float* wf)
{
    forEachFoldedTap(cout, cin, [&](int64_t folded, int64_t src) { wf[folded] = w[src]; });
}

void unfoldKernelGradient(const float* dWf, int cout, int cin, float* dW)
{
    forEachFoldedTap(cout, cin, [&](int64_t folded, int64_t src) { dW[src] += dWf[folded]; });
}

} // namespace tb::winograd
