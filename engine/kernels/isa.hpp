// Instruction-set levels of the engine's kernels. The engine is built for baseline x86-64-v2; its
// hot loops (kernels/*.cpp) are compiled once more per level and one set is chosen at run time:
// the best the CPU supports (one CPUID check), or a lower one a front end asks for (setDefaultIsa:
// TRAINBENCH_ISA, read by app/environment), the CLI's --isa or a device spec such as "cpu:2@avx2".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tb {

struct Kernels;

// Ordered: each level's CPUs run every lower level.
enum class Isa {
    Baseline, // x86-64-v2: SSE4.2, 4-lane vectors, no FMA
    Avx2,     // x86-64-v3: AVX2 + FMA, 8 lanes
    Avx512,   // x86-64-v4: AVX-512 F/BW/DQ/VL, 16 lanes
};

const char* isaName(Isa isa);        // "baseline", "avx2", "avx512": what TRAINBENCH_ISA and --isa take
const char* isaDescription(Isa isa); // "SSE4.2", "AVX2+FMA", "AVX-512"
// Accepts the names above; throws ConfigError listing them.
Isa parseIsa(std::string_view text);

bool isaSupported(Isa isa); // by this CPU and OS
Isa detectIsa();            // the highest supported level
std::vector<Isa> supportedIsas();

// The level setDefaultIsa chose, else detectIsa().
Isa defaultIsa();
// Makes `isa` the level of defaultIsa() and defaultKernels(): a front end's process-wide choice, made
// at start-up before the first pass (defaultKernels() resolves once). Throws ConfigError, as
// requireIsa, when this CPU lacks it.
void setDefaultIsa(Isa isa);

// The kernels compiled for `isa`; throws ConfigError when this CPU cannot run them.
const Kernels& kernelsFor(Isa isa);
// kernelsFor(defaultIsa()), resolved once per process: what a pass uses unless told otherwise.
const Kernels& defaultKernels();

// Throws ConfigError ("this CPU has no AVX-512 (it supports baseline, avx2)") unless supported.
void requireIsa(Isa isa);

// The arithmetic of the matrix products (convolutions, Winograd's tile products, Dense, LSTM).
// Bf16: inputs rounded to bfloat16 (round to nearest even, by the engine's own code), products
// accumulated in FP32; everything else (weights, optimizer state, BatchNorm, the loss, reductions)
// stays FP32. Only the AVX512_BF16 kernels run it: on other CPUs it is refused, never emulated.
enum class Precision { Fp32, Bf16 };

const char* precisionName(Precision p);        // "fp32", "bf16": what --precision takes
const char* precisionDescription(Precision p); // "FP32", "bfloat16 products, FP32 accumulation"
// "FP32", or "bf16 (bfloat16 products, FP32 accumulation)": the run header's and the report's words.
std::string describePrecision(Precision p);
// Accepts the names above; throws ConfigError listing them.
Precision parsePrecision(std::string_view text);
// Why kernels of level `isa` cannot run products in `p` on this CPU ("this CPU has no AVX512_BF16
// (bf16 needs it: ...)"), or empty when they can.
std::string precisionUnavailableReason(Precision p, Isa isa);
// The two implementations of the bf16 products, both on the avx512 level:
//   Avx512Bf16  vdpbf16ps on 16-lane vectors (AMD Zen 4 and later, Intel Cooper Lake and later);
//   Amx         AMX-BF16's tiles (Intel Sapphire Rapids and later, where the OS lets a process use
//               them): 16 x 16 blocks of sums, each over 16 pairs a step. The tiles sum in an order
//               of their own, so their bf16 weights differ in the last bits from vdpbf16ps's (the
//               same on 1 and N threads; kernels/amx_tiles.hpp).
enum class Bf16Kernels { Avx512Bf16, Amx };
const char* bf16KernelsName(Bf16Kernels k); // "avx512bf16", "amx": what TRAINBENCH_BF16_KERNELS takes
// Accepts the names above; throws ConfigError listing them.
Bf16Kernels parseBf16Kernels(std::string_view text);
// Why this CPU and OS cannot run `k`, or empty when they can. Asking for Amx also asks Linux for the
// tiles' state (arch_prctl ARCH_REQ_XCOMP_PERM), once per process.
std::string bf16KernelsUnavailableReason(Bf16Kernels k);
// setDefaultBf16Kernels's choice, else Amx where it runs, else Avx512Bf16.
Bf16Kernels defaultBf16Kernels();
// A front end's process-wide choice (TRAINBENCH_BF16_KERNELS), made at start-up; throws ConfigError
// with the reason when this CPU cannot run it.
void setDefaultBf16Kernels(Bf16Kernels k);
// The avx512 kernels with bf16 products by `k`; throws ConfigError with the reason (bf16's, or `k`'s).
const Kernels& bf16KernelsFor(Bf16Kernels k);
// The Amx kernels' packing and blocking with each tile instruction emulated in plain C++, in
// vdpbf16ps's order: the reference's bits (but a zero sum is +0) on any CPU with AVX512_BF16, for
// the tests; slow, and never offered as a device. Throws ConfigError without AVX512_BF16.
const Kernels& amxEmulatedKernels();
// What `p` does to speed or to the bits on this CPU, one sentence, else empty:
//   - bf16 by vdpbf16ps on Intel's cores with AMX (Sapphire Rapids and later): they do half as many
//     multiply-adds per cycle as FP32's FMA there (measured on a Xeon, Emerald Rapids:
//     docs/benchmarks.md), so bf16 is slower than FP32 where the products dominate;
//   - bf16 on AMX tiles (any CPU): its weights differ in their last bits from other CPUs'.
// `intelAmx` says whether the CPU is Intel's with AMX-BF16, `kernels` which products run; the
// one-argument form asks this CPU and defaultBf16Kernels().
std::string precisionSpeedNote(Precision p, bool intelAmx, Bf16Kernels kernels);
std::string precisionSpeedNote(Precision p);
// The kernels of `isa` with their products in `p` (bf16: by defaultBf16Kernels()); throws
// ConfigError with the reason above.
const Kernels& kernelsFor(Isa isa, Precision p);
// The kernels of `isa` with bf16 products computed one element at a time in plain C++: the same
// bits as the AVX512_BF16 kernels (vdpbf16ps: pairs of products, DAZ/FTZ, RNE), on any CPU. For the
// tests, which check bf16 numerics everywhere and the fast kernels against it where they run; slow,
// and never offered as a device.
const Kernels& bf16ReferenceKernels(Isa isa);

} // namespace tb
