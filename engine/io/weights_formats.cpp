#include "io/weights_formats.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "io/onnx_export.hpp"

#include <cctype>
#include <filesystem>

namespace tb {

std::optional<WeightsFormat> parseWeightsFormat(const std::string& name)
{
    if (name == "tbw")
        return WeightsFormat::Trainbench;
    if (name == "safetensors")
        return WeightsFormat::Safetensors;
    if (name == "onnx")
        return WeightsFormat::Onnx;
    return std::nullopt;
}

const char* weightsFormatName(WeightsFormat f)
{
    switch (f) {
    case WeightsFormat::Trainbench:
        return "tbw";
    case WeightsFormat::Safetensors:
        return "safetensors";
    case WeightsFormat::Onnx:
        return "onnx";
    }
    return "tbw";
}

namespace {
// The extension after the name's last dot, in lower case ("UP.ONNX": "onnx"); empty without one.
std::string extensionOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string ext = path.substr(dot + 1);
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}
} // namespace

WeightsFormat weightsFormatOfPath(const std::string& path)
{
    return weightsFormatNamedBy(path).value_or(WeightsFormat::Trainbench);
}

std::optional<WeightsFormat> weightsFormatNamedBy(const std::string& path)
{
    return parseWeightsFormat(extensionOf(path));
}

std::string withWeightsExtension(const std::string& path, WeightsFormat f)
{
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    const std::string stem =
        dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
    return stem + "." + weightsFormatName(f);
}

void requireSavableAs(const Network& net, const std::vector<std::string>& classNames, WeightsFormat f)
{
    // The layout depends on the layers, not on the weights' values: the untrained network's file
    // fails as the trained one's would. It is built and dropped: for a moment, a second copy of the
    // weights.
    if (f == WeightsFormat::Safetensors)
        (void)safetensorsBytes(net, classNames);
    else if (f == WeightsFormat::Onnx)
        (void)onnxModel(net, classNames);
}

void saveWeightsAs(const std::string& path, const WeightsFile& w, WeightsFormat f)
{
    switch (f) {
    case WeightsFormat::Trainbench:
        saveWeights(path, w);
        return;
    case WeightsFormat::Safetensors:
        exportSafetensors(path, w);
        return;
    case WeightsFormat::Onnx:
        exportOnnx(path, w);
        return;
    }
}

WeightsFile loadAnyWeights(const std::string& path, const ModelHint* hint)
{
    if (weightsFormatOfPath(path) == WeightsFormat::Onnx)
        throw IoError(path + ": ONNX files are an export for other tools; Trainbench reads .tbw and .safetensors");
    // A run folder given for its weights (runs show and report take one): where they are, or why
    // there are none yet.
    std::error_code ec;
    if (std::filesystem::exists(path + "/run.json", ec)) {
        const std::string folder = withoutTrailingSlashes(path);
        if (std::filesystem::exists(folder + "/weights.tbw", ec))
            throw IoError(folder + " is a run folder: its trained weights are " + folder + "/weights.tbw");
        throw IoError(folder + " is a run folder without weights.tbw: its run has not finished (resume it, or give "
                               "its checkpoint.tbw)");
    }
    const std::string bytes = readWholeFile(path);
    if (bytes.empty())
        throw IoError(path + " is empty: not a weights file");
    if (bytes.compare(0, 8, "TBWGHT01") == 0)
        return parseWeights(bytes, path); // read once: a model of tens of MB
    if (bytes.size() > 8 && bytes[8] == '{')
        return parseSafetensors(bytes, path, hint);
    if (weightsFormatOfPath(path) == WeightsFormat::Safetensors)
        return parseSafetensors(bytes, path, hint); // says what is wrong with it
    throw IoError(path + ": not a Trainbench weights file (.tbw) nor a safetensors file");
}

ModelHint modelHint(const ModelSpec* spec, const Dataset* data)
{
    ModelHint hint;
    hint.spec = spec;
    if (data) {
        hint.input = inputShapeOf(*data);
        hint.classNames = data->classNames;
    }
    return hint;
}

} // namespace tb
