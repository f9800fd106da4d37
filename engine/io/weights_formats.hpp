// The weights formats Trainbench writes and reads, chosen by name or by file extension:
// its own .tbw (everything, optimizer state and history included), safetensors (the weights, for
// PyTorch; read back too) and ONNX (the inference graph, export only).
#pragma once

#include "io/safetensors.hpp"

#include <optional>
#include <string>

namespace tb {

enum class WeightsFormat { Trainbench, Safetensors, Onnx };

// "tbw", "safetensors" or "onnx"; nullopt for anything else.
std::optional<WeightsFormat> parseWeightsFormat(const std::string& name);
const char* weightsFormatName(WeightsFormat f); // "tbw", "safetensors", "onnx"
// By extension, in any case (.ONNX too): .safetensors, .onnx, anything else the native format.
WeightsFormat weightsFormatOfPath(const std::string& path);
// The format the name says by its extension (.onnx, .safetensors, .tbw, in any case); nullopt for any
// other name.
std::optional<WeightsFormat> weightsFormatNamedBy(const std::string& path);
// `path` with its extension replaced by the format's.
std::string withWeightsExtension(const std::string& path, WeightsFormat f);

// Writes atomically; throws IoError, or ModelError if `w`'s parts disagree.
void saveWeightsAs(const std::string& path, const WeightsFile& w, WeightsFormat f);
// Throws the ModelError that saving `net` in `f` would (a layer safetensors' or ONNX's layout has no
// place for): a run that is to save its weights so is refused before it trains, not after.
void requireSavableAs(const Network& net, const std::vector<std::string>& classNames, WeightsFormat f);
// A .tbw or safetensors file, told apart by their first bytes; an ONNX file is refused (export only).
WeightsFile loadAnyWeights(const std::string& path, const ModelHint* hint = nullptr);
// The hint a safetensors file written by another program is read with: the model the user chose
// (--model, the window's Setup; null: none) and the input shape and classes of the dataset (null: none).
ModelHint modelHint(const ModelSpec* spec, const Dataset* data);

} // namespace tb
