#include "io/weights_file.hpp"

#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "io/atomic_file.hpp"

#include <cmath>
#include <stdexcept>
#include <cstring>

namespace tb {

namespace {
constexpr char kMagic[9] = "TBWGHT01";

void putU64(std::string& out, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out += char((v >> (8 * i)) & 0xff);
}

uint64_t getU64(const std::string& s, size_t at)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= uint64_t(uint8_t(s[at + size_t(i)])) << (8 * i);
    return v;
}

void putFloats(std::string& out, const std::vector<float>& v)
{
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

Json historyJson(const std::vector<EpochRecord>& h)
{
    Json a = Json::array();
    for (const EpochRecord& r : h) {
        Json o = Json::object();
        o["epoch"] = r.epoch;
        o["loss"] = r.loss;
        o["accuracy"] = r.accuracy;
        o["val_loss"] = r.valLoss;
        o["val_accuracy"] = r.valAccuracy;
        o["seconds"] = r.seconds;
        o["samples_per_sec"] = r.samplesPerSec;
        o["samples"] = r.samples;
        a.push(o);
    }
    return a;
}

double num(const Json& o, const char* key, const std::string& path)
{
    const Json* v = o.find(key);
    if (!v || !v->isNumber())
        throw IoError(path + ": the header lacks \"" + key + "\"; the file is corrupt");
    return v->asNumber();
}

// A whole number in [lo, hi]: a double outside an integer type's range must not reach a cast
// (undefined behaviour), and a count must not exceed what the file could hold.
int64_t whole(double v, const char* key, const std::string& path, double lo, double hi)
{
    if (!(v >= lo && v <= hi) || v != std::floor(v))
        throw IoError(path + ": the header's \"" + key + "\" is out of range (" + Json(v).dump() + "); the file is corrupt");
    return int64_t(v);
}
int64_t whole(const Json& o, const char* key, const std::string& path, double lo, double hi)
{
    return whole(num(o, key, path), key, path, lo, hi);
}
constexpr double kIntMax = 2147483647.0;
}  // namespace

Network WeightsFile::buildNetwork() const
{
    Network net(spec, input, int(classNames.size()));
    if (int64_t(params.size()) != net.paramCount() || int64_t(state.size()) != net.stateCount())
        throw ModelError("the weights file holds " + std::to_string(params.size()) + "+" +
                         std::to_string(state.size()) + " values but its model needs " +
                         std::to_string(net.paramCount()) + "+" + std::to_string(net.stateCount()));
    net.params() = params;
    net.state() = state;
    return net;
}

WeightsFile WeightsFile::fromTraining(const Network& net, Trainer& trainer,
                                      const std::vector<std::string>& classNames, const std::string& datasetDir)
{
    trainer.syncToHost(); // an accelerator's weights come down
    WeightsFile w;
    w.spec = net.spec();
    w.input = net.inputShape();
    w.classNames = classNames;
    w.params = net.params();
    w.state = net.state();
    OptimizerState optimizer = trainer.backend().optimizerState();
    w.optimizer = optimizer.config;
    w.optimizerIterations = optimizer.iterations;
    w.optimizerSlots = std::move(optimizer.slotBuffer);
    w.train = trainer.config();
    w.history = trainer.history();
    w.datasetDir = datasetDir;
    return w;
}

void saveWeights(const std::string& path, const WeightsFile& w)
{
    Json h = Json::object();
    h["format"] = "trainbench-weights";
    h["version"] = 1;
    h["model"] = w.spec.json;
    Json in = Json::array();
    in.push(w.input.h);
    in.push(w.input.w);
    in.push(w.input.c);
    h["input_shape"] = in;
    Json names = Json::array();
    for (const auto& n : w.classNames)
        names.push(n);
    h["class_names"] = names;
    h["params"] = int64_t(w.params.size());
    h["state"] = int64_t(w.state.size());
    Json opt = Json::object();
    opt["name"] = optimizerName(w.optimizer.kind);
    opt["learning_rate"] = double(w.optimizer.learningRate);
    opt["beta_1"] = double(w.optimizer.beta1);
    opt["beta_2"] = double(w.optimizer.beta2);
    opt["epsilon"] = double(w.optimizer.epsilon);
    opt["momentum"] = double(w.optimizer.momentum);
    opt["nesterov"] = w.optimizer.nesterov;
    opt["rho"] = double(w.optimizer.rho);
    opt["iterations"] = w.optimizerIterations;
    opt["slots"] = int64_t(w.optimizerSlots.size());
    h["optimizer"] = opt;
    Json tr = Json::object();
    tr["epochs"] = w.train.epochs;
    tr["batch_size"] = w.train.batchSize;
    tr["threads"] = w.train.device.threads;
    tr["device"] = w.train.device.id();
    tr["seed"] = std::to_string(w.train.seed);
    tr["max_batches"] = w.train.maxBatches;
    h["training"] = tr;
    h["history"] = historyJson(w.history);
    h["dataset"] = w.datasetDir;

    const std::string header = h.dump();
    std::string out(kMagic, 8);
    putU64(out, header.size());
    out += header;
    putFloats(out, w.params);
    putFloats(out, w.state);
    putFloats(out, w.optimizerSlots);
    Sha256 sha;
    sha.update(out.data(), out.size());
    const auto d = sha.digest();
    out.append(reinterpret_cast<const char*>(d.data()), d.size());
    writeFileAtomically(path, out);
}

WeightsFile loadWeights(const std::string& path)
{
    const std::string s = readWholeFile(path);
    if (s.size() < 16 + 32 || s.compare(0, 8, kMagic) != 0)
        throw IoError(path + ": not a Trainbench weights file (bad magic)");
    {
        Sha256 sha;
        sha.update(s.data(), s.size() - 32);
        const auto d = sha.digest();
        if (std::memcmp(d.data(), s.data() + s.size() - 32, 32) != 0)
            throw IoError(path + ": the file is corrupt or truncated (checksum mismatch)");
    }
    const uint64_t hlen = getU64(s, 8);
    if (hlen > s.size() - 16 - 32)
        throw IoError(path + ": the header length is larger than the file");
    Json h;
    try {
        h = Json::parse(s.substr(16, size_t(hlen)));
    } catch (const Error& e) {
        throw IoError(path + ": corrupt header: " + e.what());
    }
    WeightsFile w;
    const Json* model = h.find("model");
    if (!model)
        throw IoError(path + ": the header lacks the model");
    w.spec = parseModelSpec(model->dump(), path);
    const Json* in = h.find("input_shape");
    if (!in || !in->isArray() || in->items().size() != 3)
        throw IoError(path + ": the header lacks the input shape");
    int side[3];
    for (int i = 0; i < 3; ++i)
        side[i] = int(whole(in->items()[size_t(i)].asNumber(), "input_shape", path, 1, 65536));
    w.input = Shape::image(side[0], side[1], side[2]);
    if (const Json* names = h.find("class_names"))
        for (const Json& n : names->items())
            w.classNames.push_back(n.asString());
    const Json* opt = h.find("optimizer");
    if (!opt)
        throw IoError(path + ": the header lacks the optimizer");
    w.optimizer.kind = parseOptimizer(opt->find("name") ? opt->find("name")->asString() : "");
    w.optimizer.learningRate = float(num(*opt, "learning_rate", path));
    w.optimizer.beta1 = float(num(*opt, "beta_1", path));
    w.optimizer.beta2 = float(num(*opt, "beta_2", path));
    w.optimizer.epsilon = float(num(*opt, "epsilon", path));
    w.optimizer.momentum = float(num(*opt, "momentum", path));
    w.optimizer.rho = float(num(*opt, "rho", path));
    w.optimizer.nesterov = opt->find("nesterov") && opt->find("nesterov")->asBool();
    w.optimizerIterations = whole(*opt, "iterations", path, 0, 9007199254740992.0);
    if (const Json* tr = h.find("training")) {
        w.train.epochs = int(whole(*tr, "epochs", path, 0, kIntMax));
        w.train.batchSize = int(whole(*tr, "batch_size", path, 0, kIntMax));
        w.train.device.threads = int(whole(*tr, "threads", path, 0, kIntMax));
        if (const Json* device = tr->find("device")) {
            try {
                const int threads = w.train.device.threads;
                w.train.device = parseDeviceSpec(device->asString());
                w.train.device.threads = threads;
            } catch (const ConfigError&) {
                throw IoError(path + ": the header's device \"" + device->asString() + "\" is not a device; the file is corrupt");
            }
        }
        w.train.maxBatches = int(whole(*tr, "max_batches", path, 0, kIntMax));
        if (const Json* seed = tr->find("seed")) {
            const std::string text = seed->asString();
            if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
                throw IoError(path + ": the header's seed \"" + text + "\" is not a number; the file is corrupt");
            try {
                w.train.seed = std::stoull(text);
            } catch (const std::out_of_range&) {
                throw IoError(path + ": the header's seed " + text + " is out of range; the file is corrupt");
            }
        }
    }
    if (const Json* hist = h.find("history"))
        for (const Json& r : hist->items()) {
            EpochRecord e;
            e.epoch = int(whole(r, "epoch", path, 0, kIntMax));
            e.loss = num(r, "loss", path);
            e.accuracy = num(r, "accuracy", path);
            e.valLoss = num(r, "val_loss", path);
            e.valAccuracy = num(r, "val_accuracy", path);
            e.seconds = num(r, "seconds", path);
            e.samplesPerSec = num(r, "samples_per_sec", path);
            e.samples = whole(r, "samples", path, 0, 9007199254740992.0);
            w.history.push_back(e);
        }
    if (const Json* d = h.find("dataset"))
        w.datasetDir = d->asString();
    // Counts of floats, each at most what the file holds (so their sum cannot overflow either).
    const double most = double(s.size() / sizeof(float));
    const uint64_t np = uint64_t(whole(h, "params", path, 0, most)), ns = uint64_t(whole(h, "state", path, 0, most));
    const uint64_t nslots = uint64_t(whole(*opt, "slots", path, 0, most));
    const uint64_t need = (np + ns + nslots) * sizeof(float);
    if (16 + hlen + need + 32 != s.size())
        throw IoError(path + ": the file size does not match its header (corrupt or truncated)");
    const char* p = s.data() + 16 + hlen;
    auto take = [&](std::vector<float>& v, uint64_t n) {
        v.resize(size_t(n));
        if (n)  // memcpy from an empty vector's null data() is undefined
            std::memcpy(v.data(), p, size_t(n) * sizeof(float));
        p += n * sizeof(float);
    };
    take(w.params, np);
    take(w.state, ns);
    take(w.optimizerSlots, nslots);
    // Trainbench never saves a diverged run's weights; a file holding NaN was damaged or forged.
    for (const std::vector<float>* v : {&w.params, &w.state})
        for (size_t i = 0; i < v->size(); ++i)
            if (!std::isfinite((*v)[i]))
                throw IoError(path + ": weight " + std::to_string(i) + (v == &w.state ? " of the layers' state" : "") +
                              " is not a finite number (NaN or infinity); the file is damaged");
    return w;
}

Dataset datasetForWeights(Dataset d, const WeightsFile& w)
{
    const Shape input = w.input;
    if (input.h % d.train.height || input.w % d.train.width || input.h / d.train.height != input.w / d.train.width)
        throw DataError("the model was trained on " + std::to_string(input.h) + "x" + std::to_string(input.w) +
                        " images but " + d.directory + " holds " + std::to_string(d.train.height) + "x" +
                        std::to_string(d.train.width) + " images");
    if (d.numClasses != int(w.classNames.size()))
        throw DataError("the model classifies " + std::to_string(w.classNames.size()) + " classes but " + d.directory +
                        " has " + std::to_string(d.numClasses));
    DatasetOptions options;
    options.sizeMultiplier = input.h / d.train.height;
    return withOptions(std::move(d), options);
}

}  // namespace tb
