// BatchNorm (layers/batch_norm.hpp): per-channel statistics in one work-group per channel, the folded
// affine transform with the fused ReLU, and the input gradient. Element j of channel c is at
// c * cstride + j * jstride: spatial [C][n*plane] (cstride n*plane, jstride 1), flat [n][C] (1, C).
// ch holds the layer's per-channel constants: mean, invStd, mul, add, dMean, dXhat, dxScale (C each).

#define CH_MEAN 0
#define CH_INV 1
#define CH_MUL 2
#define CH_ADD 3
#define CH_DMEAN 4
#define CH_DXHAT 5
#define CH_DXSCALE 6

inline float bn_gamma(__global const float* params, int gammaAt, int c)
{
    return gammaAt >= 0 ? params[gammaAt + c] : 1.0f;
}
inline float bn_beta(__global const float* params, int betaAt, int c)
{
    return betaAt >= 0 ? params[betaAt + c] : 0.0f;
}

// The batch's mean and variance (two passes), the folded transform, and the moving statistics
// (state [mean][variance] at stateAt) moved towards them.
__kernel void bn_stats(__global const float* x, int C, int count, int cstride, int jstride, float epsilon,
                       float momentum, __global const float* params, int gammaAt, int betaAt, __global float* state,
                       int stateAt, __global float* ch)
{
    __local float scratch[WG];
    const int c = get_group_id(0), l = get_local_id(0);
    __global const float* xc = x + (long)c * cstride;
    float s = 0.0f;
    for (int j = l; j < count; j += WG)
        s += xc[(long)j * jstride];
    const float mean = tb_group_sum(scratch, s) / (float)count;
    float q = 0.0f;
    for (int j = l; j < count; j += WG) {
        const float d = xc[(long)j * jstride] - mean;
        q += d * d;
    }
    const float var = tb_group_sum(scratch, q) / (float)count;
    if (l == 0) {
        const float inv = 1.0f / sqrt(var + epsilon);
        const float mul = bn_gamma(params, gammaAt, c) * inv;
        ch[CH_MEAN * C + c] = mean;
        ch[CH_INV * C + c] = inv;
        ch[CH_MUL * C + c] = mul;
        ch[CH_ADD * C + c] = bn_beta(params, betaAt, c) - mean * mul;
        state[stateAt + c] = state[stateAt + c] * momentum + mean * (1.0f - momentum);
        state[stateAt + C + c] = state[stateAt + C + c] * momentum + var * (1.0f - momentum);
    }
}

// Evaluation: the transform from the moving statistics.
__kernel void bn_eval_fold(int C, float epsilon, __global const float* params, int gammaAt, int betaAt,
                           __global const float* state, int stateAt, __global float* ch)
{
    const int c = get_global_id(0);
    if (c >= C)
        return;
    const float inv = 1.0f / sqrt(state[stateAt + C + c] + epsilon);
    const float gamma = bn_gamma(params, gammaAt, c);
    ch[CH_MUL * C + c] = gamma * inv;
    ch[CH_ADD * C + c] = bn_beta(params, betaAt, c) - state[stateAt + c] * gamma * inv;
}

// y = x * mul + add, then the fused ReLU; channelLen > 0: spatial (c = g / channelLen), else flat (g % C).
__kernel void bn_affine(__global const float* x, __global float* y, int total, int C, int channelLen, int relu,
                        __global const float* ch)
{
    const int g = get_global_id(0);
    if (g >= total)
        return;
    const int c = channelLen > 0 ? g / channelLen : g % C;
    const float v = x[g] * ch[CH_MUL * C + c] + ch[CH_ADD * C + c];
    y[g] = relu && v < 0.0f ? 0.0f : v;
}

// d = dy through the ReLU's mask (recomputed from x); sums of d and d * xhat per channel, the
// parameter gradients (gamma: sum d*xhat, beta: sum d) and backward's constants.
__kernel void bn_backward_sums(__global const float* dy, __global const float* x, int C, int count, int cstride,
                               int jstride, int relu, __global const float* params, int gammaAt,
                               __global float* grad, int gradGammaAt, int gradBetaAt, __global float* ch)
{
    __local float scratch[WG];
    const int c = get_group_id(0), l = get_local_id(0);
    const float mean = ch[CH_MEAN * C + c], inv = ch[CH_INV * C + c];
    const float mul = ch[CH_MUL * C + c], add = ch[CH_ADD * C + c];
    float u = 0.0f, v = 0.0f;
    for (int j = l; j < count; j += WG) {
        const long at = (long)c * cstride + (long)j * jstride;
        const float xv = x[at];
        const float d = relu && !(xv * mul + add > 0.0f) ? 0.0f : dy[at];
        u += d;
        v += d * (xv - mean) * inv;
    }
    const float sdy = tb_group_sum(scratch, u);
    const float sdyx = tb_group_sum(scratch, v);
    if (l == 0) {
        ch[CH_DMEAN * C + c] = sdy / (float)count;
        ch[CH_DXHAT * C + c] = sdyx / (float)count;
        ch[CH_DXSCALE * C + c] = bn_gamma(params, gammaAt, c) * inv;
        if (gradGammaAt >= 0)
            grad[gradGammaAt + c] += sdyx;
        if (gradBetaAt >= 0)
            grad[gradBetaAt + c] += sdy;
    }
}

// dx = gamma * invStd * (d - mean(d) - xhat * mean(d * xhat)).
__kernel void bn_backward_dx(__global const float* dy, __global const float* x, __global float* dx, int total, int C,
                             int channelLen, int relu, __global const float* ch)
{
    const int g = get_global_id(0);
    if (g >= total)
        return;
    const int c = channelLen > 0 ? g / channelLen : g % C;
    const float xv = x[g];
    const float d = relu && !(xv * ch[CH_MUL * C + c] + ch[CH_ADD * C + c] > 0.0f) ? 0.0f : dy[g];
    dx[g] = ch[CH_DXSCALE * C + c] *
            (d - ch[CH_DMEAN * C + c] - (xv - ch[CH_MEAN * C + c]) * ch[CH_INV * C + c] * ch[CH_DXHAT * C + c]);
}
