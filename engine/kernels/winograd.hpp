// Winograd convolutions, in four variants:
//   F(4x4, 5x5)  stride-1 "same" 5x5 convolutions (the colab-fashion-cnn's): 8x8 input tiles, 64
//                multiplications per tile and channel pair instead of 400 (the points 0, +-1, +-2,
//                +-1/2 and infinity, those of Lavin and Gray's F(6x6, 3x3));
//   F(4x4, 3x3)  stride-1 "same" 3x3 convolutions: 6x6 input tiles, 36 instead of 144;
//   F(5x5, 3x3)  the same convolutions with 7x7 input tiles, 49 instead of 225 (the points 0, +-1,
//                +-2, 1/2 and infinity);
//   F(7x7, 3x3)  and with 9x9 input tiles, 81 instead of 441 (the points 0, +-1, +-1/2, +-3/2, 4 and
//                infinity: with -4 for 4, the most accurate dyadic sets of those tried,
//                bench/winograd_points.py), FP32 only. Its rounding error is about 6x F(5x5, 3x3)'s:
//                rms 1.3e-5 to 1.8e-5 of the output, max 6e-5 to 9e-5, on tpu-mnist-cnn's layers
//                (docs/benchmarks.md). In bf16, its larger transforms would magnify the rounding to
//                about 70x a direct bf16 convolution's error (F(5x5, 3x3): 13x; the script above).
// bestFor3x3 takes the variant whose tiles cover the image with the fewest products: a 14x14 image
// takes 4 tiles of F(7x7, 3x3) (324 products per channel pair) instead of 9 of F(5x5, 3x3) (441) or
// 16 of F(4x4, 3x3) (576); a 7x7 one takes one (81) instead of 4 of F(4x4, 3x3) (144).
// A 6x6 stride-2 "same" convolution on an even-sized image (the tpu-mnist-cnn's) is a 3x3 one after a
// space-to-depth fold: phase (py, px) of the input, x[2i+py][2j+px], becomes channel block (py*2+px)
// of a half-size image, and kernel tap (2a+py, 2b+px) tap (a, b) of a 3x3 kernel over 4x the
// channels.
// The convolution becomes E GEMMs over transformed tiles (one per input tile element):
//   forward   Y  = A^T [ (G g G^T) . (B^T d B) ] A
//   dX        the same with the kernel rotated by 180 degrees and transposed
//   dW        dU[e] = sum over tiles of (A dY A^T)[e] . V[e], then dW = G^T dU G
// Transforms work on 16 (or 8) channels at a time, one vector per matrix element, read from a
// zero-padded channels-last copy of each image, so every load is a contiguous vector.
// Tensors: images [C][n][H][W]; transformed tiles V/M/Z [E][P][C] with E = 81, 64, 49 or 36 elements and
// P = tiles of the chunk, matrixStride(P, C) floats from one element's matrix to the next;
// transformed kernels U [E][Cin][Cout] (the right-hand side of V's product). Channel counts
// must be multiples of 8.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace tb::winograd {

enum class Kind { F4x4_5x5, F4x4_3x3, F5x5_3x3, F7x7_3x3 };

// The variant's name, as the docs write it: "F(4x4, 5x5)".
constexpr const char* kindName(Kind k)
{
    switch (k) {
    case Kind::F4x4_5x5:
        return "F(4x4, 5x5)";
    case Kind::F4x4_3x3:
        return "F(4x4, 3x3)";
    case Kind::F5x5_3x3:
        return "F(5x5, 3x3)";
    case Kind::F7x7_3x3:
        return "F(7x7, 3x3)";
    }
    return "?";
}
// The output tile's side.
constexpr int outputTile(Kind k)
{
    return k == Kind::F5x5_3x3 ? 5 : k == Kind::F7x7_3x3 ? 7 : 4;
}
// The kernel's side.
constexpr int kernelSide(Kind k)
{
    return k == Kind::F4x4_5x5 ? 5 : 3;
}
// The input tile's side and element count.
constexpr int inputTile(Kind k)
{
    return outputTile(k) + kernelSide(k) - 1;
}
constexpr int elems(Kind k)
{
    return inputTile(k) * inputTile(k);
}

struct TileGrid {
    Kind kind = Kind::F4x4_5x5;
    int h = 0, w = 0; // image (= output) size, after any fold
    int tilesH = 0, tilesW = 0;
    TileGrid() = default;
    TileGrid(Kind k, int h_, int w_)
        : kind(k), h(h_), w(w_), tilesH((h_ + outputTile(k) - 1) / outputTile(k)),
          tilesW((w_ + outputTile(k) - 1) / outputTile(k))
    {
    }
    int64_t tiles(int n) const { return int64_t(n) * tilesH * tilesW; }
    int elems() const { return winograd::elems(kind); }
};

// The 3x3 variant for an h x w image (after any fold) whose tiles need the fewest products, the
// smaller tile where two tie (F(4x4, 3x3) and F(7x7, 3x3) at 12x12, F(4x4, 3x3) and F(5x5, 3x3) at
// 28x28 in bf16); F(7x7, 3x3) only where the products are FP32 (not bf16, above).
inline Kind bestFor3x3(int h, int w, bool bf16)
{
    const auto products = [&](Kind k) { return TileGrid(k, h, w).tiles(1) * elems(k); };
    Kind best = Kind::F4x4_3x3;
    for (Kind k : {Kind::F5x5_3x3, Kind::F7x7_3x3})
        if ((k != Kind::F7x7_3x3 || !bf16) && products(k) < products(best))
            best = k;
    return best;
}

// Floats from one of the E transformed matrices to the next (V, M and Z: [P][channels] each): a
// cache line more than a matrix holds. A transform reads or writes one vector in each of the E
// matrices per tile; with P * channels a power of two (64 tiles of 128 channels), those all
// fell in the same cache set, and the first level of cache kept only a few of them.
constexpr int64_t matrixStride(int64_t rows, int64_t cols)
{
    return rows * cols + 16;
}

// The kernel gradient dU is kept by output channel: row co holds the E matrices' rows co ([E][Cin']),
// this many floats from the next (a cache line more, as above), so that G^T dU G reads one contiguous
// block per output channel. As E matrices [Cout][Cin'], the E streams of colab-fashion-cnn's 8 MB
// dU kept that transform waiting on memory (5% of a training step in FP32, 6-7% in bf16).
constexpr int64_t gradientRowStride(int64_t elems, int64_t cin)
{
    return elems * cin + 16;
}

// Whether Winograd applies: 8-channel groups on both sides (after any fold).
inline bool supportsChannels(int cin, int cout)
{
    return cin % 8 == 0 && cout % 8 == 0;
}

// The transforms (Kernels::winogradInput, winogradOutput, winogradOutputGradient, winogradKernel,
// winogradKernelGradient; kernels/winograd.cpp):
//   V[e][p][c] = (B^T d B)[e] for the input tile p of channel c, samples [s0, s0+cn) of x.
//   With fold 2, x is [channels/4][n][2h][2w] and is read space-to-depth (see above).
//   U[e][ci][co] = (G w[co][ci] G^T)[e]; transposed: U[e][co][ci] from w[co][ci] rotated by 180 degrees
//   (the kernel of dX, whose input has Cout channels). w is [Cout][Cin][k][k]. Each U[e] goes out
//   packed as the table's packB packs a matrix (bf16 pairs for the bf16 products), the E of them
//   kernel::packedBFloats(rows, cols) floats apart: the products' B operands in one pass. Rows
//   [r0, r1) of each (r0 even: bf16 pairs two rows), so that threads can share the work.
//   y[c][s0+i] = act(A^T M A + bias[c]) for every tile of M [E][P][C] (overwrites; the parts of edge
//   tiles outside the image are dropped; no bias when null): channelBiasActivate's arithmetic, done as
//   each row of tiles is written instead of in another pass. With fold 2 (dX, which passes no bias
//   and Linear), y is [channels/4][n][2h][2w], written depth-to-space.
//   Z[e][p][c] = (A dy A^T)[e]: the gradient reaching the transformed products (zero outside the image).
//   dW[co][ci] += G^T dU[co][.][ci] G, dU's rows gradientRowStride(E, Cin) floats apart.
// Kernels::winogradInputRows, winogradInputKRows and winogradOutputGradientKRows compute V and Z
// in the formats the table's products read (kernels.hpp's GemmPackedRows, GemmKRows): FP32 rows as
// above, or rounded bf16 pairs (kernels/winograd_bf16.cpp).

// The fold's kernel rearrangement: w [Cout][Cin][6][6] <-> wf [Cout][4 Cin][3][3].
void foldKernel(const float* w, int cout, int cin, float* wf);
// dW [Cout][Cin][6][6] += the folded gradient dWf [Cout][4 Cin][3][3].
void unfoldKernelGradient(const float* dWf, int cout, int cin, float* dW);

} // namespace tb::winograd
