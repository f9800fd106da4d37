#include "io/weights_file.hpp"

#include "config/records.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "core/sha256.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

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

// The header's member `key` of object `o`, which must be of the type `is` checks for.
const Json& member(const Json& o, const char* key, const std::string& path, bool (Json::*is)() const noexcept,
                   const char* type)
{
    const Json* v = jsonMember(o, key);
    if (!v)
        throw IoError(path + ": the header lacks \"" + key + "\"; the file is corrupt");
    if (!(v->*is)())
        throw IoError(path + ": the header's \"" + key + "\" is " + jsonTypeName(*v) + ", not " + type +
                      "; the file is corrupt");
    return *v;
}
double num(const Json& o, const char* key, const std::string& path)
{
    return member(o, key, path, &Json::is_number, "a number").get<double>();
}
std::string text(const Json& o, const char* key, const std::string& path)
{
    return member(o, key, path, &Json::is_string, "a string").get<std::string>();
}

// A whole number in [lo, hi]: a double outside an integer type's range must not reach a cast
// (undefined behaviour), and a count must not exceed what the file could hold.
int64_t whole(double v, const char* key, const std::string& path, double lo, double hi)
{
    if (!(v >= lo && v <= hi) || v != std::floor(v))
        throw IoError(path + ": the header's \"" + key + "\" is out of range (" + jsonNumberText(v) +
                      "); the file is corrupt");
    return int64_t(v);
}
int64_t whole(const Json& o, const char* key, const std::string& path, double lo, double hi)
{
    return whole(num(o, key, path), key, path, lo, hi);
}
constexpr double kIntMax = 2147483647.0;

// Version 2 keeps the whole training configuration (config/records.hpp); version 1 (0.2.0) kept
// epochs, batch_size, threads, device, seed and max_batches only.
constexpr int kVersion = 2;

// A record of the header (config/records.hpp), its faults worded as this file's.
template <typename T> T record(const Json& j, const std::string& path)
{
    try {
        return j.get<T>();
    } catch (const RecordError& e) {
        if (e.problem() == RecordError::Problem::Missing)
            throw IoError(path + ": the header lacks \"" + e.member() + "\"; the file is corrupt");
        throw IoError(path + ": the header's " + e.what() + "; the file is corrupt");
    } catch (const ConfigError& e) {
        throw IoError(path + ": the header's settings are not valid (" + e.what() + "); the file is corrupt");
    }
}

TrainConfig trainingOfVersion1(const Json& tr, const std::string& path)
{
    TrainConfig t;
    t.epochs = int(whole(tr, "epochs", path, 0, kIntMax));
    t.batchSize = int(whole(tr, "batch_size", path, 0, kIntMax));
    t.device.threads = int(whole(tr, "threads", path, 0, kIntMax));
    if (jsonMember(tr, "device")) {
        const std::string device = text(tr, "device", path);
        try {
            const int threads = t.device.threads;
            t.device = parseDeviceSpec(device);
            t.device.threads = threads;
        } catch (const ConfigError&) {
            throw IoError(path + ": the header's device \"" + device + "\" is not a device; the file is corrupt");
        }
    }
    t.maxBatches = int(whole(tr, "max_batches", path, 0, kIntMax));
    if (jsonMember(tr, "seed")) {
        const std::string seed = text(tr, "seed", path);
        if (seed.empty() || seed.size() > 20 || seed.find_first_not_of("0123456789") != std::string::npos)
            throw IoError(path + ": the header's seed \"" + seed + "\" is not a number; the file is corrupt");
        try {
            t.seed = std::stoull(seed);
        } catch (const std::out_of_range&) {
            throw IoError(path + ": the header's seed " + seed + " is out of range; the file is corrupt");
        }
    }
    return t;
}
} // namespace

Network WeightsFile::buildNetwork() const
{
    Network net(spec, input, int(classNames.size()), Network::Fill::Zeros);
    if (int64_t(params.size()) != net.paramCount() || int64_t(state.size()) != net.stateCount())
        throw ModelError("the weights file holds " + std::to_string(params.size()) + "+" +
                         std::to_string(state.size()) + " values but its model needs " +
                         std::to_string(net.paramCount()) + "+" + std::to_string(net.stateCount()));
    net.params() = params;
    net.state() = state;
    return net;
}

void saveWeights(const std::string& path, const WeightsFile& w)
{
    Json h;
    h["format"] = "trainbench-weights";
    h["version"] = kVersion;
    h["model"] = w.spec.json.empty() ? Json() : parseJson(w.spec.json);
    h["input_shape"] = {w.input.h, w.input.w, w.input.c};
    h["class_names"] = w.classNames;
    h["params"] = int64_t(w.params.size());
    h["state"] = int64_t(w.state.size());
    Json opt = w.optimizer; // config/records.hpp
    opt["iterations"] = w.optimizerIterations;
    opt["slots"] = int64_t(w.optimizerSlots.size());
    h["optimizer"] = opt;
    h["training"] = w.train;
    h["history"] = w.history;
    h["dataset"] = w.datasetDir;
    if (!w.resume.empty())
        h["resume"] = parseJson(w.resume);

    const std::string header = jsonText(h);
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

// A function try block: the header's values are type-checked before they are read, and should one
// slip through, nlohmann's exception still becomes an IoError naming the file.
WeightsFile loadWeights(const std::string& path)
{
    return parseWeights(readWholeFile(path), path);
}

WeightsFile parseWeights(const std::string& s, const std::string& path)
try {
    if (s.compare(0, 8, kMagic) != 0)
        throw IoError(path + ": not a Trainbench weights file (bad magic)");
    if (s.size() < 16 + 32) // the magic, the header's length and the checksum
        throw IoError(path + ": the file is truncated (" + std::to_string(s.size()) + " bytes)");
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
        h = parseJson(s.substr(16, size_t(hlen)));
    } catch (const Error& e) {
        throw IoError(path + ": corrupt header: " + e.what());
    }
    WeightsFile w;
    const Json* model = jsonMember(h, "model");
    if (!model)
        throw IoError(path + ": the header lacks the model");
    w.spec = parseModelSpec(jsonText(*model), path);
    const Json* in = jsonMember(h, "input_shape");
    if (!in || !in->is_array() || in->size() != 3)
        throw IoError(path + ": the header lacks the input shape");
    int side[3];
    for (int i = 0; i < 3; ++i) {
        const Json& v = (*in)[size_t(i)];
        if (!v.is_number())
            throw IoError(path + ": the header's \"input_shape\" holds " + jsonTypeName(v) +
                          ", not a number; the file is corrupt");
        side[i] = int(whole(v.get<double>(), "input_shape", path, 1, 65536));
    }
    // A text model's input is (T) token ids, stored as [T, 1, 1].
    w.input = w.spec.isText() ? Shape::tokenIds(side[0]) : Shape::image(side[0], side[1], side[2]);
    if (const Json* names = jsonMember(h, "class_names")) {
        if (!names->is_array())
            throw IoError(path + ": the header's \"class_names\" is " + jsonTypeName(*names) +
                          ", not an array of strings; the file is corrupt");
        for (const Json& n : *names) {
            if (!n.is_string())
                throw IoError(path + ": the header's \"class_names\" holds " + jsonTypeName(n) +
                              ", not a string; the file is corrupt");
            w.classNames.push_back(n.get<std::string>());
        }
    }
    const Json* opt = jsonMember(h, "optimizer");
    if (!opt)
        throw IoError(path + ": the header lacks the optimizer");
    w.optimizer = record<OptimizerConfig>(*opt, path);
    w.optimizerIterations = whole(*opt, "iterations", path, 0, 9007199254740992.0);
    const Json* version = jsonMember(h, "version");
    if (version &&
        !(version->is_number_integer() && version->get<int64_t>() >= 1 && version->get<int64_t>() <= kVersion))
        throw IoError(path + ": a weights file of version " + jsonText(*version) +
                      ", which this Trainbench does not read");
    if (const Json* tr = jsonMember(h, "training")) {
        if (version && version->get<int64_t>() >= 2)
            w.train = record<TrainConfig>(*tr, path);
        else
            w.train = trainingOfVersion1(*tr, path);
    }
    if (jsonMember(h, "history"))
        for (const Json& r : member(h, "history", path, &Json::is_array, "an array"))
            w.history.push_back(record<EpochRecord>(r, path));
    if (jsonMember(h, "dataset"))
        w.datasetDir = text(h, "dataset", path);
    if (jsonMember(h, "resume"))
        w.resume = jsonText(member(h, "resume", path, &Json::is_object, "an object"));
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
        if (n) // memcpy from an empty vector's null data() is undefined
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
} catch (const nlohmann::ordered_json::exception& e) {
    throw IoError(path + ": the header cannot be read (" + std::string(e.what()) + "); the file is corrupt");
}

void requireFiniteOutputs(bool finite)
{
    if (!finite)
        throw IoError("the weights give outputs that are not numbers (NaN or infinite): they are far too large, as a "
                      "run that diverged leaves them, or the file is damaged; train again, with a lower learning rate");
}

void requireWeightsFit(const Dataset& d, const WeightsFile& w)
{
    const std::string model = w.spec.name.empty() ? std::string() : " (" + w.spec.name + ")";
    if (w.spec.isText() && !d.isText())
        throw DataError("the weights hold a text model" + model + " and " + d.directory +
                        " holds images: evaluate them on a text");
    if (!w.spec.isText() && d.isText())
        throw DataError("the weights hold an image model" + model + " and " + d.directory +
                        " is a text: evaluate them on a folder of IDX images");
    const Shape input = w.input;
    if (w.spec.isText()) {
        if (input.h != d.train.height)
            throw DataError("the model reads sequences of " + std::to_string(input.h) + " symbols but " + d.directory +
                            " was cut into sequences of " + std::to_string(d.train.height));
        if (d.numClasses != int(w.classNames.size()))
            throw DataError("the model has a vocabulary of " + std::to_string(w.classNames.size()) +
                            " symbols but the vocabulary of " + d.directory + " has " + std::to_string(d.numClasses));
        return;
    }
    if (input.h % d.train.height || input.w % d.train.width || input.h / d.train.height != input.w / d.train.width)
        throw DataError("the model was trained on " + std::to_string(input.h) + "x" + std::to_string(input.w) +
                        " images but " + d.directory + " holds " + std::to_string(d.train.height) + "x" +
                        std::to_string(d.train.width) + " images");
    if (d.numClasses != int(w.classNames.size()))
        throw DataError("the model classifies " + std::to_string(w.classNames.size()) + " classes but " + d.directory +
                        " has " + std::to_string(d.numClasses));
}

Dataset datasetForWeights(Dataset d, const WeightsFile& w)
{
    requireWeightsFit(d, w);
    const Shape input = w.input;
    DatasetOptions options;
    options.sizeMultiplier = input.h / d.train.height;
    return withOptions(std::move(d), options);
}

} // namespace tb
