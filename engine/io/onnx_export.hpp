// The inference graph of a trained network as an ONNX model (IR 7, opset 13), written with the
// engine's own protobuf encoder (io/protobuf_writer.hpp) rather than libprotobuf: the graph needs
// six message types, and the engine keeps to Eigen and zlib.
//
// Input "image": uint8 (batch, H, W) as stored in the IDX files (batch, H, W, C when C > 1); the
// graph casts it and multiplies by the model's input scale. Outputs "logits" and "probabilities"
// (float, (batch, classes)) and "class" (int64, (batch)). Layers: Conv (Keras "same" padding as
// explicit, possibly asymmetric pads), BatchNormalization kept as an operator with the moving
// statistics (not folded: in colab-fashion-cnn it comes before a zero-padded convolution, where
// folding would be wrong at the borders), MaxPool, Relu/Elu, Gemm, Softmax; Flatten transposes to
// channels-last first, so the Gemm sees the Keras feature order its kernel was trained on; Dropout
// is left out. Metadata: io/export_metadata.hpp.
//
// A text model (Embedding first): input "tokens", int64 (batch, steps); Gather from the embedding
// table, ONNX's LSTM operator per layer (gates reordered from Keras' i, f, c, o to ONNX's i, o, f, c;
// the Keras bias as Wb, Rb zero; a fresh state at the first step), the per-step Dense as MatMul + Add;
// outputs "logits" and "probabilities" (batch, steps, vocabulary) and "class" (batch, steps).
#pragma once

#include "io/weights_file.hpp"

#include <string>
#include <vector>

namespace tb {

// The serialized ModelProto.
std::string onnxModel(const Network& net, const std::vector<std::string>& classNames);
// Writes onnxModel(w's network) atomically; throws IoError, or ModelError if `w` is inconsistent.
void exportOnnx(const std::string& path, const WeightsFile& w);

} // namespace tb
