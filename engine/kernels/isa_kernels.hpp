// Private to the kernel sources, which CMake compiles once per level with that level's -march and
// TB_ISA set to its namespace (isa_baseline, isa_avx2, isa_avx512, and isa_avx512bf16 for the bf16
// kernels: kernels/bf16_avx512.hpp). Everything a kernel source defines lives in that namespace,
// helpers included: a function with the same name in two levels would be merged by the linker,
// and the baseline could end up running AVX-512 code.
// (tests/check_isa_leaks.sh checks the binaries for such leaks.)
#pragma once

#if !defined(TB_ISA) || !defined(TB_ISA_LEVEL)
#error "kernel sources are compiled per level by engine/CMakeLists.txt, which defines TB_ISA and TB_ISA_LEVEL"
#endif

#include "kernels/kernels.hpp"

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tb::TB_ISA {

kernel::TileGemm tileGemm;
kernel::Gemm gemm;
kernel::PackB packB;
kernel::GemmPacked gemmPacked;
kernel::GemmPackedRows gemmPackedRows;
kernel::GemmKRows gemmKRows;
kernel::Transpose transposeMatrix;
kernel::Activate activate;
kernel::ActivationBackward activationBackward;
kernel::ChannelBiasActivate channelBiasActivate;
kernel::RowBiasActivate rowBiasActivate;
kernel::Im2col im2col;
kernel::Col2im col2im;
kernel::ConvDirect convDirect; // AVX-512's
kernel::WinogradInput winogradInput;
kernel::WinogradOutput winogradOutput;
kernel::WinogradOutputGradient winogradOutputGradient;
kernel::WinogradKernel winogradKernel;
kernel::WinogradKernel winogradKernelRows; // row-major, bf16_reference's packB layout
kernel::WinogradKernelGradient winogradKernelGradient;
kernel::Dropout dropout;
kernel::MaxPool maxPool;
kernel::BnSums bnSums;
kernel::BnAffine bnAffine;
kernel::BnBackwardSums bnBackwardSums;
kernel::BnBackwardDx bnBackwardDx;
kernel::Update adam;
kernel::Update sgd;
kernel::Update rmsprop;
kernel::AllFinite allFinite;
kernel::AccumulateAndClear accumulateAndClear;
kernel::LstmCell lstmCell;
kernel::LstmCellBackward lstmCellBackward;

// The width of the matrix products' column panels (packB's layout: kernels/gemm.cpp, and
// kernels/gemm_bf16.cpp at the AVX-512 level), which is their register block's width.
constexpr int kPanelCols = TB_ISA_LEVEL == 2 ? 32 : TB_ISA_LEVEL == 1 ? 24 : 8;

// Eight-lane vectors (GCC vector extensions): one AVX register, or two SSE ones at the baseline.
typedef float Floats8 __attribute__((vector_size(8 * sizeof(float))));
typedef int Ints8 __attribute__((vector_size(8 * sizeof(int))));

template <class V> inline V load(const float* p)
{
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V> inline void store(float* p, V v)
{
    std::memcpy(p, &v, sizeof v);
}

// BatchNorm's affine transform and its fused ReLU, on a float or on vectors of one channel
// (kernels/batch_norm.cpp; folded into a convolution's output, kernels/winograd.cpp). Backward
// recovers the ReLU's mask as x * mul + add > 0: the same two roundings (kernels are built with
// -ffp-contract=off, so neither becomes an FMA).
template <bool Relu, class T> inline T bnAffineOf(T x, float mul, float add)
{
    const T v = x * mul + add;
    if constexpr (Relu)
        return v < T{} ? T{} : v; // std::max(v, 0): v itself when NaN or -0
    else
        return v;
}

// The first `count` (0 to 8) lanes at p, the rest zero: one load when all 8, else masked where the
// level has masked loads (which touch no memory past the lanes loaded). A memcpy of a variable
// length is a call into libc for every partial block of an image narrower than 8 pixels: it was 4%
// of tpu-mnist-cnn's evaluation (the output transform), and colab-fashion-cnn's pooling went from
// 5.1% to 2.8% of its evaluation with these (perf, one thread).
inline Floats8 loadFirst(const float* p, int count)
{
    Floats8 v{};
    if (count == 8) {
        std::memcpy(&v, p, sizeof v);
        return v;
    }
#if TB_ISA_LEVEL == 2
    v = Floats8(_mm256_maskz_loadu_ps(__mmask8((1u << count) - 1), p));
#elif TB_ISA_LEVEL == 1
    v = Floats8(
        _mm256_maskload_ps(p, _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
#else
    for (int i = 0; i < count; ++i)
        v[i] = p[i];
#endif
    return v;
}

// The first `count` (0 to 8) lanes of v (Floats8 or Ints8) to p (float or int32_t), as loadFirst.
template <class T, class V> inline void storeFirst(T* p, V v, int count)
{
    static_assert(sizeof(T) == 4 && sizeof(V) == 32);
    if (count == 8) {
        std::memcpy(p, &v, sizeof v);
        return;
    }
#if TB_ISA_LEVEL == 2
    _mm256_mask_storeu_ps(p, __mmask8((1u << count) - 1), __m256(v));
#elif TB_ISA_LEVEL == 1
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    _mm256_maskstore_ps(reinterpret_cast<float*>(p), _mm256_cmpgt_epi32(_mm256_set1_epi32(count), lane), __m256(v));
#else
    for (int i = 0; i < count; ++i)
        p[i] = v[i];
#endif
}

// a * b + c as one fused multiply-add where the level has FMA, else a rounded multiply then an add.
// Written out (the kernels are built with -ffp-contract=off): a compiler that fused some products
// and not others, depending on the code around them, made results depend on how a product was cut
// into blocks. constexpr for floats, for winograd_tiles.hpp's compile-time checks of its transforms:
// there unfused (clang 14 cannot evaluate __builtin_fmaf), which changes nothing in those checks,
// whose every value is exact.
template <class V> constexpr V madd(V a, V b, V c)
{
#if TB_ISA_LEVEL == 0
    return a * b + c;
#else
    if constexpr (sizeof(V) == 4) {
        if (std::is_constant_evaluated())
            return a * b + c;
        return __builtin_fmaf(a, b, c);
    } else if constexpr (sizeof(V) == 16) {
        return V(_mm_fmadd_ps(__m128(a), __m128(b), __m128(c)));
    } else if constexpr (sizeof(V) == 32) {
        return V(_mm256_fmadd_ps(__m256(a), __m256(b), __m256(c)));
    } else {
        static_assert(sizeof(V) == 64);
#if TB_ISA_LEVEL >= 2
        return V(_mm512_fmadd_ps(__m512(a), __m512(b), __m512(c)));
#else
        // Winograd's transforms take 8 lanes below AVX-512 (winograd_tiles.hpp's kTransformLanes).
        static_assert(sizeof(V) == 0, "16-lane vectors are AVX-512's");
#endif
    }
#endif
}

// r[i][j] <- r[j][i]: unpack, shuffle, then swap 128-bit halves (the AVX 8x8 transpose).
inline void transpose8(Floats8 (&r)[8])
{
    Floats8 t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < 8; i += 4)
        for (int j = 0; j < 2; ++j) {
            u[i + j] = __builtin_shufflevector(t[i + j], t[i + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            u[i + j + 2] = __builtin_shufflevector(t[i + j], t[i + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    // u[0] holds rows 0-3 of columns 0 and 4 (as 128-bit halves), u[1] of columns 2 and 6 (from t[1]),
    // u[2] columns 1 and 5, u[3] columns 3 and 7; u[4..7] the same for rows 4-7.
    const int column[4] = {0, 2, 1, 3};
    for (int i = 0; i < 4; ++i) {
        r[column[i]] = __builtin_shufflevector(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[column[i] + 4] = __builtin_shufflevector(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

// A per-thread scratch buffer that only grows (no std::vector here: its out-of-line members would
// be compiled once per level under the same name).
template <class T> class Scratch {
public:
    T* get(int64_t count)
    {
        if (count > m_size) {
            delete[] m_data;
            m_data = new T[size_t(count)];
            m_size = count;
        }
        return m_data;
    }
    ~Scratch() { delete[] m_data; }

private:
    T* m_data = nullptr;
    int64_t m_size = 0;
};

} // namespace tb::TB_ISA
