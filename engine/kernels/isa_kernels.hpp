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
kernel::WinogradInput winogradInput;
kernel::WinogradOutput winogradOutput;
kernel::WinogradOutputGradient winogradOutputGradient;
kernel::WinogradKernel winogradKernel;
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

// a * b + c as one fused multiply-add where the level has FMA, else a rounded multiply then an add.
// Written out (the kernels are built with -ffp-contract=off): a compiler that fused some products
// and not others, depending on the code around them, made results depend on how a product was cut
// into blocks.
template <class V> inline V madd(V a, V b, V c)
{
#if TB_ISA_LEVEL == 0
    return a * b + c;
#else
    if constexpr (sizeof(V) == 4) {
        return __builtin_fmaf(a, b, c);
    } else if constexpr (sizeof(V) == 16) {
        return V(_mm_fmadd_ps(__m128(a), __m128(b), __m128(c)));
    } else if constexpr (sizeof(V) == 32) {
        return V(_mm256_fmadd_ps(__m256(a), __m256(b), __m256(c)));
    } else {
        static_assert(sizeof(V) == 64 && TB_ISA_LEVEL >= 2, "16-lane products are for AVX-512 only");
#if TB_ISA_LEVEL >= 2
        return V(_mm512_fmadd_ps(__m512(a), __m512(b), __m512(c)));
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
