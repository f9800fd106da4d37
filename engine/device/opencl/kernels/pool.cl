// MaxPooling2D over [planes][H][W]: forward keeps each window's argmax (the first maximum on ties, a
// plane-relative index); backward gathers, for each input pixel, the gradients of the windows whose
// maximum it was, in output order (no atomics).

__kernel void maxpool_forward(__global const float* x, __global float* y, __global int* arg, int storeArg, int planes,
                              int h, int w, int ho, int wo, int kh, int kw, int sh, int sw, int padTop, int padLeft)
{
    const int g = get_global_id(0);
    if (g >= planes * ho * wo)
        return;
    const int p = g / (ho * wo), oy = (g / wo) % ho, ox = g % wo;
    __global const float* xp = x + (long)p * h * w;
    float best = -INFINITY;
    int at = -1;
    for (int ky = 0; ky < kh; ++ky) {
        const int iy = oy * sh - padTop + ky;
        if (iy < 0 || iy >= h)
            continue;
        for (int kx = 0; kx < kw; ++kx) {
            const int ix = ox * sw - padLeft + kx;
            if (ix < 0 || ix >= w)
                continue;
            const float v = xp[iy * w + ix];
            if (v > best || at < 0) {
                best = v;
                at = iy * w + ix;
            }
        }
    }
    y[g] = best;
    if (storeArg)
        arg[g] = at;
}

__kernel void maxpool_backward(__global const float* dy, __global const int* arg, __global float* dx, int planes, int h,
                               int w, int ho, int wo, int kh, int kw, int sh, int sw, int padTop, int padLeft)
{
    const int g = get_global_id(0);
    if (g >= planes * h * w)
        return;
    const int p = g / (h * w), iy = (g / w) % h, ix = g % w, self = iy * w + ix;
    const int ly = iy + padTop - kh + 1, lx = ix + padLeft - kw + 1;
    const int oy0 = ly <= 0 ? 0 : (ly + sh - 1) / sh, oy1 = min(ho - 1, (iy + padTop) / sh);
    const int ox0 = lx <= 0 ? 0 : (lx + sw - 1) / sw, ox1 = min(wo - 1, (ix + padLeft) / sw);
    const long base = (long)p * ho * wo;
    float sum = 0.0f;
    for (int oy = oy0; oy <= oy1; ++oy)
        for (int ox = ox0; ox <= ox1; ++ox)
            if (arg[base + oy * wo + ox] == self)
                sum += dy[base + oy * wo + ox];
    dx[g] = sum;
}
