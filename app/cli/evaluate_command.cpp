// `trainbench-cli evaluate`: the test loss and accuracy of trained weights, their predictions as
// CSV, and BatchNorm's statistics recomputed first with --precise-bn.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/atomic_file.hpp"
#include "core/thread_pool.hpp"
#include "data/text_dataset.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "model/network.hpp"
#include "train/evaluation.hpp"
#include "train/precise_bn.hpp"
#include "train/progress_text.hpp"
#include "train/session.hpp"
#include "train/test_record.hpp"
#include "train/train_options.hpp"

#include <cstdio>
#include <optional>

namespace tbcli {

namespace {
// index,label,predicted,p_0,...: what the model says of each evaluated test image.
void writePredictions(const std::string& path, const tb::EvalResult& r, const tb::ImageSplit& split, int classes)
{
    std::string csv = "index,label,predicted";
    for (int c = 0; c < classes; ++c)
        csv += ",p_" + std::to_string(c);
    csv += "\n";
    char buf[32];
    for (int i = 0; i < r.samples; ++i) {
        csv += std::to_string(i) + "," + std::to_string(split.labels[size_t(i)]) + "," +
               std::to_string(r.predicted[size_t(i)]);
        for (int c = 0; c < classes; ++c) {
            std::snprintf(buf, sizeof buf, ",%.9g", double(r.probs[size_t(i) * size_t(classes) + size_t(c)]));
            csv += buf;
        }
        csv += "\n";
    }
    tb::writeFileAtomically(path, csv);
}
} // namespace

int evaluateCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("evaluate"), args);
    // --threads, --device, --isa, --precision and --precise-bn's --batch and --seed: the training
    // options' table, checked before any file is read.
    const tb::TrainSettings settings = trainSettingsFrom(o);
    const tb::DeviceSpec device = settings.config.device;
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required");
    requireDeviceUsable(o, device, "evaluate");
    if ((o.has("batch") || o.has("seed") || o.has("save")) && !o.has("precise-bn"))
        throw UsageError("--batch, --seed and --save go with --precise-bn N");
    requireWeightsName(o, "save");
    requireWritable(o, "save");
    requireWritable(o, "predictions");
    const std::string dataPath = o.text("data", tb::defaultDatasetDir());
    // A text (a file, or a folder of them: no IDX test images) is cut as the text model's weights say.
    // A safetensors file of another program says nothing of its vocabulary: --model names its text
    // model, and the text is cut as for training it (bytes, the model's sequence length). Either way
    // the text is read once, after the weights say which.
    requireDataExists(o, false); // before the weights are read, which alone say which kind of data
    const bool text = tb::isTextDataPath(dataPath) && tb::findIdxFile(dataPath, "t10k-images").empty();
    // Only --precise-bn reads the training images.
    tb::DatasetOptions testOnly;
    testOnly.testSplitOnly = !o.has("precise-bn");
    tb::Dataset base;
    tb::WeightsFile weights;
    if (text) {
        std::optional<tb::Dataset> named; // read for a file of another program only
        weights = loadWeightsOption(o, [&](const tb::ModelSpec& spec) {
            named = loadData(o, spec, {}, false);
            return &*named;
        });
        if (named)
            base = std::move(*named);
        else // an image model's weights: the folder's (missing) IDX files are what to say
            base = weights.spec.isText() ? tb::loadDatasetFor(dataPath, weights) : tb::loadDataset(dataPath, testOnly);
    } else {
        base = tb::loadDataset(dataPath, testOnly);
        weights = loadWeightsOption(o, [&](const tb::ModelSpec&) { return &base; });
        if (weights.spec.isText())
            throw tb::ModelError(o.text("weights", "") + " holds a text model (" + weights.spec.name +
                                 "): evaluate it on a text, --data FILE");
    }
    // Data the weights cannot take (other image sizes, another class count) is an error, before any
    // warning about their classes, and names the weights file, as the window does.
    try {
        tb::requireWeightsFit(base, weights);
    } catch (const tb::DataError& e) {
        throw tb::DataError(o.text("weights", "") + ": " + e.what());
    }
    // Weights of other classes are evaluated (a relabelled copy of their dataset is a fair use), with a
    // warning on stderr and in the JSON line.
    const std::string otherClasses = tb::otherClassesNote(weights, base);
    if (!otherClasses.empty())
        std::fprintf(stderr, "trainbench-cli evaluate: warning: %s\n", otherClasses.c_str());
    if (const std::string enlarged = tb::enlargedImagesNote(weights, base); !enlarged.empty())
        std::fprintf(stderr, "trainbench-cli evaluate: note: %s\n", enlarged.c_str());
    // Weights trained in bf16 evaluate in FP32 unless told: their run's figures need --precision bf16.
    const bool precisionNamed = o.has("precision") || o.text("device", "").find('+') != std::string::npos;
    if (const tb::Precision trained = weights.train.device.precision; !precisionNamed && trained != device.precision) {
        const std::string why = tb::precisionUnavailableOn(device, trained);
        const std::string how =
            why.empty() ? std::string("--precision ") + tb::precisionName(trained) + " evaluates as their run did"
                        : std::string(tb::precisionName(trained)) + " cannot run here: " + why;
        std::fprintf(stderr,
                     "trainbench-cli evaluate: note: the weights were trained in %s; this evaluation is %s (%s)\n",
                     tb::precisionName(trained), tb::precisionName(device.precision), how.c_str());
    }
    if (o.has("precise-bn")) {
        // After training: the weights file's BatchNorm statistics recomputed over the training set,
        // on the CPU engine, then evaluated (and saved with --save).
        const int batches = settings.config.preciseBnBatches;
        if (batches < 1)
            throw UsageError("--precise-bn takes a number of training batches, 1 or more");
        const tb::Dataset d = tb::datasetForWeights(base, weights);
        tb::Network net = weights.buildNetwork();
        const bool cpu = device.kind == tb::DeviceKind::Cpu;
        const tb::PreciseBnResult p = tb::recomputeBatchNormStatistics(
            net, d.train, d.sizeMultiplier, batches, settings.config.batchSize, settings.config.seed,
            cpu ? device.threads : tb::hardwareThreads(), tb::cpuKernels(device));
        weights.state = net.state();
        if (!o.has("json"))
            std::printf("%s\n", tb::preciseBnText(p).c_str());
        if (o.has("save")) {
            tb::saveWeightsAs(o.text("save", ""), weights, tb::weightsFormatOfPath(o.text("save", "")));
            if (!o.has("json"))
                std::printf("Saved %s\n", o.text("save", "").c_str());
        }
    }
    const tb::WeightsEvaluation e = tb::evaluateWeights(
        weights, base, device, settings.config.kernelCacheDir, int(o.integer("limit", 0, 0, 1 << 30)),
        o.has("predictions") ? tb::EvalKeeps::Probabilities : tb::EvalKeeps::Metrics);
    const tb::EvalResult& r = e.result;
    if (o.has("predictions"))
        writePredictions(o.text("predictions", ""), r, e.data.test, e.net.numClasses());
    if (o.has("json")) {
        nlohmann::ordered_json j;
        j["event"] = "evaluate";
        tb::TestResult test = tb::testResultOf(r);
        test.misclassified = e.misclassified;
        j["test"] = test;
        if (text)
            j["test_bpc"] = tb::bitsPerSymbol(r.loss);
        j["weights_sha256"] = e.net.weightsSha256();
        j["device"] = device.id();
        j["precision"] = tb::precisionName(device.precision);
        if (!otherClasses.empty())
            j["warning"] = otherClasses;
        printJson(j);
    } else {
        std::printf("Evaluated on %s (%s)\n", device.id().c_str(), tb::precisionDescription(device.precision));
        std::printf("Test loss: %.4f - test accuracy: %.4f%s - misclassified: %d of %d %s - weights sha256: %s\n",
                    r.loss, r.accuracy, text ? testBpcText(r.loss).c_str() : "", e.misclassified, r.samples,
                    text ? "predicted symbols" : "images", e.net.weightsSha256().c_str());
    }
    return Ok;
}

} // namespace tbcli
