// `trainbench-cli export`: weights as ONNX, safetensors or Trainbench's own file.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/atomic_file.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"
#include "model/network.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

namespace tbcli {

int exportCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("export"), args);
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    requireModelWithData(o, "it gives the input size and classes (a text: the vocabulary) to");
    if (!o.has("format") && !o.has("out"))
        throw UsageError("say what to write: --format onnx|safetensors|tbw and/or --out FILE");
    // "-" is standard output, as for report (/dev/stdout too).
    const std::string typed = o.text("out", ""), outName = typed == "-" ? "/dev/stdout" : typed;
    // tb::weightsFormatOfPath takes any other name for .tbw: export writes no format the user did not name.
    const std::optional<tb::WeightsFormat> named = tb::weightsFormatNamedBy(outName);
    tb::WeightsFormat format = tb::WeightsFormat::Trainbench;
    if (o.has("format")) {
        const auto f = tb::parseWeightsFormat(o.text("format", ""));
        if (!f)
            throw UsageError("--format must be onnx, safetensors or tbw (got \"" + o.text("format", "") + "\")");
        format = *f;
        // An --out whose extension names another format would hold what its name denies.
        if (o.has("out") && named && *named != format)
            throw UsageError("--out " + typed + " says " + tb::weightsFormatName(*named) +
                             " by its extension, but --format says " + tb::weightsFormatName(format));
    } else if (typed == "-") {
        throw UsageError("--out - (standard output) needs --format onnx|safetensors|tbw: no name says the format");
    } else if (!named) {
        // Without --format, the name is all that says the format: one it does not name is refused.
        throw UsageError("--out " + typed +
                         ": its name says no format; export writes ONNX (.onnx), safetensors (.safetensors) or "
                         "Trainbench weights (.tbw): end the name with one of these, or say which with --format "
                         "onnx|safetensors|tbw");
    } else {
        format = *named;
    }
    // Without --out, the file is named after --weights. An export there already is replaced, as a
    // new training's export would be; a .tbw is not unasked: the one a safetensors file was exported
    // from holds the run's history and optimizer state, which the safetensors file lacks.
    const std::string out = o.has("out") ? outName : tb::withWeightsExtension(o.text("weights", ""), format);
    std::error_code ec;
    if (!o.has("out") && format == tb::WeightsFormat::Trainbench &&
        std::filesystem::exists(std::filesystem::symlink_status(out, ec)) && !ec)
        throw UsageError(out + " exists, and may hold a run's history and optimizer state: give --out " + out +
                         " to replace it, or another name");
    // A safetensors file of another program takes its input size and classes from a dataset (a text
    // model's: its text), read only for such a file.
    std::optional<tb::Dataset> data;
    const tb::WeightsFile w = loadWeightsOption(o, [&](const tb::ModelSpec& spec) {
        data = loadData(o, spec, {}, false);
        return &*data;
    });
    tb::saveWeightsAs(out, w, format);
    const std::string sha = w.buildNetwork().weightsSha256();
    // Weights sent to standard output leave it to them: what was written is said on stderr.
    std::FILE* said = tb::ownDescriptor(out) == 1 ? stderr : stdout;
    if (o.has("json")) {
        nlohmann::ordered_json j;
        j["event"] = "export";
        j["format"] = tb::weightsFormatName(format);
        j["path"] = out;
        j["weights_sha256"] = sha;
        printJson(j, said);
    } else {
        std::fprintf(said, "Wrote %s (%s) - weights sha256: %s\n", out.c_str(), tb::weightsFormatName(format),
                     sha.c_str());
    }
    return Ok;
}

} // namespace tbcli
