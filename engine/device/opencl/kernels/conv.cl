// Conv2D's im2col and its adjoint over samples [s0, s0 + cn) of a batch of n, [C][n][H][W]:
// cols [K][cn * Ho * Wo] with K = (ci, ky, kx), as kernels/conv.cpp lays them out. Indices are int
// (the backend keeps every buffer under 2^31 floats): 64-bit divisions are many times slower on GPUs.

__kernel void im2col(__global const float* x, int n, int s0, int cn, int cin, int h, int w, int kh, int kw, int sh,
                     int sw, int padTop, int padLeft, int ho, int wo, __global float* cols)
{
    const int g = get_global_id(0);
    const int ohw = ho * wo;
    const int rowLen = cn * ohw;
    if (g >= cin * kh * kw * rowLen)
        return;
    const int k = g / rowLen, j = g % rowLen;
    const int kx = k % kw, ky = (k / kw) % kh, ci = k / (kw * kh);
    const int s = j / ohw, r = j % ohw, oy = r / wo, ox = r % wo;
    const int iy = oy * sh + ky - padTop, ix = ox * sw + kx - padLeft;
    const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
    cols[g] = inside ? x[((ci * n + s0 + s) * h + iy) * w + ix] : 0.0f;
}

// dx of samples [s0, s0 + cn) = the sum of the columns that read each pixel, gathered in (ky, kx) order.
__kernel void col2im(__global const float* cols, int n, int s0, int cn, int cin, int h, int w, int kh, int kw, int sh,
                     int sw, int padTop, int padLeft, int ho, int wo, __global float* dx)
{
    const int g = get_global_id(0);
    const int hw = h * w, ohw = ho * wo;
    if (g >= cin * cn * hw)
        return;
    const int ci = g / (cn * hw), s = (g / hw) % cn, iy = (g % hw) / w, ix = (g % hw) % w;
    const int rowLen = cn * ohw;
    float sum = 0.0f;
    for (int ky = 0; ky < kh; ++ky) {
        const int ty = iy + padTop - ky;
        if (ty < 0 || ty % sh != 0 || ty / sh >= ho)
            continue;
        const int oy = ty / sh;
        for (int kx = 0; kx < kw; ++kx) {
            const int tx = ix + padLeft - kx;
            if (tx < 0 || tx % sw != 0 || tx / sw >= wo)
                continue;
            sum += cols[((ci * kh + ky) * kw + kx) * rowLen + s * ohw + oy * wo + tx / sw];
        }
    }
    dx[((ci * n + s0 + s) * h + iy) * w + ix] = sum;
}
