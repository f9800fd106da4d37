// Matrix transposes through 8x8 register blocks: the layout changes between the engine's
// channel-planar images, channels-last tensors and transposed kernels. A naive loop writes (or
// reads) one float per cache line touched; these move whole 32-byte rows.
#include "kernels/isa_kernels.hpp"

namespace tb::TB_ISA {

void transposeMatrix(const float* src, int64_t rows, int64_t cols, int64_t lds, float* dst, int64_t ldd)
{
    const int64_t rows8 = rows / 8 * 8, cols8 = cols / 8 * 8;
    for (int64_t i0 = 0; i0 < rows8; i0 += 8) {
        for (int64_t j0 = 0; j0 < cols8; j0 += 8) {
            Floats8 r[8];
            for (int k = 0; k < 8; ++k)
                r[k] = load<Floats8>(src + (i0 + k) * lds + j0);
            transpose8(r);
            for (int k = 0; k < 8; ++k)
                store(dst + (j0 + k) * ldd + i0, r[k]);
        }
        for (int64_t j = cols8; j < cols; ++j)
            for (int64_t i = i0; i < i0 + 8; ++i)
                dst[j * ldd + i] = src[i * lds + j];
    }
    for (int64_t i = rows8; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            dst[j * ldd + i] = src[i * lds + j];
}

} // namespace tb::TB_ISA
