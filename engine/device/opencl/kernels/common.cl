// Shared by every kernel file: the program is their concatenation, this one first.
// Multiply-adds are never fused behind the source's back (the CPU kernels are built the same way),
// and every reduction runs in a fixed order: a work-group's tree, never atomics on floats.
#pragma OPENCL FP_CONTRACT OFF

#ifdef TB_PROVOKE_BUILD_ERROR
#error "build failure provoked on purpose (TRAINBENCH_OPENCL_BUILD_OPTIONS=-DTB_PROVOKE_BUILD_ERROR)"
#endif

#define ACT_LINEAR 0
#define ACT_RELU 1
#define ACT_ELU 2
#define WG 256 // items of the reduction kernels' work-groups

inline float tb_activate(int a, float x)
{
    if (a == ACT_RELU)
        return x < 0.0f ? 0.0f : x; // NaN passes, as on the CPU
    if (a == ACT_ELU)
        return x > 0.0f ? x : expm1(x);
    return x;
}

// dy times the activation's derivative, read from the output y (ELU: y + 1 below zero).
inline float tb_activation_grad(int a, float y, float dy)
{
    if (a == ACT_RELU)
        return y > 0.0f ? dy : 0.0f;
    if (a == ACT_ELU)
        return y > 0.0f ? dy : dy * (y + 1.0f);
    return dy;
}

// core/rng.hpp's SplitMix64 finalizer and hashKey, and kernels/elementwise.cpp's mix32.
inline ulong tb_mix64(ulong z)
{
    z += 0x9E3779B97F4A7C15UL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
    return z ^ (z >> 31);
}
inline ulong tb_hash_key(ulong a, ulong b)
{
    return tb_mix64(a ^ tb_mix64(b + 0x632BE59BD9B4E019UL));
}
inline uint tb_mix32(uint h)
{
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    return h ^ (h >> 16);
}

// The sum of the work-group's WG values, halved in a fixed tree; every item gets it.
inline float tb_group_sum(__local float* scratch, float v)
{
    const int l = get_local_id(0);
    scratch[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
