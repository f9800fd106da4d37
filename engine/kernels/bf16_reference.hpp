// The bf16 products in plain C++, one element at a time (kernels/bf16_reference.cpp): the products
// of bf16ReferenceKernels (kernels/isa.hpp).
#pragma once

#include "kernels/kernels.hpp"

namespace tb::bf16_reference {

kernel::TileGemm tileGemm;
kernel::Gemm gemm;
kernel::PackB packB;
kernel::GemmPacked gemmPacked;
kernel::GemmPackedRows gemmPackedRows;
kernel::GemmKRows gemmKRows;

} // namespace tb::bf16_reference
