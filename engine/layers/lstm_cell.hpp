// The LSTM cell's elementwise work (layers/lstm.hpp), one time step over n rows: the gate
// activations and the new cell and output forward; the gate gradients backward. Plain loops over a
// row's H units that the compiler vectorizes, with exp from Cephes' polynomial
// (kernels/exp_poly.hpp, the ELU kernel's too; std::exp and std::tanh are scalar libm calls, which
// dominated small models' steps). Compiled once, with the engine's flags (not per instruction-set
// level): the same bits at every level.
#pragma once

#include <cstdint>

namespace tb {

// One step over n rows: the gate pre-activations z (i, f, c, o; H each) become the activations in
// place, c = f * cPrev + i * g (cPrev null: zero state), h = o * tanh(c).
struct LstmStep {
    int n = 0, units = 0;
    int64_t zStride = 0, cStride = 0, hStride = 0; // row strides of z, c and h
    const float* cPrev = nullptr;
    int64_t cPrevStride = 0;
};
void lstmCell(const LstmStep& s, float* z, float* c, float* h);
// Its backward: dh (n, H) from the step after plus dy (row stride dyStride; null: none) at this step,
// dc (n, H) likewise; the gates in z become dZ in place; dc becomes dc * f for the step before (dh is
// left for the caller's dZ R^T).
void lstmCellBackward(const LstmStep& s, float* z, const float* c, const float* dy, int64_t dyStride, float* dh,
                      float* dc);

} // namespace tb
