#include "train/compare.hpp"

#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "model/network.hpp"
#include "train/session.hpp"
#include "train/test_record.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace tb {

namespace {
class RowObserver : public TrainObserver {
public:
    RowObserver(CompareObserver* outer, int row) : m_outer(outer), m_row(row) {}
    void batchFinished(const BatchProgress& p) override
    {
        if (m_outer)
            m_outer->batchFinished(m_row, p);
    }

private:
    CompareObserver* m_outer;
    int m_row;
};
} // namespace

Sweep parseSweep(const std::string& text)
{
    Sweep s;
    if (text.empty())
        return s;
    const size_t eq = text.find('=');
    const std::string kind = text.substr(0, eq);
    if (kind == "batch")
        s.kind = SweepKind::Batch;
    else if (kind == "size")
        s.kind = SweepKind::Size;
    else
        throw ConfigError("unknown sweep '" + text + "': use batch=32,64,128 or size=1,2,3");
    std::stringstream ss(eq == std::string::npos ? "" : text.substr(eq + 1));
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        const long hi = s.kind == SweepKind::Batch ? 65536 : 16;
        if (item.empty() || *end != '\0' || v < 1 || v > hi)
            throw ConfigError("bad sweep value '" + item + "' in '" + text + "': expected 1.." + std::to_string(hi));
        s.values.push_back(int(v));
    }
    if (s.values.empty())
        throw ConfigError("the sweep '" + text + "' lists no values");
    return s;
}

void requireComparable(const Dataset& data, const CompareConfig& config)
{
    if (config.devices.empty())
        throw ConfigError("no devices to compare");
    if (data.isText() && config.sweep.kind == SweepKind::Size)
        throw ConfigError("a sweep of sizes enlarges images, and " + data.directory +
                          " is a text: sweep the batch for a text model");
    requireSizeMultiplierFits(data, config.train.sizeMultiplier);
}

std::vector<CompareRow> runComparison(const ModelSpec& spec, const Dataset& base, const CompareConfig& config,
                                      CompareObserver* observer, const std::atomic<bool>* cancel)
{
    requireComparable(base, config);
    const SystemInfo system = detectSystem();
    const std::vector<int> values = config.sweep.kind == SweepKind::None ? std::vector<int>{0} : config.sweep.values;
    const int total = int(values.size() * config.devices.size());
    std::vector<CompareRow> rows;
    for (int value : values) {
        const int batch = config.sweep.kind == SweepKind::Batch ? value : config.train.batchSize;
        const int mult = config.sweep.kind == SweepKind::Size ? value : config.train.sizeMultiplier;
        // The first row's speed at this sweep value, and the first final weights of each global batch
        // (--scale-batch gives each device its own): weights trained on other batches are another run's.
        double referenceSpeed = 0;
        std::vector<std::pair<int, std::vector<float>>> references;
        for (const DeviceSpec& device : config.devices) {
            if (cancel && cancel->load())
                return rows;
            CompareRow row;
            row.device = device;
            DeviceSpec resolved = device; // a CPU without "@level" runs the run's level
            if (resolved.kind == DeviceKind::Cpu && !resolved.isa)
                resolved.isa = config.train.device.isa.value_or(defaultIsa());
            row.description = describeDevice(resolved, system);
            row.sweepValue = value;
            row.replicas = device.replicas();
            row.globalBatch = config.scaleBatchWithReplicas ? batch * device.replicas() : batch;
            row.sizeMultiplier = mult;
            row.skipped = deviceUnavailableReason(resolved, system);
            const int index = int(rows.size());
            if (observer)
                observer->deviceStarted(index, total, row);
            if (!row.skipped.empty()) {
                rows.push_back(row);
                if (observer)
                    observer->deviceFinished(index, row);
                continue;
            }
            TrainConfig tc = config.train;
            tc.batchSize = row.globalBatch;
            tc.sizeMultiplier = mult;
            tc.device = resolved;
            // The same initial weights on every device. A device other than the CPU that cannot set the
            // model up (an OpenCL device and a text model's sequences, its memory) is a skipped row with the
            // reason, and the others go on; what fails on the CPU fails on every device, and ends it,
            // unless it is this sweep value's (a size the model's kernels do not fit, a batch too large):
            // then this value's rows are skipped and the other values go on.
            std::optional<TrainingSession> made;
            try {
                made.emplace(spec, base, tc);
            } catch (const Error& e) {
                if (resolved.kind == DeviceKind::Cpu && config.sweep.kind == SweepKind::None)
                    throw;
                row.skipped = e.what();
                row.skippedError = std::current_exception();
                rows.push_back(row);
                if (observer)
                    observer->deviceFinished(index, row);
                continue;
            }
            TrainingSession& session = *made;
            row.note = session.info().setupNote;
            RowObserver rowObserver(observer, index);
            if (session.run(&rowObserver, cancel) == TrainStatus::Cancelled)
                return rows;
            const RunResult result = session.finish(TrainStatus::Completed);
            row.samples = result.samples;
            row.epochs = result.epochs;
            row.secondsPerEpoch = result.trainingSeconds / std::max(1, row.epochs);
            row.samplesPerSec = double(row.samples) / std::max(result.trainingSeconds, 1e-9);
            row.test = testResultOf(result.test);
            row.weightsSha256 = result.weightsSha256;
            const Network& net = session.network();
            if (referenceSpeed == 0)
                referenceSpeed = row.samplesPerSec;
            auto reference = std::find_if(references.begin(), references.end(),
                                          [&row](const auto& r) { return r.first == row.globalBatch; });
            if (reference == references.end()) {
                row.noDiffReference = !references.empty();
                reference = references.insert(references.end(), {row.globalBatch, net.params()});
            }
            const std::vector<float>& w = reference->second;
            if (w.size() == net.params().size())
                for (size_t i = 0; i < w.size(); ++i)
                    row.maxAbsDiff = std::max(row.maxAbsDiff, double(std::fabs(w[i] - net.params()[i])));
            row.speedup = row.samplesPerSec / std::max(referenceSpeed, 1e-9);
            rows.push_back(row);
            if (observer)
                observer->deviceFinished(index, row);
        }
    }
    return rows;
}

CompareSetup compareSetupOf(const ModelSpec& spec, const Dataset& data, const CompareConfig& config)
{
    const TrainConfig& t = config.train;
    return {spec.name,
            data.directory,
            t.seed,
            t.maxBatches,
            t.validationLimit,
            optimizerName(t.optimizer.kind),
            t.optimizer.learningRate,
            data.isText() ? data.inputHeight() : 0,
            data.textVocabulary};
}

std::string compareCsv(const std::vector<CompareRow>& rows, const CompareSetup& setup)
{
    std::string out =
        "device,precision,description,sweep_value,replicas,global_batch,size_multiplier,epochs,samples,"
        "seconds_per_epoch,samples_per_sec,speedup,test_loss,test_accuracy,weights_sha256,max_abs_diff,skipped,note,"
        "model,dataset,seed,max_batches,validation_limit,optimizer,learning_rate,sequence_length,vocabulary\n";
    auto quoted = [](std::string s) {
        std::string q = "\"";
        for (char c : s)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    // What was compared, the same on every row (a text's sequence length and vocabulary empty for images).
    const std::string what = quoted(setup.model) + "," + quoted(setup.dataset) + "," + std::to_string(setup.seed) +
                             "," + std::to_string(setup.maxBatches) + "," + std::to_string(setup.validationLimit) +
                             "," + setup.optimizer + "," + jsonNumberText(jsonFloat(setup.learningRate)) + "," +
                             (setup.sequenceLength ? std::to_string(setup.sequenceLength) : "") + "," +
                             setup.vocabulary;
    for (const CompareRow& r : rows) {
        // What the row was set to run with (its device's replicas, batch and size), then what it
        // measured: empty fields for a skipped row, which measured nothing.
        char setup[128];
        std::snprintf(setup, sizeof setup, "%d,%d,%d,%d", r.sweepValue, r.replicas, r.globalBatch, r.sizeMultiplier);
        char results[512] = ",,,,,,";
        char diff[64] = "";
        if (r.skipped.empty()) {
            std::snprintf(results, sizeof results, "%d,%lld,%.6g,%.6g,%.6g,%.8g,%.8g", r.epochs,
                          static_cast<long long>(r.samples), r.secondsPerEpoch, r.samplesPerSec, r.speedup, r.test.loss,
                          r.test.accuracy);
            if (!r.noDiffReference)
                std::snprintf(diff, sizeof diff, "%.6g", r.maxAbsDiff);
        }
        out += r.device.id() + "," + precisionName(r.device.precision) + "," + quoted(r.description) + "," + setup +
               "," + results + "," + r.weightsSha256 + "," + diff + "," + quoted(r.skipped) + "," +
               quoted(r.skipped.empty() ? r.note : std::string()) + "," + what + "\n";
    }
    return out;
}

std::string compareTable(const std::vector<CompareRow>& rows)
{
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"device", "replicas", "batch", "size", "s/epoch", "samples/s", "speed-up", "test loss", "test acc",
                     "max |dw|", "weights sha256"});
    for (const CompareRow& r : rows) {
        // As in the CSV: what the row was set to run with, then what it measured (nothing, if skipped).
        std::vector<std::string> row = {r.device.id(), std::to_string(r.replicas), std::to_string(r.globalBatch),
                                        std::to_string(r.sizeMultiplier)};
        if (!r.skipped.empty())
            row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "skipped: " + r.skipped});
        else
            row.insert(row.end(),
                       {fixedText(r.secondsPerEpoch, 2), fixedText(r.samplesPerSec, 0), fixedText(r.speedup, 2) + "x",
                        fixedText(r.test.loss, 4), fixedText(r.test.accuracy, 4),
                        r.noDiffReference   ? "-"
                        : r.maxAbsDiff == 0 ? "0"
                                            : fixedText(r.maxAbsDiff, 6),
                        r.weightsSha256});
        cells.push_back(std::move(row));
    }
    std::vector<size_t> width(cells[0].size(), 0);
    for (const auto& row : cells)
        for (size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
        for (size_t c = 0; c < cells[i].size(); ++c) {
            const std::string& s = cells[i][c];
            const bool last = c + 1 == cells[i].size();
            out += (c == 0 || last ? s + std::string(last ? 0 : width[c] - s.size(), ' ')
                                   : std::string(width[c] - s.size(), ' ') + s);
            if (!last)
                out += "  ";
        }
        out += "\n";
    }
    // What the two relative columns are relative to: a sweep compares the devices at each value, not
    // the values (one device swept reads 1.00x and 0 on every row; samples/s compares the values).
    // The reference is the first row that ran: a skipped one has no weights nor speed.
    const auto ran = std::find_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.skipped.empty(); });
    if (ran == rows.end())
        return out;
    const bool sweep = std::any_of(rows.begin(), rows.end(), [](const CompareRow& r) { return r.sweepValue != 0; });
    const bool batches = std::any_of(rows.begin(), rows.end(), [&rows](const CompareRow& r) {
        return r.skipped.empty() && std::any_of(rows.begin(), rows.end(), [&r](const CompareRow& o) {
                   return o.skipped.empty() && o.sweepValue == r.sweepValue && o.globalBatch != r.globalBatch;
               });
    });
    if (sweep)
        out += batches ? "speed-up: against the first device that ran at the same sweep value; max |dw|: against the "
                         "first that ran at the same sweep value and global batch\n"
                       : "speed-up and max |dw|: against the first device that ran at the same batch and size\n";
    else if (batches) // --scale-batch: the same seed on other batches is another run, whose weights differ
        out += "speed-up: against the first row that ran, " + ran->device.id() +
               "; max |dw| (the largest difference of a weight): against the first row that ran at the same global "
               "batch (- where it is that first row)\n";
    else
        out += "speed-up and max |dw| (the largest difference of a weight): against the first row that ran, " +
               ran->device.id() + "\n";
    // What a device's set-up says of its speed (8 threads on 2 cores), once for each device.
    std::vector<std::string> said;
    for (const CompareRow& r : rows)
        for (size_t at = 0; at < r.note.size();) {
            const size_t end = std::min(r.note.find('\n', at), r.note.size());
            const std::string line = r.device.id() + ": " + r.note.substr(at, end - at) + "\n";
            if (std::find(said.begin(), said.end(), line) == said.end()) {
                said.push_back(line);
                out += line;
            }
            at = end + 1;
        }
    return out;
}

} // namespace tb
