#include "train/progress_text.hpp"

#include "kernels/kernels.hpp"

#include <algorithm>
#include <cstdio>

namespace tb {

namespace {
std::string bar(int step, int steps)
{
    constexpr int width = 30;
    const int done = steps > 0 ? step * width / steps : 0;
    std::string b = "[";
    for (int i = 0; i < width; ++i)
        b += i < done ? '=' : (i == done ? '>' : '.');
    if (step >= steps)
        b = "[" + std::string(width, '=');
    return b + "]";
}

std::string counter(int step, int steps)
{
    const std::string total = std::to_string(steps);
    std::string s = std::to_string(step);
    return std::string(total.size() > s.size() ? total.size() - s.size() : 0, ' ') + s + "/" + total;
}
} // namespace

std::string formatDuration(double s)
{
    char buf[32];
    const long t = long(s + 0.5);
    if (t < 60)
        std::snprintf(buf, sizeof buf, "%lds", t);
    else if (t < 3600)
        std::snprintf(buf, sizeof buf, "%ldm %02lds", t / 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldh %02ldm", t / 3600, (t % 3600) / 60);
    return buf;
}

std::string progressLine(const BatchProgress& p)
{
    const double perStep = p.step > 0 ? p.epochElapsed / p.step : 0.0;
    const double eta = perStep * (p.steps - p.step);
    char tail[128];
    std::snprintf(tail, sizeof tail, " - loss: %.4f - accuracy: %.4f", p.loss, p.accuracy);
    return counter(p.step, p.steps) + " " + bar(p.step, p.steps) + " - ETA: " + formatDuration(eta) + tail;
}

std::string epochLine(const EpochRecord& r, int steps)
{
    char buf[256];
    const double msPerStep = steps > 0 ? 1000.0 * r.seconds / steps : 0.0;
    std::snprintf(buf, sizeof buf,
                  " - %s %.0fms/step - loss: %.4f - accuracy: %.4f - val_loss: %.4f - val_accuracy: %.4f",
                  formatDuration(r.seconds).c_str(), msPerStep, r.loss, r.accuracy, r.valLoss, r.valAccuracy);
    return counter(steps, steps) + " " + bar(steps, steps) + buf;
}

double loweredRate(const EpochRecord& r, const LrSchedule& schedule)
{
    // updatePlateau's step from the rate the epoch ran at (scheduledRate's plateau.rate).
    return std::max(r.learningRate * schedule.factor, schedule.minLr);
}

std::vector<std::string> callbackLines(const EpochRecord& r, const LrSchedule& schedule)
{
    std::vector<std::string> lines;
    char buf[128];
    if (r.rateLowered) {
        std::snprintf(buf, sizeof buf, "Epoch %d: ReduceLROnPlateau reducing learning rate to %.4g.", r.epoch,
                      loweredRate(r, schedule));
        lines.push_back(buf);
    }
    if (r.stopped)
        lines.push_back("Epoch " + std::to_string(r.epoch) + ": early stopping");
    return lines;
}

std::string describeDataset(const Dataset& d)
{
    if (d.isText()) {
        const bool bytes = d.textVocabulary == "bytes";
        // The text's last part validates, unless --validation-split holds out training sequences; then
        // it is the test part, evaluated at the end.
        const std::string heldOut = d.validation.count > 0
                                        ? std::to_string(d.validation.count) + " validation (held out of train) / " +
                                              std::to_string(d.test.count) + " test"
                                        : std::to_string(d.test.count) + " validation";
        return std::to_string(d.train.count) + " train / " + heldOut + " sequences of " +
               std::to_string(d.train.steps) + (bytes ? " byte" : " character") + (d.train.steps == 1 ? "" : "s") +
               " (" + withThousands(d.textBytes) + " bytes of text), " + (bytes ? "byte-level" : "character-level") +
               " vocabulary of " + std::to_string(d.numClasses) + " symbols";
    }
    const std::string validation =
        d.validation.count > 0 ? std::to_string(d.validation.count) + " validation (held out of train) / " : "";
    return std::to_string(d.train.count) + " train / " + validation + std::to_string(d.test.count) + " test images, " +
           std::to_string(d.inputHeight()) + "x" + std::to_string(d.inputWidth()) + ", " +
           std::to_string(d.numClasses) + " classes (" + d.classNamesSource + ")";
}

std::string emptyClassesNote(const Dataset& d)
{
    if (d.isText() || d.classNamesSource == "classes.txt" || d.train.labels.empty())
        return {};
    std::vector<int64_t> counts(size_t(d.numClasses), 0);
    for (uint8_t l : d.train.labels)
        if (l < d.numClasses)
            ++counts[l];
    std::vector<int> empty;
    for (int c = 0; c < d.numClasses; ++c)
        if (counts[size_t(c)] == 0)
            empty.push_back(c);
    if (empty.empty())
        return {};
    std::string listed;
    for (size_t i = 0; i < empty.size() && i < 5; ++i)
        listed += (i ? ", " : "") + std::to_string(empty[i]);
    if (empty.size() > 5)
        listed += ", ... " + std::to_string(empty.back());
    return std::to_string(empty.size()) + " of the " + std::to_string(d.numClasses) +
           " classes (as many as the largest training label, " + std::to_string(d.numClasses - 1) +
           ", says) have no training image: " + listed +
           "; a corrupt label file, or a classes.txt missing from the folder?";
}

std::string runHeader(const Network& net, const Dataset& d, const TrainConfig& cfg, const Backend& backend)
{
    const DeviceSpec& dev = backend.device();
    std::string where = dev.kind == DeviceKind::Cpu
                            ? "CPU, " + std::to_string(dev.threads) + (dev.threads == 1 ? " thread" : " threads")
                            : dev.id();
    where += ", " + describePrecision(dev.precision);
    char rest[256];
    std::snprintf(rest, sizeof rest, ", batch %d, %s lr %g, seed %llu, ", cfg.batchSize,
                  optimizerName(cfg.optimizer.kind), double(cfg.optimizer.learningRate),
                  static_cast<unsigned long long>(cfg.seed));
    std::string header = "Model " + net.spec().name + " (" + withThousands(net.paramCount() + net.stateCount()) +
                         " params) on " + d.directory + ": " + describeDataset(d) + "\n" + where + rest +
                         backend.describe();
    if (const std::string note = backend.setupNote(); !note.empty()) { // the device's set-up line
        header += '\n';
        header += note;
    }
    // --validation-limit: what each epoch's validation figures are of, and the final test's.
    const bool heldOut = d.validation.count > 0; // --validation-split: held out of the training samples
    const std::string samples = d.isText() ? " sequences" : " images";
    const std::string test =
        withThousands(d.test.count) + (d.isText() ? " sequences of the text's last part" : " test images");
    if (const int held = heldOut ? d.validation.count : d.test.count;
        cfg.validationLimit > 0 && cfg.validationLimit < held)
        header +=
            "\nEach epoch validates on the first " + withThousands(cfg.validationLimit) + " of the " +
            (heldOut ? withThousands(held) + " held-out training" + samples + "; the test at the end takes the " + test
                     : test + "; the test at the end takes them all");
    return header;
}

} // namespace tb
