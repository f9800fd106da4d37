// Matrix transposes through 8x8 register blocks: the layout changes between the engine's
// channel-planar images, channels-last tensors and transposed kernels. A naive loop writes (or
// reads) one float per cache line touched; these move whole 32-byte rows.
#pragma once

#include "core/simd.hpp"

#include <cstdint>

namespace tb {

// r[i][j] <- r[j][i]: unpack, shuffle, then swap 128-bit halves (the AVX 8x8 transpose).
inline void transpose8(Floats8 (&r)[8])
{
    Floats8 t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = __builtin_shuffle(r[i], r[i + 1], Ints8{0, 8, 1, 9, 4, 12, 5, 13});
        t[i + 1] = __builtin_shuffle(r[i], r[i + 1], Ints8{2, 10, 3, 11, 6, 14, 7, 15});
    }
    for (int i = 0; i < 8; i += 4)
        for (int j = 0; j < 2; ++j) {
            u[i + j] = __builtin_shuffle(t[i + j], t[i + j + 2], Ints8{0, 1, 8, 9, 4, 5, 12, 13});
            u[i + j + 2] = __builtin_shuffle(t[i + j], t[i + j + 2], Ints8{2, 3, 10, 11, 6, 7, 14, 15});
        }
    // u[0] holds rows 0-3 of columns 0 and 4 (as 128-bit halves), u[1] of columns 2 and 6 (from t[1]),
    // u[2] columns 1 and 5, u[3] columns 3 and 7; u[4..7] the same for rows 4-7.
    const int column[4] = {0, 2, 1, 3};
    for (int i = 0; i < 4; ++i) {
        r[column[i]] = __builtin_shuffle(u[i], u[i + 4], Ints8{0, 1, 2, 3, 8, 9, 10, 11});
        r[column[i] + 4] = __builtin_shuffle(u[i], u[i + 4], Ints8{4, 5, 6, 7, 12, 13, 14, 15});
    }
}

// dst[j * ldd + i] = src[i * lds + j] for i < rows, j < cols.
void transposeMatrix(const float* src, int64_t rows, int64_t cols, int64_t lds, float* dst, int64_t ldd);

} // namespace tb
