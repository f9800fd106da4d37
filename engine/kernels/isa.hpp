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

} // namespace tb
