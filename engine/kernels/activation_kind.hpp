// The activations a layer can apply to its output (softmax only last, fused with the loss).
#pragma once

namespace tb {

enum class Activation { Linear, ReLU, ELU, Softmax };

} // namespace tb
