// trainbench-cli predict: the classes a trained model gives pictures of one's own (PNG, JPEG, PGM or PPM,
// files or standard input), after the same preprocessing as the window's Predict page.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "picture_file.hpp"

#include "core/errors.hpp"
#include "predict/predictor.hpp"

#include "core/atomic_file.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <set>

namespace tbcli {
namespace {

// Takes every "--image F [F ...]" out of `args`: the values up to the next option.
std::vector<std::string> takeImages(std::vector<std::string>& args)
{
    std::vector<std::string> images, rest;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--image") {
            if (args[i].rfind("--image=", 0) == 0)
                images.push_back(args[i].substr(8));
            else
                rest.push_back(args[i]);
            continue;
        }
        const size_t first = images.size();
        while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0)
            images.push_back(args[++i]);
        if (images.size() == first)
            throw UsageError("--image needs a picture file, or - for standard input");
    }
    args = rest;
    return images;
}

bool onOff(const Options& o, const std::string& name, bool def)
{
    const std::string v = o.text(name, def ? "on" : "off");
    if (v != "on" && v != "off")
        throw UsageError("--" + name + " must be on or off (got \"" + v + "\")");
    return v == "on";
}

// What the model received, as a PGM file named after the picture, for a look.
// DIR/<stem>.pgm (stdin.pgm for standard input); a stem an earlier picture of the command took
// (a/x.png, b/x.png, a/x.jpg) gets "-2", "-3", so that no input overwrites another. `used`: the names
// written so far.
void saveInput(const std::string& dir, const std::string& path, const tb::GrayImage& input, std::set<std::string>& used)
{
    const std::string stem = path == "-" ? "stdin" : std::filesystem::path(path).stem().string();
    std::string name = stem + ".pgm";
    for (int k = 2; used.count(name); ++k)
        name = stem + "-" + std::to_string(k) + ".pgm";
    used.insert(name);
    std::string bytes = "P5\n" + std::to_string(input.width) + " " + std::to_string(input.height) + "\n255\n";
    bytes.append(input.pixels.begin(), input.pixels.end());
    tb::writeFileAtomically((std::filesystem::path(dir) / name).string(), bytes);
}

} // namespace

int predictCommand(const std::vector<std::string>& argsIn)
{
    std::vector<std::string> args = argsIn;
    const std::vector<std::string> images = takeImages(args);
    const Options o = commandOptions(*findCommand("predict"), args);
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    if (images.empty())
        throw UsageError("--image PICTURE [PICTURE ...] is required (- reads one from standard input)");
    if (std::count(images.begin(), images.end(), "-") > 1)
        throw UsageError("--image - is given more than once: standard input holds one picture");
    requireModelWithData(o, "its test images give the input size and classes to");
    // A safetensors file of another program: --model names its model, and --data's test images (not
    // its training images) give its input size and classes, read only for such a file.
    std::optional<tb::Dataset> data;
    const tb::WeightsFile w = loadWeightsOption(o, [&](const tb::ModelSpec& spec) {
        if (spec.isText())
            throw UsageError("--model " + o.text("model", "") + " is a text model (" + spec.name +
                             "): predict recognises pictures with an image model; a text model writes with "
                             "trainbench-cli generate");
        tb::DatasetOptions testOnly;
        testOnly.testSplitOnly = true;
        data = loadData(o, spec, testOnly);
        return &*data;
    });
    tb::Predictor predictor(w);
    tb::PreprocessOptions options = predictor.defaultOptions();
    options.autoInvert = onOff(o, "invert", options.autoInvert);
    options.centre = onOff(o, "centre", options.centre);
    const int classes = int(predictor.classNames().size());
    const int top = int(o.integer("top", std::min(3, classes), 1, classes));
    const bool json = o.has("json");

    if (o.has("save-inputs")) { // made before any picture, so that none of them is lost to it
        const std::string dir = o.text("save-inputs", "");
        if (dir == "-") // not a folder named "-"
            throw UsageError("--save-inputs -: give the name of a folder to write the pictures to");
        std::error_code ec;
        if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
            throw tb::IoError("--save-inputs " + dir + " is a file, not a folder: give a folder's name");
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw tb::IoError("cannot create the folder " + dir + ": " + ec.message());
    }
    int status = Ok;
    std::set<std::string> savedInputs;
    for (const std::string& path : images) {
        try {
            const std::string name = pictureName(path); // "standard input" for "-"
            const Picture pic = readPicture(path);
            if (!pic.note.empty())
                std::fprintf(stderr, "trainbench-cli predict: %s\n", pic.note.c_str());
            const tb::PreprocessResult in =
                tb::preprocessImage(tb::toGray(pic.image), predictor.inputHeight(), predictor.inputWidth(), options);
            if (in.blank) // before --save-inputs: the model receives nothing of it
                throw tb::DataError(name + ": the picture is blank (one colour), there is nothing to recognise");
            if (options.centre && !in.centred) // the window's caption says the same
                std::fprintf(stderr, "trainbench-cli predict: %s: not centred: no ink lighter than the paper%s\n",
                             name.c_str(), options.autoInvert ? "" : " (dark ink on light paper needs --invert on)");
            if (o.has("save-inputs"))
                saveInput(o.text("save-inputs", ""), path, in.input, savedInputs);
            // Wall time, and CPU time (what the forward costs, whatever else the machine runs).
            const auto start = std::chrono::steady_clock::now();
            const std::clock_t cpuStart = std::clock();
            const std::vector<float> probs = predictor.probabilities(in.input);
            const double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            const std::vector<tb::RankedClass> best = tb::topClasses(probs, top);
            if (json) {
                nlohmann::ordered_json j;
                j["image"] = path;
                j["width"] = pic.image.width;
                j["height"] = pic.image.height;
                j["inverted"] = in.inverted;
                j["centred"] = in.centred;
                j["fitted"] = in.fitted;
                j["forward_ms"] = ms;
                j["forward_cpu_ms"] = cpuMs;
                nlohmann::ordered_json list = nlohmann::ordered_json::array();
                for (const tb::RankedClass& c : best) {
                    nlohmann::ordered_json e;
                    e["class"] = c.index;
                    e["name"] = predictor.classNames()[size_t(c.index)];
                    e["probability"] = double(c.probability);
                    list.push_back(e);
                }
                j["top"] = list;
                printJson(j);
            } else {
                std::string line = path + ":";
                for (size_t i = 0; i < best.size(); ++i) {
                    char pct[32];
                    std::snprintf(pct, sizeof pct, " %.1f%%", 100.0 * best[i].probability);
                    line += (i ? ", " : " ") + predictor.classNames()[size_t(best[i].index)] + pct;
                }
                std::printf("%s\n", line.c_str());
                std::fflush(stdout);
            }
        } catch (const tb::Error& e) {
            // The picture's exit code; the command's is the worst of them (a file error over a blank picture).
            const int code = dynamic_cast<const tb::IoError*>(&e) ? FileError : DataOrModel;
            std::fprintf(stderr, "trainbench-cli predict: %s\n", e.what());
            if (json) // in the picture's place among the lines; not "error", which ends a command's events
                printJson({{"event", "image_error"}, {"image", path}, {"exit_code", code}, {"message", e.what()}});
            if (status != FileError)
                status = code;
        }
    }
    return status;
}

} // namespace tbcli
