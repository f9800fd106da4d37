// Winograd's shared pieces (kernels/winograd.hpp): the transform matrices, the vector transforms,
// the channels-last image copy, and the input and output-gradient transforms, used by the FP32
// transforms (kernels/winograd.cpp) and by the bf16 kernels' transforms, which write rounded pairs
// (kernels/winograd_bf16.cpp). Private to the kernel sources: inside their level's namespace, in an
// anonymous one, so no two levels share a symbol (kernels/isa_kernels.hpp).
#pragma once

#include "kernels/isa_kernels.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tb::TB_ISA {

using winograd::Kind;
using winograd::TileGrid;

namespace {
// c in every lane of a vector (V float: c).
template <class V> constexpr V splat(float c)
{
    return c - V{};
}

template <int R, int C> struct Mat {
    float v[R][C];
};
template <int R, int C> constexpr Mat<C, R> transpose(const float (&m)[R][C])
{
    Mat<C, R> t{};
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            t.v[c][r] = m[r][c];
    return t;
}

// The 1-D transform by the matrix M (R x K) as written, for transform2d: out[r] = sum over k of
// M[r][k] in[k], from zero in k order. Unrolled and inlined, its coefficients become immediates and
// its zeros drop out. The kernels' transforms (G, G^T), once per step.
template <int R, int K> constexpr auto byMatrix(const float (&M)[R][K])
{
    return [&M](const auto& in, auto& out) __attribute__((always_inline))
    {
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            std::remove_reference_t<decltype(out[r])> acc = {};
#pragma GCC unroll 16
            for (int k = 0; k < K; ++k)
                if (M[r][k] != 0.0f)
                    acc += M[r][k] * in[k];
            out[r] = acc;
        }
    };
}

// z[0..4] of the output gradient's transform z = A d (A^T's columns) for 4x4 output tiles: the rows of
// the points 0, 1, -1, 2 and -2, which both 4x4 variants have. 9 operations.
template <class V> constexpr void gradientAtSmallPoints(const V (&d)[4], V* z)
{
    z[0] = d[0];
    const V e1 = d[0] + d[2], o1 = d[1] + d[3];
    z[1] = e1 + o1;
    z[2] = e1 - o1;
    const V e2 = madd(splat<V>(4), d[2], d[0]), o2 = madd(splat<V>(8), d[3], d[1] + d[1]);
    z[3] = e2 + o2;
    z[4] = e2 - o2;
}

// Each variant: its input tile side kTile (kElems = kTile^2 transformed elements) and output tile
// kOut, as winograd.hpp gives them; the kernel side and the image's padding; B^T (input), G (kernel)
// and A^T (output). B^T and A^T are exact in binary; G's fractions are rounded. The tiles' transforms
// apply B^T, A^T and A (A^T's transpose) through `input`, `output` and `outputGradient`: the
// matrices' rows factored by hand, with the sums they share computed once and the multiply-adds fused
// where the level has FMA (isa_kernels.hpp's madd); factoredAsWritten (below) checks at compile
// time that they are the matrices. The kernels' transforms, once per step, multiply by G as it is
// (byMatrix, above).
struct F4x4_5x5 {
    static constexpr int kTile = winograd::inputTile(Kind::F4x4_5x5), kElems = kTile * kTile;
    static constexpr int kOut = winograd::outputTile(Kind::F4x4_5x5), kKernel = 5, kPad = 2;
    // The points 0, 1, -1, 2, -2, 1/2, -1/2 and infinity: Lavin and Gray's F(6x6, 3x3) B^T, which
    // depends on the points only.
    static constexpr float BT[8][8] = {{1, 0, -21.0f / 4, 0, 21.0f / 4, 0, -1, 0},
                                       {0, 1, 1, -17.0f / 4, -17.0f / 4, 1, 1, 0},
                                       {0, -1, 1, 17.0f / 4, -17.0f / 4, -1, 1, 0},
                                       {0, 1.0f / 2, 1.0f / 4, -5.0f / 2, -5.0f / 4, 2, 1, 0},
                                       {0, -1.0f / 2, 1.0f / 4, 5.0f / 2, -5.0f / 4, -2, 1, 0},
                                       {0, 2, 4, -5.0f / 2, -5, 1.0f / 2, 1, 0},
                                       {0, -2, 4, 5.0f / 2, -5, -1.0f / 2, 1, 0},
                                       {0, -1, 0, 21.0f / 4, 0, -21.0f / 4, 0, 1}};
    static_assert(std::extent_v<decltype(BT)> == kTile);
    static constexpr float G[8][5] = {{1, 0, 0, 0, 0},
                                      {-2.0f / 9, -2.0f / 9, -2.0f / 9, -2.0f / 9, -2.0f / 9},
                                      {-2.0f / 9, 2.0f / 9, -2.0f / 9, 2.0f / 9, -2.0f / 9},
                                      {1.0f / 90, 1.0f / 45, 2.0f / 45, 4.0f / 45, 8.0f / 45},
                                      {1.0f / 90, -1.0f / 45, 2.0f / 45, -4.0f / 45, 8.0f / 45},
                                      {32.0f / 45, 16.0f / 45, 8.0f / 45, 4.0f / 45, 2.0f / 45},
                                      {32.0f / 45, -16.0f / 45, 8.0f / 45, -4.0f / 45, 2.0f / 45},
                                      {0, 0, 0, 0, 1}};
    static constexpr float AT[4][8] = {{1, 1, 1, 1, 1, 1, 1, 0},
                                       {0, 1, -1, 2, -2, 1.0f / 2, -1.0f / 2, 0},
                                       {0, 1, 1, 4, 4, 1.0f / 4, 1.0f / 4, 0},
                                       {0, 1, -1, 8, -8, 1.0f / 8, -1.0f / 8, 1}};

    // t = B^T d, the rows above in pairs that share their sums: 26 operations instead of 72.
    template <class V> static constexpr void input(const V (&d)[8], V (&t)[8])
    {
        t[0] = madd(splat<V>(21.0f / 4), d[4] - d[2], d[0] - d[6]);
        t[7] = madd(splat<V>(21.0f / 4), d[3] - d[5], d[7] - d[1]);
        const V a1 = madd(splat<V>(-17.0f / 4), d[4], d[2] + d[6]), b1 = madd(splat<V>(-17.0f / 4), d[3], d[1] + d[5]);
        t[1] = a1 + b1;
        t[2] = a1 - b1;
        const V a3 = madd(splat<V>(1.0f / 4), d[2], madd(splat<V>(-5.0f / 4), d[4], d[6]));
        const V b3 = madd(splat<V>(1.0f / 2), d[1], madd(splat<V>(-5.0f / 2), d[3], d[5] + d[5]));
        t[3] = a3 + b3;
        t[4] = a3 - b3;
        const V a5 = madd(splat<V>(4), d[2], madd(splat<V>(-5), d[4], d[6]));
        const V b5 = madd(splat<V>(2), d[1], madd(splat<V>(-5.0f / 2), d[3], splat<V>(1.0f / 2) * d[5]));
        t[5] = a5 + b5;
        t[6] = a5 - b5;
    }
    // o = A^T m: 16 operations instead of 38.
    template <class V> static constexpr void output(const V (&m)[8], V (&o)[4])
    {
        const V s1 = m[1] + m[2], s2 = m[3] + m[4], s3 = m[5] + m[6];
        const V d1 = m[1] - m[2], d2 = m[3] - m[4], d3 = m[5] - m[6];
        o[0] = m[0] + s1 + s2 + s3;
        o[1] = madd(splat<V>(2), d2, madd(splat<V>(1.0f / 2), d3, d1));
        o[2] = madd(splat<V>(4), s2, madd(splat<V>(1.0f / 4), s3, s1));
        o[3] = madd(splat<V>(8), d2, madd(splat<V>(1.0f / 8), d3, d1 + m[7]));
    }
    // z = A d (A^T's columns): 14 operations instead of 38.
    template <class V> static constexpr void outputGradient(const V (&d)[4], V (&z)[8])
    {
        gradientAtSmallPoints(d, z);
        z[7] = d[3];
        const V e3 = madd(splat<V>(1.0f / 4), d[2], d[0]),
                o3 = madd(splat<V>(1.0f / 8), d[3], splat<V>(1.0f / 2) * d[1]);
        z[5] = e3 + o3;
        z[6] = e3 - o3;
    }
};
struct F4x4_3x3 {
    static constexpr int kTile = winograd::inputTile(Kind::F4x4_3x3), kElems = kTile * kTile;
    static constexpr int kOut = winograd::outputTile(Kind::F4x4_3x3), kKernel = 3, kPad = 1;
    // The points 0, 1, -1, 2, -2 and infinity.
    static constexpr float BT[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                                       {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
    static_assert(std::extent_v<decltype(BT)> == kTile);
    static constexpr float G[6][3] = {{1.0f / 4, 0, 0},
                                      {-1.0f / 6, -1.0f / 6, -1.0f / 6},
                                      {-1.0f / 6, 1.0f / 6, -1.0f / 6},
                                      {1.0f / 24, 1.0f / 12, 1.0f / 6},
                                      {1.0f / 24, -1.0f / 12, 1.0f / 6},
                                      {0, 0, 1}};
    static constexpr float AT[4][6] = {
        {1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};

    // t = B^T d: 14 operations instead of 34.
    template <class V> static constexpr void input(const V (&d)[6], V (&t)[6])
    {
        t[0] = madd(splat<V>(4), d[0], madd(splat<V>(-5), d[2], d[4]));
        t[1] = madd(splat<V>(-4), d[1] + d[2], d[3] + d[4]);
        t[2] = madd(splat<V>(4), d[1] - d[2], d[4] - d[3]);
        const V a = d[4] - d[2], b = d[3] - d[1];
        t[3] = madd(splat<V>(2), b, a);
        t[4] = madd(splat<V>(-2), b, a);
        t[5] = madd(splat<V>(4), d[1], madd(splat<V>(-5), d[3], d[5]));
    }
    // o = A^T m: 10 operations instead of 24.
    template <class V> static constexpr void output(const V (&m)[6], V (&o)[4])
    {
        const V s1 = m[1] + m[2], s2 = m[3] + m[4], d1 = m[1] - m[2], d2 = m[3] - m[4];
        o[0] = m[0] + s1 + s2;
        o[1] = madd(splat<V>(2), d2, d1);
        o[2] = madd(splat<V>(4), s2, s1);
        o[3] = madd(splat<V>(8), d2, d1 + m[5]);
    }
    // z = A d (A^T's columns): 9 operations instead of 24.
    template <class V> static constexpr void outputGradient(const V (&d)[4], V (&z)[6])
    {
        gradientAtSmallPoints(d, z);
        z[5] = d[3];
    }
};

// F(5x5, 3x3): the points 0, 1, -1, 2, -2, 1/2 and infinity. Each row of B^T is the polynomial whose
// roots are the other finite points (ascending powers, as F(4x4, 3x3)'s); those of 0, +-1, +-2 and
// infinity are F(4x4, 3x3)'s times (x - 1/2), and that of 1/2 is F(4x4, 3x3)'s row of infinity.
struct F5x5_3x3 {
    static constexpr int kTile = winograd::inputTile(Kind::F5x5_3x3), kElems = kTile * kTile;
    static constexpr int kOut = winograd::outputTile(Kind::F5x5_3x3), kKernel = 3, kPad = 1;
    static constexpr float BT[7][7] = {{-2, 4, 5.0f / 2, -5, -1.0f / 2, 1, 0}, {0, 2, -2, -9.0f / 2, 1.0f / 2, 1, 0},
                                       {0, -2, 6, -7.0f / 2, -3.0f / 2, 1, 0}, {0, 1, -3.0f / 2, -2, 3.0f / 2, 1, 0},
                                       {0, -1, 5.0f / 2, 0, -5.0f / 2, 1, 0},  {0, 4, 0, -5, 0, 1, 0},
                                       {0, -2, 4, 5.0f / 2, -5, -1.0f / 2, 1}};
    static_assert(std::extent_v<decltype(BT)> == kTile);
    static constexpr float G[7][3] = {{-1.0f / 2, 0, 0},
                                      {-1.0f / 3, -1.0f / 3, -1.0f / 3},
                                      {1.0f / 9, -1.0f / 9, 1.0f / 9},
                                      {1.0f / 36, 1.0f / 18, 1.0f / 9},
                                      {-1.0f / 60, 1.0f / 30, -1.0f / 15},
                                      {32.0f / 45, 16.0f / 45, 8.0f / 45},
                                      {0, 0, 1}};
    static constexpr float AT[5][7] = {{1, 1, 1, 1, 1, 1, 0},
                                       {0, 1, -1, 2, -2, 1.0f / 2, 0},
                                       {0, 1, 1, 4, 4, 1.0f / 4, 0},
                                       {0, 1, -1, 8, -8, 1.0f / 8, 0},
                                       {0, 1, 1, 16, 16, 1.0f / 16, 1}};

    // t = B^T d from F(4x4, 3x3)'s transform of d[0..5] (a) and of d[1..6] (b): a row times (x - 1/2)
    // is b - a / 2. 34 operations instead of 49.
    template <class V> static constexpr void input(const V (&d)[7], V (&t)[7])
    {
        const V lo[6] = {d[0], d[1], d[2], d[3], d[4], d[5]}, hi[6] = {d[1], d[2], d[3], d[4], d[5], d[6]};
        V a[6], b[6];
        F4x4_3x3::input(lo, a);
        F4x4_3x3::input(hi, b);
        for (int j = 0; j < 5; ++j)
            t[j] = madd(splat<V>(-1.0f / 2), a[j], b[j]);
        t[5] = a[5];
        t[6] = madd(splat<V>(-1.0f / 2), a[5], b[5]);
    }
    // o = A^T m: 16 operations instead of 30.
    template <class V> static constexpr void output(const V (&m)[7], V (&o)[5])
    {
        const V s1 = m[1] + m[2], s2 = m[3] + m[4], d1 = m[1] - m[2], d2 = m[3] - m[4];
        o[0] = m[0] + s1 + s2 + m[5];
        o[1] = madd(splat<V>(2), d2, madd(splat<V>(1.0f / 2), m[5], d1));
        o[2] = madd(splat<V>(4), s2, madd(splat<V>(1.0f / 4), m[5], s1));
        o[3] = madd(splat<V>(8), d2, madd(splat<V>(1.0f / 8), m[5], d1));
        o[4] = madd(splat<V>(16), s2, madd(splat<V>(1.0f / 16), m[5], s1 + m[6]));
    }
    // z = A d (A^T's columns): 16 operations instead of 30.
    template <class V> static constexpr void outputGradient(const V (&d)[5], V (&z)[7])
    {
        z[0] = d[0];
        const V e1 = d[0] + d[2] + d[4], o1 = d[1] + d[3];
        z[1] = e1 + o1;
        z[2] = e1 - o1;
        const V e2 = madd(splat<V>(16), d[4], madd(splat<V>(4), d[2], d[0])), o2 = madd(splat<V>(8), d[3], d[1] + d[1]);
        z[3] = e2 + o2;
        z[4] = e2 - o2;
        z[5] =
            madd(splat<V>(1.0f / 2), d[1],
                 madd(splat<V>(1.0f / 4), d[2], madd(splat<V>(1.0f / 8), d[3], madd(splat<V>(1.0f / 16), d[4], d[0]))));
        z[6] = d[4];
    }
};

// F(7x7, 3x3): the points 0, 1, -1, 1/2, -1/2, 3/2, -3/2, 4 and infinity (winograd.hpp), B^T's rows as
// the other variants' (the polynomial whose roots are the other finite points, ascending powers).
// Every coefficient of B^T and A^T is dyadic, so exact in binary.
struct F7x7_3x3 {
    static constexpr int kTile = winograd::inputTile(Kind::F7x7_3x3), kElems = kTile * kTile;
    static constexpr int kOut = winograd::outputTile(Kind::F7x7_3x3), kKernel = 3, kPad = 1;
    static constexpr float BT[9][9] = {{9.0f / 4, -9.0f / 16, -49.0f / 4, 49.0f / 16, 14, -7.0f / 2, -4, 1, 0},
                                       {0, -9.0f / 4, -27.0f / 16, 169.0f / 16, 15.0f / 2, -13.0f / 2, -3, 1, 0},
                                       {0, 9.0f / 4, -45.0f / 16, -151.0f / 16, 25.0f / 2, 3.0f / 2, -5, 1, 0},
                                       {0, -9.0f / 2, -63.0f / 8, 35.0f / 4, 91.0f / 8, -21.0f / 4, -7.0f / 2, 1, 0},
                                       {0, 9.0f / 2, -81.0f / 8, -17.0f / 4, 117.0f / 8, -5.0f / 4, -9.0f / 2, 1, 0},
                                       {0, -3.0f / 2, -5.0f / 8, 31.0f / 4, 25.0f / 8, -29.0f / 4, -5.0f / 2, 1, 0},
                                       {0, 3.0f / 2, -11.0f / 8, -29.0f / 4, 55.0f / 8, 19.0f / 4, -11.0f / 2, 1, 0},
                                       {0, -9.0f / 16, 0, 49.0f / 16, 0, -7.0f / 2, 0, 1, 0},
                                       {0, 9.0f / 4, -9.0f / 16, -49.0f / 4, 49.0f / 16, 14, -7.0f / 2, -4, 1}};
    static_assert(std::extent_v<decltype(BT)> == kTile);
    static constexpr float G[9][3] = {{4.0f / 9, 0, 0},
                                      {8.0f / 45, 8.0f / 45, 8.0f / 45},
                                      {8.0f / 75, -8.0f / 75, 8.0f / 75},
                                      {-8.0f / 21, -4.0f / 21, -2.0f / 21},
                                      {-8.0f / 27, 4.0f / 27, -2.0f / 27},
                                      {-8.0f / 225, -4.0f / 75, -2.0f / 25},
                                      {-8.0f / 495, 4.0f / 165, -2.0f / 55},
                                      {4.0f / 51975, 16.0f / 51975, 64.0f / 51975},
                                      {0, 0, 1}};
    static constexpr float AT[7][9] = {{1, 1, 1, 1, 1, 1, 1, 1, 0},
                                       {0, 1, -1, 1.0f / 2, -1.0f / 2, 3.0f / 2, -3.0f / 2, 4, 0},
                                       {0, 1, 1, 1.0f / 4, 1.0f / 4, 9.0f / 4, 9.0f / 4, 16, 0},
                                       {0, 1, -1, 1.0f / 8, -1.0f / 8, 27.0f / 8, -27.0f / 8, 64, 0},
                                       {0, 1, 1, 1.0f / 16, 1.0f / 16, 81.0f / 16, 81.0f / 16, 256, 0},
                                       {0, 1, -1, 1.0f / 32, -1.0f / 32, 243.0f / 32, -243.0f / 32, 1024, 0},
                                       {0, 1, 1, 1.0f / 64, 1.0f / 64, 729.0f / 64, 729.0f / 64, 4096, 1}};

    // t = B^T d. Each row but 4's is (x - 4) times r, the same point's row among the seven points 0,
    // +-1, +-1/2, +-3/2 (and infinity), and (x - 4) r applied to d is r(d[1..8]) - 4 r(d[0..7]). For +-p,
    // r(x) = x (x +- p) Q(x^2) with Q(u) = u^2 - s u + q, whose roots are the squares of the other two of
    // 1, 1/2 and 3/2; so r(d[k..]) = Q(d[k+2..]) +- p Q(d[k+1..]), writing Q(d[j..]) for
    // q d[j] + -s d[j+2] + d[j+4], and a pair of rows takes three of those, Q(d[1..]), Q(d[2..]) and
    // Q(d[3..]). 41 operations instead of 62.
    template <class V> static constexpr V byQ(float s, float q, const V& d0, const V& d2, const V& d4)
    {
        return madd(splat<V>(q), d0, madd(splat<V>(-s), d2, d4));
    }
    template <class V> static constexpr void inputPair(const V (&d)[9], float p, float s, float q, V& plus, V& minus)
    {
        const V q1 = byQ(s, q, d[1], d[3], d[5]), q2 = byQ(s, q, d[2], d[4], d[6]), q3 = byQ(s, q, d[3], d[5], d[7]);
        const V even = madd(splat<V>(-4), q2, q3), odd = madd(splat<V>(-4), q1, q2);
        plus = madd(splat<V>(p), odd, even);
        minus = madd(splat<V>(-p), odd, even);
    }
    template <class V> static constexpr void input(const V (&d)[9], V (&t)[9])
    {
        // The point 0's row of the seven points, (x^2 - 1)(x^2 - 1/4)(x^2 - 9/4), on d[0..], d[1..]
        // (also the row of 4) and d[2..] (with x times it, infinity's).
        const auto even = [](const V& a, const V& b, const V& c, const V& e) {
            return madd(splat<V>(-9.0f / 16), a, madd(splat<V>(49.0f / 16), b, madd(splat<V>(-7.0f / 2), c, e)));
        };
        const V a0 = even(d[0], d[2], d[4], d[6]), b0 = even(d[1], d[3], d[5], d[7]), c0 = even(d[2], d[4], d[6], d[8]);
        t[0] = madd(splat<V>(-4), a0, b0);
        t[7] = b0;
        t[8] = madd(splat<V>(-4), b0, c0);
        inputPair(d, 1, 5.0f / 2, 9.0f / 16, t[1], t[2]);
        inputPair(d, 1.0f / 2, 13.0f / 4, 9.0f / 4, t[3], t[4]);
        inputPair(d, 3.0f / 2, 5.0f / 4, 1.0f / 4, t[5], t[6]);
    }
    // o = A^T m, from the sums and differences of the rows of +-p: 29 operations instead of 51.
    template <class V> static constexpr void output(const V (&m)[9], V (&o)[7])
    {
        const V s1 = m[1] + m[2], d1 = m[1] - m[2], s2 = m[3] + m[4], d2 = m[3] - m[4], s3 = m[5] + m[6],
                d3 = m[5] - m[6];
        o[0] = m[0] + s1 + s2 + s3 + m[7];
        float half = 1, threeHalves = 1, four = 1;
#pragma GCC unroll 8
        for (int i = 1; i < 7; ++i) {
            half /= 2;
            threeHalves *= 1.5f;
            four *= 4;
            const bool odd = i % 2;
            o[i] = madd(splat<V>(four), m[7],
                        madd(splat<V>(threeHalves), odd ? d3 : s3,
                             madd(splat<V>(half), odd ? d2 : s2,
                                  odd      ? d1
                                  : i == 6 ? s1 + m[8]
                                           : s1)));
        }
    }
    // z = A d (A^T's columns): z[p] = sum of p^i d[i], its even and odd powers apart for +-p. 27
    // operations instead of 51.
    template <class V> static constexpr void outputGradient(const V (&d)[7], V (&z)[9])
    {
        z[0] = d[0];
        const V e1 = d[0] + d[2] + d[4] + d[6], o1 = d[1] + d[3] + d[5];
        z[1] = e1 + o1;
        z[2] = e1 - o1;
#pragma GCC unroll 2
        for (int k = 0; k < 2; ++k) {
            const float p = k == 0 ? 0.5f : 1.5f, p2 = p * p;
            const V e = madd(splat<V>(p2), madd(splat<V>(p2), madd(splat<V>(p2), d[6], d[4]), d[2]), d[0]);
            const V o = madd(splat<V>(p2), madd(splat<V>(p2), d[5], d[3]), d[1]);
            z[3 + 2 * k] = madd(splat<V>(p), o, e);
            z[4 + 2 * k] = madd(splat<V>(-p), o, e);
        }
        V four = d[6];
#pragma GCC unroll 8
        for (int i = 5; i >= 0; --i)
            four = madd(splat<V>(4), four, d[i]);
        z[7] = four;
        z[8] = d[6];
    }
};

// Whether the 1-D transform fn (K values into R) is the matrix M (R x K): its images of the unit
// vectors are M's columns. Every coefficient is exact in binary and a unit vector makes each step
// exact, so equality is exact, and a linear map is its images of the unit vectors.
template <int R, int K, class Fn> constexpr bool isMatrix(const float (&M)[R][K], Fn fn)
{
    for (int k = 0; k < K; ++k) {
        float unit[K] = {}, image[R] = {};
        unit[k] = 1;
        fn(unit, image);
        for (int r = 0; r < R; ++r)
            if (image[r] != M[r][k])
                return false;
    }
    return true;
}
template <class F> constexpr bool factoredAsWritten()
{
    constexpr auto A = transpose(F::AT);
    return isMatrix(F::BT, [](const auto& in, auto& out) { F::input(in, out); }) &&
           isMatrix(F::AT, [](const auto& in, auto& out) { F::output(in, out); }) &&
           isMatrix(A.v, [](const auto& in, auto& out) { F::outputGradient(in, out); });
}
static_assert(factoredAsWritten<F4x4_5x5>(), "F(4x4, 5x5)'s factored transforms are not B^T, A^T and A");
static_assert(factoredAsWritten<F4x4_3x3>(), "F(4x4, 3x3)'s factored transforms are not B^T, A^T and A");
static_assert(factoredAsWritten<F5x5_3x3>(), "F(5x5, 3x3)'s factored transforms are not B^T, A^T and A");
static_assert(factoredAsWritten<F7x7_3x3>(), "F(7x7, 3x3)'s factored transforms are not B^T, A^T and A");

// The channels the transforms take at a time: 16 where that is one register (AVX-512), 8 below.
// On AVX2, 16 lanes are two registers per value: an 8-value column and its results took 24 of the
// 16, and the spills took about 30% of a colab-fashion-cnn training step on a Zen 3
// (docs/benchmarks.md, "AVX2: Winograd's transforms in 8 lanes"). Lanes are independent, so the group
// changes no bit.
constexpr int kTransformLanes = TB_ISA_LEVEL >= 2 ? 16 : 8;

// Calls fn(variant) with the algorithm of `kind`, as a type.
template <typename Fn> void withVariant(Kind kind, Fn&& fn)
{
    switch (kind) {
    case Kind::F4x4_5x5:
        return fn(F4x4_5x5{});
    case Kind::F4x4_3x3:
        return fn(F4x4_3x3{});
    case Kind::F5x5_3x3:
        return fn(F5x5_3x3{});
    case Kind::F7x7_3x3:
        return fn(F7x7_3x3{});
    }
}

// Calls fn(variant, lanes) with the algorithm of `kind` and the channel group the transforms work
// in (forLaneBlocks), kTransformLanes or, for 8 channels, 8, both as types.
template <typename Fn> void dispatch(Kind kind, int channels, Fn&& fn)
{
    using Wide = std::integral_constant<int, kTransformLanes>;
    using L8 = std::integral_constant<int, 8>;
    withVariant(kind, [&](auto f) { channels >= kTransformLanes ? fn(f, Wide{}) : fn(f, L8{}); });
}

// fn(c0, lanes) for the channel blocks [c0, c0 + lanes) of `channels` (a multiple of 8): Lanes at a
// time, then 8 for what is left. Lanes are independent, so the blocks change no bit. 24 channels
// (tpu-mnist-cnn's second convolution) are one 16-lane block and one 8-lane one, not three 8-lane
// ones: an AVX-512 instruction on 8 lanes takes the issue slot of one on 16 on the development
// CPUs (a loop of independent FMAs: 260 GFLOP/s on 16 lanes, 131 on 8).
template <int Lanes, class Fn> [[gnu::always_inline]] inline void forLaneBlocks(int channels, Fn&& fn)
{
    int c0 = 0;
    for (; c0 + Lanes <= channels; c0 += Lanes)
        fn(c0, std::integral_constant<int, Lanes>{});
    if constexpr (Lanes > 8)
        if (c0 < channels)
            fn(c0, std::integral_constant<int, 8>{});
}

// One matrix element's channels: 16 or 8 lanes (two or one AVX2 registers, one AVX-512 register).
template <int Lanes> struct LaneVec {
    typedef float type __attribute__((vector_size(Lanes * sizeof(float))));
};

// out = T in T^T for a 1-D transform T of `K` values into `R` (`fn(const V (&)[K], V (&)[R])`: a
// variant's input, output or outputGradient, or byMatrix), `Lanes` independent lanes: in[i][j] =
// load(i, j), out[r][s] goes to put(r, s, value); the columns first, then the rows. Written on
// vector types so that every step is one vector operation whatever the optimizer makes of the
// unrolled loops. Loading from and storing to where the values live, not through arrays on the
// stack, saves a store and a load per value (the copy out took a quarter of tpu-mnist-cnn's input
// transform).
template <int Lanes, int K, int R, class Load, class Put, class Fn>
[[gnu::always_inline]] inline void transform2dWith(Load load, Put put, Fn fn)
{
    using V = typename LaneVec<Lanes>::type;
    V tmp[R][K];
#pragma GCC unroll 16
    for (int j = 0; j < K; ++j) {
        V column[K], result[R];
#pragma GCC unroll 16
        for (int i = 0; i < K; ++i)
            column[i] = load(i, j);
        fn(column, result);
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
            tmp[r][j] = result[r];
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
        V result[R];
        fn(tmp[r], result);
#pragma GCC unroll 16
        for (int s = 0; s < R; ++s)
            put(r, s, result[s]);
    }
}

// transform2dWith from in [K][K][Lanes] to out [R][R][Lanes].
template <int Lanes, int K, int R, class Fn>
[[gnu::always_inline]] inline void transform2d(const float* in, float* out, Fn fn)
{
    using V = typename LaneVec<Lanes>::type;
    transform2dWith<Lanes, K, R>([in](int i, int j) { return load<V>(in + (i * K + j) * Lanes); },
                                 [out](int r, int s, V v) { store(out + (r * R + s) * Lanes, v); }, fn);
}

// Where channel c of a (possibly folded) image lives in a [C/fold^2][n][fold h][fold w] tensor:
// offset[c] to add to sample * (fold h)(fold w) + (fold y) * (fold w) + fold x.
// Per thread, one set at a time (a transform computes its offsets and then uses them).
const int64_t* channelOffsets(const TileGrid& g, int channels, int n, int fold)
{
    thread_local Scratch<int64_t> offsets;
    int64_t* off = offsets.get(channels);
    const int real = channels / (fold * fold);
    const int64_t W = int64_t(g.w) * fold, hw = int64_t(g.h) * fold * W;
    for (int c = 0; c < channels; ++c) {
        const int phase = c / real, py = phase / fold, px = phase % fold;
        off[c] = int64_t(c % real) * n * hw + py * W + px;
    }
    return off;
}

// The first `count` (1 to 8) pixels of one row, p[0], p[fold], ..., p[(count - 1) * fold] (fold 1
// or 2), the other lanes zero. Nothing past the last pixel is read: when it ends a buffer, a read
// past it is an overread (ASan found one, the p[15] of a full fold-2 load).
inline Floats8 loadPixels(const float* p, int fold, int count)
{
    if (fold == 1)
        return loadFirst(p, count);
    // p[0..7] and p[7..14], of which the pixels p[2i] for i < count (the last one 2 count - 2):
    // the 7-float second half as a copy went through the stack and stalled every load.
    const int last = 2 * count - 1;
    const Floats8 a = loadFirst(p, std::min(8, last));
    const Floats8 b = last > 8 ? loadFirst(p + 7, last - 7) : Floats8{};
    return __builtin_shufflevector(a, b, 0, 2, 4, 6, 9, 11, 13, 15);
}

// A zero-padded channels-last copy of one image: [rows][cols][C] with `pad` zero pixels before
// and enough after that every tile reads inside it. Per thread, allocated once.
struct Hwc {
    int cols = 0, channels = 0;
    float* data = nullptr;
    const float* at(int y, int x) const { return data + (int64_t(y) * cols + x) * channels; }
};
Hwc toHwc(const TileGrid& g, int outTile, int inTile, const float* x, const int64_t* offsets, int channels, int fold,
          int sample, int pad)
{
    assert(channels % 8 == 0); // winograd::supportsChannels
    thread_local Scratch<float> buffer;
    thread_local Scratch<const float*> planeScratch;
    Hwc h;
    // Every tile reads rows ty*out .. ty*out+inTile-1; the image itself sits at (pad, pad).
    const int rows = (g.tilesH - 1) * outTile + inTile;
    h.cols = (g.tilesW - 1) * outTile + inTile;
    h.channels = channels;
    h.data = buffer.get(int64_t(rows) * h.cols * channels);
    const int64_t W = int64_t(g.w) * fold;
    const int64_t base = int64_t(sample) * g.h * fold * W;
    const float** planes = planeScratch.get(channels);
    for (int c = 0; c < channels; ++c)
        planes[c] = x + base + offsets[c];
    const int64_t rowFloats = int64_t(h.cols) * channels;
    const int count = std::min(8, g.w); // pixels per block
    for (int y = 0; y < rows; ++y) {
        float* row = h.data + y * rowFloats;
        const int iy = y - pad;
        if (iy < 0 || iy >= g.h) {
            std::memset(row, 0, sizeof(float) * size_t(rowFloats));
            continue;
        }
        std::memset(row, 0, sizeof(float) * size_t(pad) * size_t(channels));
        std::memset(row + int64_t(pad + g.w) * channels, 0, sizeof(float) * size_t(rowFloats - (pad + g.w) * channels));
        const int64_t rowOff = iy * fold * W;
        float* dst = row + int64_t(pad) * channels;
        // 8 pixels x 8 channels at a time, transposed in registers; a row whose width is not a
        // multiple of 8 ends with a block that overlaps the one before, and a row narrower than 8
        // pixels (the 7x7 images, and the 14x14 ones folded) is one block of its width.
        for (int ix0 = 0; ix0 < g.w; ix0 += 8) {
            const int x0 = std::max(0, std::min(ix0, g.w - 8));
            for (int c0 = 0; c0 < channels; c0 += 8) {
                Floats8 r[8];
                for (int k = 0; k < 8; ++k)
                    r[k] = loadPixels(planes[c0 + k] + rowOff + int64_t(x0) * fold, fold, count);
                transpose8(r);
                for (int k = 0; k < count; ++k)
                    std::memcpy(dst + int64_t(x0 + k) * channels + c0, &r[k], sizeof(Floats8));
            }
        }
    }
    return h;
}

// How a transform stores its matrices (V, Z: [E][P][channels]): `Store::put(block, p, channels,
// c0, lanes)` writes element e's `Lanes` channels c0.. of tile p, block = the start of matrix e
// (P * channels floats, matrixStride apart, whatever part of it the format uses), and `Store::finish(block, P,
// channels)` completes matrix e after its last tile. StoreFloats keeps FP32 rows; the bf16
// kernels' formats are in kernels/winograd_bf16.cpp.
struct StoreFloats {
    template <int Lanes> static void put(float* block, int64_t p, int channels, int c0, const float* lanes)
    {
        std::memcpy(block + p * channels + c0, lanes, sizeof(float) * Lanes);
    }
    static void finish(float*, int64_t, int) {}
};

// dst[e][p] = the 2-D transform fn (transform2dWith) of tile p, for every tile of samples
// [s0, s0 + cn) of x: In x In pixels kOut apart, from a copy with `pad` zero pixels before (toHwc);
// Out x Out matrices (Store's format), matrixStride apart.
template <class F, int Lanes, int In, int Out, class Store, class Fn>
void imageTiles(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* dst, int fold, int pad,
                Fn fn)
{
    const int64_t P = g.tiles(cn);
    const int64_t* offsets = channelOffsets(g, channels, n, fold);
    const int64_t stride = winograd::matrixStride(P, channels);
    int64_t p = 0;
    for (int s = 0; s < cn; ++s) {
        const Hwc img = toHwc(g, F::kOut, In, x, offsets, channels, fold, s0 + s, pad);
        const int64_t rowFloats = int64_t(img.cols) * channels;
        for (int ty = 0; ty < g.tilesH; ++ty)
            for (int tx = 0; tx < g.tilesW; ++tx, ++p)
                forLaneBlocks<Lanes>(channels, [&](int c0, auto lanes) {
                    constexpr int L = decltype(lanes)::value;
                    using Vec = typename LaneVec<L>::type;
                    const float* corner = img.at(ty * F::kOut, tx * F::kOut) + c0;
                    transform2dWith<L, In, Out>(
                        [=](int i, int j) { return load<Vec>(corner + i * rowFloats + j * channels); },
                        [=](int r, int c, Vec v) {
                            Store::template put<L>(dst + (r * Out + c) * stride, p, channels, c0,
                                                   reinterpret_cast<const float*>(&v));
                        },
                        fn);
                });
    }
    for (int e = 0; e < Out * Out; ++e)
        Store::finish(dst + e * stride, P, channels);
}

// V[e][p] for every input tile p of samples [s0, s0 + cn) (winograd.hpp's winogradInput).
template <class F, int Lanes, class Store>
void inputTiles(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    imageTiles<F, Lanes, F::kTile, F::kTile, Store>(g, x, channels, n, s0, cn, V, fold, F::kPad,
                                                    [](const auto& in, auto& out) { F::input(in, out); });
}

// Z[e][p] = (A dy A^T)[e] for every output tile p of samples [s0, s0 + cn) (winogradOutputGradient).
// No padding: a tile's outputs start at its corner; past the edge the copy is zero.
template <class F, int Lanes, class Store>
void outputGradientTiles(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z)
{
    imageTiles<F, Lanes, F::kOut, F::kTile, Store>(g, dy, channels, n, s0, cn, Z, 1, 0,
                                                   [](const auto& in, auto& out) { F::outputGradient(in, out); });
}

// Rows [r0, r1) of the E transformed kernels U[e] (winograd.hpp) of w [Cout][Cin][k][k]:
// [rows][cols] = [Cin][Cout], or [Cout][Cin] from the rotated kernels when transposed, each matrix
// kernel::packedBFloats(rows, cols) floats after the one before, in the layout that
// `Store::put(matrix, rows, cols, r, c0, lanes, count)` writes: row r's columns c0 .. c0 + count - 1
// (count kTransformLanes or 8, c0 a multiple of 8). The lanes run along the rows, so that each
// element's lanes go out together (the lanes along Cin and an element at a time in the [Cin][Cout]
// layout were 3% of a colab-fashion-cnn training step).
template <class F, class Store>
void kernelTiles(const float* w, int cout, int cin, bool transposed, int r0, int r1, float* U)
{
    constexpr int kk = F::kKernel * F::kKernel, kElems = F::kElems, kLanes = kTransformLanes;
    const int rows = transposed ? cout : cin, cols = transposed ? cin : cout;
    const int64_t per = kernel::packedBFloats(rows, cols);
    float gk[kk * kLanes];
    float u[kElems * kLanes];
    for (int r = r0; r < r1; ++r)
        for (int c0 = 0; c0 < cols; c0 += kLanes) {
            const int lanes = std::min(kLanes, cols - c0); // channel counts are multiples of 8
            for (int l = 0; l < kLanes; ++l) {
                const int co = transposed ? r : c0 + l, ci = transposed ? c0 + l : r;
                for (int k = 0; k < kk; ++k) {
                    // dX correlates with the kernel rotated by 180 degrees.
                    const int src = transposed ? kk - 1 - k : k;
                    gk[k * kLanes + l] = l < lanes ? w[(int64_t(co) * cin + ci) * kk + src] : 0.0f;
                }
            }
            transform2d<kLanes, F::kKernel, F::kTile>(gk, u, byMatrix(F::G));
            for (int e = 0; e < kElems; ++e)
                Store::put(U + e * per, rows, cols, r, c0, u + e * kLanes, lanes);
        }
}

// Where packB puts element (r, c) of a rows x cols matrix: in the panel of kPanelCols columns
// holding c (the last panel the rest), each panel `rowsStored` x its width, in elements of the
// panel's type (floats, or words of bf16 pairs with rowsStored the pairs). Eight columns from a
// multiple of 8 never straddle two panels: every panel width is a multiple of 8.
inline int64_t panelOffset(int rowsStored, int cols, int r, int c)
{
    const int j0 = c - c % kPanelCols, width = std::min(kPanelCols, cols - j0);
    return int64_t(rowsStored) * j0 + int64_t(r) * width + (c - j0);
}

// kernelTiles's stores: FP32 in packB's panels (the FP32 products'), or row-major (bf16_reference's
// packB layout).
struct StoreKernelPanels {
    static void put(float* matrix, int rows, int cols, int r, int c0, const float* lanes, int count)
    {
        for (int h = 0; h < count; h += 8)
            std::memcpy(matrix + panelOffset(rows, cols, r, c0 + h), lanes + h, sizeof(float) * 8);
    }
};
struct StoreKernelRows {
    static void put(float* matrix, int, int cols, int r, int c0, const float* lanes, int count)
    {
        for (int h = 0; h < count; h += 8)
            std::memcpy(matrix + int64_t(r) * cols + c0 + h, lanes + h, sizeof(float) * 8);
    }
};

template <class Store>
void winogradKernelAs(Kind kind, const float* w, int cout, int cin, bool transposed, int r0, int r1, float* U)
{
    withVariant(kind, [&](auto f) { kernelTiles<decltype(f), Store>(w, cout, cin, transposed, r0, r1, U); });
}

// The two transforms with their matrices `Store`d (above), for the variant and channel group that
// `g` and `channels` call for.
template <class Store>
void winogradInputAs(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V, int fold)
{
    dispatch(g.kind, channels, [&](auto f, auto lanes) {
        inputTiles<decltype(f), decltype(lanes)::value, Store>(g, x, channels, n, s0, cn, V, fold);
    });
}

template <class Store>
void winogradOutputGradientAs(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z)
{
    dispatch(g.kind, channels, [&](auto f, auto lanes) {
        outputGradientTiles<decltype(f), decltype(lanes)::value, Store>(g, dy, channels, n, s0, cn, Z);
    });
}

} // namespace
} // namespace tb::TB_ISA
