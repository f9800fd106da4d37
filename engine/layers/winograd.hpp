// Winograd F(2x2, 5x5) for stride-1 "same" 5x5 convolutions (the colab-fashion-cnn's convolutions):
// each 2x2 output tile comes from a 6x6 input tile with 36 multiplications per channel pair
// instead of 100. The convolution becomes 36 GEMMs over transformed tiles:
//   forward   Y  = A^T [ (G g G^T) . (B^T d B) ] A
//   dX        the same with the kernel rotated by 180 degrees and transposed
//   dW        dU[e] = sum over tiles of (A dY A^T)[e] . V[e], then dW = G^T dU G
// Transforms work on 16 channels at a time (one AVX-512 vector per matrix element), read from a
// zero-padded channels-last copy of each image, so every load is a contiguous vector.
// Tensors: images [C][n][H][W]; transformed tiles V/M/Z [36][P][C] with P = tiles of the chunk;
// transformed kernels U [36][Cout][Cin]. Channel counts must be multiples of 16.
#pragma once

#include <cstdint>

namespace tb::winograd {

constexpr int kTile = 6;     // input tile side
constexpr int kOut = 2;      // output tile side
constexpr int kKernel = 5;
constexpr int kPad = 2;      // "same" padding of a 5x5 kernel
constexpr int kElems = kTile * kTile;
constexpr int kLanes = 16;   // channels per transform call

struct TileGrid {
    int h = 0, w = 0;          // image (= output) size
    int tilesH = 0, tilesW = 0;
    TileGrid(int h_, int w_) : h(h_), w(w_), tilesH((h_ + kOut - 1) / kOut), tilesW((w_ + kOut - 1) / kOut) {}
    int64_t tiles(int n) const { return int64_t(n) * tilesH * tilesW; }
};

// Whether Winograd applies: 16-channel groups on both sides.
inline bool supportsChannels(int cin, int cout) { return cin % kLanes == 0 && cout % kLanes == 0; }

// V[e][p][c] = (B^T d B)[e] for the 6x6 input tile p of channel c, samples [s0, s0+cn) of x
// ([C][n][H][W]).
void transformInput(const TileGrid& g, const float* x, int channels, int n, int s0, int cn, float* V);
// U[e][co][ci] = (G w[co][ci] G^T)[e]; transposed: U[e][ci][co] from w[co][ci] rotated by 180 degrees
// (the kernel of dX). w is [Cout][Cin][5][5].
void transformKernel(const float* w, int cout, int cin, bool transposed, float* U);
// y[c][s0+i] = A^T M A for every tile of M [36][P][C] (overwrites; the parts of edge tiles outside the
// image are dropped).
void transformOutput(const TileGrid& g, const float* M, int channels, int n, int s0, int cn, float* y);
// Z[e][p][c] = (A dy A^T)[e]: the gradient reaching the transformed products (zero outside the image).
void transformOutputGradient(const TileGrid& g, const float* dy, int channels, int n, int s0, int cn, float* Z);
// dW[co][ci] += G^T dU[.][co][ci] G.
void kernelGradient(const float* dU, int cout, int cin, float* dW);

}  // namespace tb::winograd
