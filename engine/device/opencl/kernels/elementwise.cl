// Bias, activations, dropout and the layout changes of Flatten and Reshape.

// y [channels][len] += bias[c] when hasBias, then the activation (Conv2D).
__kernel void bias_act_channels(__global float* y, int channels, int len, __global const float* params, int biasOffset,
                                int hasBias, int act)
{
    const int g = get_global_id(0);
    if (g >= channels * len)
        return;
    float v = y[g];
    if (hasBias)
        v += params[biasOffset + g / len];
    y[g] = tb_activate(act, v);
}

// y [rows][cols] += bias[j] when hasBias, then the activation (Dense).
__kernel void bias_act_rows(__global float* y, int rows, int cols, __global const float* params, int biasOffset,
                            int hasBias, int act)
{
    const int g = get_global_id(0);
    if (g >= rows * cols)
        return;
    float v = y[g];
    if (hasBias)
        v += params[biasOffset + g % cols];
    y[g] = tb_activate(act, v);
}

__kernel void activate_copy(__global const float* x, __global float* y, int n, int act)
{
    const int g = get_global_id(0);
    if (g < n)
        y[g] = tb_activate(act, x[g]);
}

// dx = dy * f'(y); dx may be dy.
__kernel void activation_backward(__global const float* y, __global float* dy, __global float* dx, int n, int act)
{
    const int g = get_global_id(0);
    if (g < n)
        dx[g] = tb_activation_grad(act, y[g], dy[g]);
}

// out = keep ? in * scale : 0 with layers/dropout.cpp's mask: the sample's key from (layerKey, sample
// index in the batch), the feature's hash from (key, c * plane + j); spatial [C][n][plane], flat [n][plane].
__kernel void dropout(__global const float* in, __global float* out, int n, int channels, int plane, int spatial,
                      ulong layerKey, uint threshold, float scale)
{
    const int g = get_global_id(0);
    if (g >= n * channels * plane)
        return;
    const int j = g % plane;
    const int i = spatial ? (g / plane) % n : g / plane;
    const int c = spatial ? g / (n * plane) : 0;
    const uint sampleKey = (uint)tb_hash_key(layerKey, (ulong)i);
    const uint h = tb_mix32(sampleKey + ((uint)c * (uint)plane + (uint)j) * 0x9E3779B9u);
    const float v = in[g] * scale;
    out[g] = (h >> 8) >= threshold ? v : 0.0f;
}

// dst (shape "to") = src (shape "from") through Keras' channels-last order (layers/reshape.hpp):
// spatial tensors are [C][n][H*W], flat ones [n][F].
__kernel void convert_layout(__global const float* src, __global float* dst, int n, int fromSpatial, int fromPlane,
                             int fromC, int toSpatial, int toPlane, int toC)
{
    const int g = get_global_id(0);
    const int size = toPlane * toC;
    if (g >= n * size)
        return;
    int i, f;
    if (toSpatial) {
        const int c = g / (n * toPlane), p = g % toPlane;
        i = (g / toPlane) % n;
        f = p * toC + c;
    } else {
        i = g / size;
        f = g % size;
    }
    const int at = fromSpatial ? ((f % fromC) * n + i) * fromPlane + f / fromC : i * size + f;
    dst[g] = src[at];
}

// out[offset + c] (+)= sum over j < count of x[c * cstride + j * jstride], in a fixed order: one
// work-group per c (a Conv2D's bias gradient over its rows, a Dense's over its columns).
__kernel void channel_sum(__global const float* x, int count, int cstride, int jstride, __global float* out,
                          int offset, int accumulate)
{
    __local float scratch[WG];
    const int c = get_group_id(0), l = get_local_id(0);
    float s = 0.0f;
    for (int j = l; j < count; j += WG)
        s += x[(long)c * cstride + (long)j * jstride];
    s = tb_group_sum(scratch, s);
    if (l == 0)
        out[offset + c] = accumulate ? out[offset + c] + s : s;
}

// out[offset + i] += partial[0][i] + partial[1][i] + ... in order: a split product's pieces (Conv2D's
// kernel gradient, whose long sum over the batch's columns is cut in pieces computed side by side).
__kernel void sum_partials(__global const float* partial, int parts, int size, __global float* out, int offset)
{
    const int g = get_global_id(0);
    if (g >= size)
        return;
    float s = out[offset + g];
    for (int p = 0; p < parts; ++p)
        s += partial[(long)p * size + g];
    out[offset + g] = s;
}
