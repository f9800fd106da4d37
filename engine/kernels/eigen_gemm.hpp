// Eigen's matrix product, the baseline level's general GEMM (kernels/table.cpp). Built once, with
// the engine's baseline flags: Eigen's templates cannot be compiled for several levels in one
// binary without the linker merging them, so the AVX2 and AVX-512 levels use the engine's own
// kernel (kernels/gemm.cpp). Single-threaded: the engine parallelizes over batch shards itself.
#pragma once

#include "kernels/kernels.hpp"

namespace tb {

kernel::Gemm eigenGemm;
extern const char kEigenGemmName[]; // "Eigen 3.4.0"

} // namespace tb
