// The shape of a 2D convolution or pooling window over [C][n][H][W] images.
#pragma once

#include <cstdint>

namespace tb {

struct ConvGeometry {
    int cin, h, w;      // input
    int cout, ho, wo;   // output
    int kh, kw, sh, sw; // kernel (or pooling window) and strides
    int padTop, padLeft;
    int64_t k() const { return int64_t(cin) * kh * kw; }
};

// Output size and leading padding for one axis, as Keras computes them.
void kerasPadding(bool same, int in, int kernel, int stride, int& out, int& padBefore);

} // namespace tb
