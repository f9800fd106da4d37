// Where each of a network's weights sits in the state_dict of the equivalent PyTorch module, an
// nn.Sequential built layer by layer (bench/pytorch_bench.py writes out the presets' modules):
//
//   Conv2D        Conv2d(padding=p) when Keras' padding is symmetric and the stride 1, otherwise
//                 ZeroPad2d((left, right, top, bottom)) then Conv2d; then ReLU()/ELU() for its
//                 activation. weight (Cout, Cin, kh, kw), bias (Cout): the engine's layout as is.
//   BatchNormalization  BatchNorm2d (on images) or BatchNorm1d (flat), eps as in Keras, PyTorch
//                 momentum = 1 - Keras momentum: weight, bias, running_mean, running_var,
//                 num_batches_tracked (int64, written 0). Without scale the weight is all ones,
//                 without center the bias all zeros (and must be so on import).
//   MaxPooling2D  MaxPool2d(kernel, stride, padding) (Keras "same" pads that are not symmetric
//                 take a ConstantPad2d(-inf) before it)
//   Dropout       Dropout(rate)
//   Flatten       Flatten(): PyTorch flattens (C, H, W) where Keras flattens (H, W, C), so the flat
//                 features of the next BatchNorm1d and the columns of the next Linear's weight are
//                 permuted to PyTorch's order.
//   Reshape       one module that reshapes in Keras' channels-last order (to flat: as Flatten)
//   Dense         Linear: weight (units, F) is the engine's (F, units) kernel transposed, bias
//                 (units); then ReLU()/ELU() for its activation
//   Activation    ReLU()/ELU(); linear and the final softmax have no module (PyTorch's
//                 CrossEntropyLoss applies the softmax)
// Tensor names are "<module index>.<parameter>", e.g. "4.weight".
//
// A text model (Embedding first) is a module with three children instead (bench/pytorch_lstm_bench.py's
// TextModel): "embedding" nn.Embedding (weight (V, E), the table as is); "lstm" one nn.LSTM stacking
// the LSTM layers (all the same units, return_sequences): weight_ih_l<k> (4H, F) and weight_hh_l<k>
// (4H, H) are the Keras kernels transposed, in the same gate order (PyTorch's i, f, g, o is Keras'
// i, f, c, o), bias_ih_l<k> the Keras bias and bias_hh_l<k> zero; "dense" nn.Linear (weight (V, H)).
//
// Each layer kind writes its own part (its LayerType's torch function, in its file under layers/);
// TorchTensor is declared in layers/export_hooks.hpp.
#pragma once

#include "layers/export_hooks.hpp"
#include "model/network.hpp"

#include <string>
#include <vector>

namespace tb {

// The state_dict's tensors in module order.
std::vector<TorchTensor> torchLayout(const Network& net);

} // namespace tb
