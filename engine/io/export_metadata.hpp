// What every weights export records besides the weights, so that a file says where it came from:
// the model's name and description, its input, the class names, the weights' SHA-256 and the
// Trainbench version that wrote it. The ONNX and safetensors exports store these as string pairs.
#pragma once

#include "model/network.hpp"

#include <string>
#include <utility>
#include <vector>

namespace tb {

const char* trainbenchVersion(); // "0.2.0", the CMake project version

// (key, value) pairs, in this order: trainbench_version, model_name, class_names (a JSON array),
// weights_sha256, input_shape (a JSON array [H, W, C]), input_scale, model (the model file's JSON).
std::vector<std::pair<std::string, std::string>> exportMetadata(const Network& net,
                                                                const std::vector<std::string>& classNames);

} // namespace tb
