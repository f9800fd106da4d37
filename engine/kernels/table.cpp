// This level's table of kernels (kernels/kernels.hpp), found by kernelsFor() in kernels/isa.cpp.
#include "kernels/isa_kernels.hpp"

#if TB_ISA_LEVEL == 0
#include "kernels/eigen_gemm.hpp"
#endif

namespace tb::TB_ISA {

extern const Kernels table;
const Kernels table = {
    .isa = Isa(TB_ISA_LEVEL),
    .precision = Precision::Fp32,
#if TB_ISA_LEVEL == 0
    // Eigen's packed SSE product for the general GEMM (im2col convolutions, the small classifier's
    // dX); Eigen cannot also be built for the wider levels in one binary (its templates would be
    // merged across levels at link time), so those use the engine's own kernel.
    .gemmName = kEigenGemmName,
    .tileGemm = &tileGemm,
    .gemm = &eigenGemm,
#else
    .gemmName = TB_ISA_LEVEL == 2 ? "own 12x32 FMA kernel" : "own 4x24 FMA kernel",
    .tileGemm = &tileGemm,
    .gemm = &gemm,
#endif
    .packB = &packB,
    .gemmPacked = &gemmPacked,
    .gemmPackedRows = &gemmPackedRows,
    .gemmKRows = &gemmKRows,
    .transpose = &transposeMatrix,
    .activate = &activate,
    .activationBackward = &activationBackward,
    .channelBiasActivate = &channelBiasActivate,
    .rowBiasActivate = &rowBiasActivate,
    .im2col = &im2col,
    .col2im = &col2im,
#if TB_ISA_LEVEL == 2
    .convDirect = &convDirect,
#else
    .convDirect = nullptr,
#endif
    .winogradInput = &winogradInput,
    .winogradInputRows = &winogradInput, // FP32 rows are the products' own
    .winogradInputKRows = &winogradInput,
    .winogradOutput = &winogradOutput,
    .winogradOutputGradient = &winogradOutputGradient,
    .winogradOutputGradientKRows = &winogradOutputGradient,
    .winogradKernel = &winogradKernel,
    .winogradKernelGradient = &winogradKernelGradient,
    .dropout = &dropout,
    .maxPool = &maxPool,
    .bnSums = &bnSums,
    .bnAffine = &bnAffine,
    .bnBackwardSums = &bnBackwardSums,
    .bnBackwardDx = &bnBackwardDx,
    .adam = &adam,
    .sgd = &sgd,
    .rmsprop = &rmsprop,
    .allFinite = &allFinite,
    .accumulateAndClear = &accumulateAndClear,
    .lstmCell = &lstmCell,
    .lstmCellBackward = &lstmCellBackward,
};

} // namespace tb::TB_ISA
