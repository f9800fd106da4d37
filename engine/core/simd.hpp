// Eight-lane vector types (GCC vector extensions) for the hand-vectorized loops: AVX registers,
// or pairs of SSE ones in a portable build.
#pragma once

namespace tb {

typedef float Floats8 __attribute__((vector_size(8 * sizeof(float))));
typedef int Ints8 __attribute__((vector_size(8 * sizeof(int))));

} // namespace tb
