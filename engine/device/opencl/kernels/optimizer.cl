// The optimizers' updates with Keras' rules (kernels/elementwise.cpp): new weights into out and new
// slots into next, beside the old ones, so a step that went non-finite is dropped by not swapping.
// status[2] |= a gradient was not finite, status[3] |= an updated weight was not finite (integer
// atomics: the result is the same whatever the order).

inline void tb_flag(__global volatile int* status, float g, float p)
{
    if (!isfinite(g))
        atomic_or(&status[2], 1);
    if (!isfinite(p))
        atomic_or(&status[3], 1);
}

__kernel void adam(__global const float* p, __global const float* g, __global const float* slots, __global float* next,
                   __global float* out, int n, float rate, float beta1, float beta2, float epsilon,
                   __global volatile int* status)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float gi = g[i];
    const float m = beta1 * slots[i] + (1.0f - beta1) * gi;
    const float v = beta2 * slots[n + i] + (1.0f - beta2) * gi * gi;
    next[i] = m;
    next[n + i] = v;
    const float o = p[i] - rate * m / (sqrt(v) + epsilon);
    out[i] = o;
    tb_flag(status, gi, o);
}

__kernel void sgd(__global const float* p, __global const float* g, __global const float* slots, __global float* next,
                  __global float* out, int n, float rate, float momentum, int nesterov, __global volatile int* status)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float gi = g[i];
    const float vel = momentum * slots[i] - rate * gi;
    next[i] = vel;
    const float o = p[i] + (nesterov ? momentum * vel - rate * gi : vel);
    out[i] = o;
    tb_flag(status, gi, o);
}

__kernel void rmsprop(__global const float* p, __global const float* g, __global const float* slots,
                      __global float* next, __global float* out, int n, float rate, float rho, float epsilon,
                      __global volatile int* status)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    const float gi = g[i];
    const float ms = rho * slots[i] + (1.0f - rho) * gi * gi;
    next[i] = ms;
    const float o = p[i] - rate * gi / (sqrt(ms) + epsilon);
    out[i] = o;
    tb_flag(status, gi, o);
}
