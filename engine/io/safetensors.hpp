// safetensors files (Hugging Face's format: an 8-byte little-endian header length, a JSON header
// naming each tensor's dtype, shape and byte range, then the raw little-endian data), with the
// tensor names and layouts of the equivalent PyTorch module (io/torch_layout.hpp), so that
// `model.load_state_dict(safetensors.torch.load_file(path))` works in PyTorch.
//
// The export's "__metadata__" holds "format": "pt" and io/export_metadata.hpp's pairs, from which
// Trainbench rebuilds the model. A file without them (written by PyTorch) loads when the caller
// says which model it holds. The reader checks the whole header against the file before it copies
// anything: offsets inside the data, no overlaps or holes, sizes that match dtype and shape, and
// every tensor's name, dtype and shape against the model; errors name the tensor.
#pragma once

#include "io/weights_file.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tb {

// What a safetensors file without Trainbench's metadata holds, from the caller (a --model option
// or the window's model, and the dataset). A file with the metadata describes itself; the hint is
// not used for it.
struct ModelHint {
    const ModelSpec* spec = nullptr;
    Shape input;
    std::vector<std::string> classNames;
    // Where set, `input` and `classNames` are the dataset's it returns, asked for only by a file that
    // needs them (no metadata, `spec` set): a file that describes itself leaves the dataset unread. May
    // throw (the dataset's DataError).
    std::function<const Dataset*()> dataset;
};

// The file's bytes for this network.
std::string safetensorsBytes(const Network& net, const std::vector<std::string>& classNames);
// Writes safetensorsBytes(w's network) atomically; throws IoError, or ModelError if `w` is inconsistent.
void exportSafetensors(const std::string& path, const WeightsFile& w);

// Throws IoError for a malformed file, ModelError when its tensors do not fit the model.
WeightsFile loadSafetensors(const std::string& path, const ModelHint* hint = nullptr);
WeightsFile parseSafetensors(const std::string& bytes, const std::string& origin, const ModelHint* hint = nullptr);

} // namespace tb
