#include "io/safetensors.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "io/export_metadata.hpp"
#include "io/torch_layout.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

// Hugging Face's reader refuses headers over 100 MB; a Trainbench model's is a few kB.
constexpr uint64_t kMaxHeader = 100ull << 20;

struct Entry {
    std::string name;
    std::string dtype;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0; // in the data section
};

int dtypeSize(const std::string& d)
{
    static const std::map<std::string, int> sizes = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
        {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4},     {"F64", 8},     {"I64", 8}, {"U64", 8}};
    const auto it = sizes.find(d);
    return it == sizes.end() ? 0 : it->second;
}

std::string shapeText(const std::vector<int64_t>& s)
{
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i)
        t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

// A whole number in [0, max], or fail.
template <typename Fail> uint64_t wholeNumber(const Json& v, uint64_t max, Fail fail)
{
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() != std::floor(v.get<double>()) ||
        v.get<double>() > double(max))
        fail();
    return uint64_t(v.get<double>());
}

struct Parsed {
    std::vector<Entry> entries;
    std::map<std::string, std::string> metadata;
    const char* data = nullptr; // the data section
};

// Checks the header against the bytes really present; allocates nothing from a size it has not
// checked against the file.
Parsed parseHeader(const std::string& s, const std::string& origin)
{
    if (s.size() < 8)
        throw IoError(origin + ": not a safetensors file (" + std::to_string(s.size()) +
                      " bytes, shorter than the 8-byte header length)");
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= uint64_t(uint8_t(s[size_t(i)])) << (8 * i);
    if (n > s.size() - 8)
        throw IoError(origin + ": the header length (" + std::to_string(n) + " bytes) is larger than the file (" +
                      std::to_string(s.size()) + " bytes); the file is truncated or not a safetensors file");
    if (n > kMaxHeader)
        throw IoError(origin + ": the header length (" + std::to_string(n) + " bytes) is over the 100 MB limit");
    Json h;
    try {
        h = parseJson(s.substr(8, size_t(n)));
    } catch (const Error& e) {
        throw IoError(origin + ": the safetensors header is not valid JSON: " + e.what());
    }
    if (!h.is_object())
        throw IoError(origin + ": the safetensors header is not a JSON object");
    Parsed p;
    p.data = s.data() + 8 + n;
    const uint64_t dataSize = s.size() - 8 - n;
    for (const auto& [name, v] : h.items()) {
        if (name == "__metadata__") {
            if (!v.is_object())
                throw IoError(origin + ": \"__metadata__\" must map strings to strings");
            for (const auto& [key, value] : v.items()) {
                if (!value.is_string())
                    throw IoError(origin + ": metadata \"" + key + "\" is not a string");
                p.metadata[key] = value.get<std::string>();
            }
            continue;
        }
        const std::string what = origin + ": tensor \"" + name + "\"";
        if (!v.is_object())
            throw IoError(what + " is not described by a JSON object");
        Entry e;
        e.name = name;
        const Json* dtype = jsonMember(v, "dtype");
        const Json* shape = jsonMember(v, "shape");
        const Json* offsets = jsonMember(v, "data_offsets");
        if (!dtype || !dtype->is_string() || !dtypeSize(dtype->get<std::string>()))
            throw IoError(what + " has no known \"dtype\" (" + (dtype ? jsonText(*dtype) : std::string("none")) + ")");
        e.dtype = dtype->get<std::string>();
        if (!shape || !shape->is_array() || shape->size() > 8)
            throw IoError(what + " has no \"shape\" (an array of at most 8 sizes)");
        // numel * dtype size must equal the byte range, which lies inside the file: checking each
        // factor against the data size keeps the product from overflowing.
        uint64_t numel = 1;
        for (const Json& d : *shape) {
            const uint64_t dim = wholeNumber(d, dataSize + 1, [&] {
                throw IoError(what + ": the shape " + jsonText(*shape) + " is not a list of sizes the file can hold");
            });
            e.shape.push_back(int64_t(dim));
            numel = dim == 0 || numel == 0 ? 0 : numel * dim;
            if (numel > dataSize)
                throw IoError(what + ": the shape " + jsonText(*shape) + " needs more bytes than the file holds");
        }
        if (!offsets || !offsets->is_array() || offsets->size() != 2)
            throw IoError(what + " has no \"data_offsets\" [begin, end]");
        auto badOffsets = [&] {
            throw IoError(what + ": its data_offsets " + jsonText(*offsets) + " lie outside the " +
                          std::to_string(dataSize) + " bytes of tensor data");
        };
        e.begin = wholeNumber((*offsets)[0], dataSize, badOffsets);
        e.end = wholeNumber((*offsets)[1], dataSize, badOffsets);
        if (e.begin > e.end)
            badOffsets();
        const uint64_t bytes = numel * uint64_t(dtypeSize(e.dtype));
        if (bytes != e.end - e.begin)
            throw IoError(what + ": " + e.dtype + " " + shapeText(e.shape) + " needs " + std::to_string(bytes) +
                          " bytes but its data_offsets span " + std::to_string(e.end - e.begin));
        p.entries.push_back(std::move(e));
    }
    // The tensors must tile the data section: no overlaps, no holes (as Hugging Face's reader checks).
    std::vector<const Entry*> byOffset;
    for (const Entry& e : p.entries)
        byOffset.push_back(&e);
    std::stable_sort(byOffset.begin(), byOffset.end(), [](const Entry* a, const Entry* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    uint64_t covered = 0;
    const Entry* previous = nullptr;
    for (const Entry* e : byOffset) {
        if (e->begin < covered)
            throw IoError(origin + ": tensors \"" + previous->name + "\" and \"" + e->name + "\" overlap (bytes " +
                          std::to_string(e->begin) + " to " + std::to_string(covered) + ")");
        if (e->begin > covered)
            throw IoError(origin + ": bytes " + std::to_string(covered) + " to " + std::to_string(e->begin) +
                          " of the tensor data belong to no tensor (before \"" + e->name + "\")");
        covered = e->end;
        previous = e;
    }
    if (covered != dataSize)
        throw IoError(origin + ": the file has " + std::to_string(dataSize - covered) +
                      " bytes after its last tensor's data");
    return p;
}

Json parseMetadataJson(const std::map<std::string, std::string>& m, const char* key, const std::string& origin)
{
    const auto it = m.find(key);
    if (it == m.end())
        throw IoError(origin + ": the Trainbench metadata lacks \"" + key + "\"");
    try {
        return parseJson(it->second);
    } catch (const Error& e) {
        throw IoError(origin + ": metadata \"" + key + "\" is not valid JSON: " + e.what());
    }
}

// The float32 values a model's weights take (trainable and not), walking its shapes as Network
// does, without allocating them: the file must hold at least this many. Stops at a shape that does
// not fit (the Network then says what is wrong).
uint64_t modelFloats(const ModelSpec& spec, Shape s, int classes)
{
    uint64_t n = 0;
    for (const LayerSpec& l : spec.layers) {
        n += l.type->weightFloats(l, s, classes);
        if (s.size() <= 0 || n > (uint64_t(1) << 62))
            break;
    }
    return n;
}

float readF32(const char* p)
{
    float v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

std::string safetensorsBytes(const Network& net, const std::vector<std::string>& classNames)
{
    const std::vector<TorchTensor> layout = torchLayout(net);
    Json header;
    Json meta;
    meta["format"] = "pt";
    for (const auto& [key, value] : exportMetadata(net, classNames))
        meta[key] = value;
    header["__metadata__"] = meta;
    std::string data;
    for (const TorchTensor& t : layout) {
        const uint64_t begin = data.size();
        const bool counter = t.source == TorchTensor::Source::Counter;
        if (counter) {
            data.append(8, '\0'); // num_batches_tracked = 0
        } else {
            const float* buffer = t.source == TorchTensor::Source::State ? net.state().data() : net.params().data();
            for (int64_t k = 0; k < t.numel(); ++k) {
                float v = t.source == TorchTensor::Source::Ones ? 1.0f : 0.0f;
                if (t.source == TorchTensor::Source::Params || t.source == TorchTensor::Source::State)
                    v = buffer[t.index[size_t(k)]];
                data.append(reinterpret_cast<const char*>(&v), 4);
            }
        }
        Json e;
        e["dtype"] = counter ? "I64" : "F32";
        e["shape"] = t.shape;
        e["data_offsets"] = {uint64_t(begin), uint64_t(data.size())};
        header[t.name] = e;
    }
    std::string h = jsonText(header);
    h.append((8 - h.size() % 8) % 8, ' '); // the data starts 8-byte aligned, as Hugging Face's writer does
    std::string out;
    out.reserve(8 + h.size() + data.size());
    for (int i = 0; i < 8; ++i)
        out += char((uint64_t(h.size()) >> (8 * i)) & 0xff);
    out += h;
    out += data;
    return out;
}

void exportSafetensors(const std::string& path, const WeightsFile& w)
{
    const Network net = w.buildNetwork();
    writeFileAtomically(path, safetensorsBytes(net, w.classNames));
}

// A function try block: the header's values are type-checked before they are read, and should one
// slip through, nlohmann's exception still becomes an IoError naming the file.
WeightsFile parseSafetensors(const std::string& bytes, const std::string& origin, const ModelHint* hint)
try {
    const Parsed file = parseHeader(bytes, origin);
    WeightsFile w;
    const bool hasModel = file.metadata.count("model") != 0;
    w.describesModel = hasModel;
    if (hasModel) {
        w.spec = parseModelSpec(file.metadata.at("model"), origin + " (its model description)");
    } else if (hint && hint->spec) {
        w.spec = *hint->spec;
    } else {
        throw ModelError(origin + " holds no Trainbench model description (written by another program?): " +
                         "say which model its tensors belong to (--model NAME|FILE; in the window, the model chosen in "
                         "Setup)");
    }
    if (hasModel) {
        const Json in = parseMetadataJson(file.metadata, "input_shape", origin);
        const Json names = parseMetadataJson(file.metadata, "class_names", origin);
        if (!in.is_array() || in.size() != 3)
            throw IoError(origin + ": metadata \"input_shape\" is not [H, W, C]");
        int dims[3];
        for (int i = 0; i < 3; ++i)
            dims[i] = int(wholeNumber(in[size_t(i)], 1 << 16, [&] {
                throw IoError(origin + ": metadata \"input_shape\" holds an impossible size");
            }));
        w.input = w.spec.isText() ? Shape::tokenIds(dims[0]) : Shape::image(dims[0], dims[1], dims[2]);
        if (!names.is_array())
            throw IoError(origin + ": metadata \"class_names\" is not an array");
        for (const Json& n : names) {
            if (!n.is_string())
                throw IoError(origin + ": metadata \"class_names\" holds a non-string");
            w.classNames.push_back(n.get<std::string>());
        }
    } else if (const Dataset* data = hint->dataset ? hint->dataset() : nullptr) {
        w.input = inputShapeOf(*data);
        w.classNames = data->classNames;
    } else {
        w.input = hint->input;
        w.classNames = hint->classNames;
    }

    // A model described by the file itself is not built (allocated) when the file could not hold
    // its weights: what it allocates stays within a small multiple of the file's size. (A smaller
    // shortfall is left to the per-tensor checks below, whose messages name the tensor.)
    const uint64_t dataSize = bytes.size() - uint64_t(file.data - bytes.data());
    const uint64_t needed = hasModel ? modelFloats(w.spec, w.input, int(w.classNames.size())) * 4 : 0;
    if (needed > 2 * dataSize + (64 << 10))
        throw ModelError(origin + ": its model description (" + w.spec.name + ") needs at least " +
                         std::to_string(needed) + " bytes of weights but the file holds " + std::to_string(dataSize) +
                         "; the file is corrupt");
    Network net(w.spec, w.input, int(w.classNames.size()));
    const std::vector<TorchTensor> layout = torchLayout(net);
    std::map<std::string, const Entry*> byName;
    for (const Entry& e : file.entries)
        byName[e.name] = &e;
    std::map<std::string, const TorchTensor*> expected;
    for (const TorchTensor& t : layout)
        expected[t.name] = &t;
    std::vector<float>& params = net.params();
    std::vector<float>& state = net.state();
    for (const TorchTensor& t : layout) {
        const std::string what = origin + ": tensor \"" + t.name + "\" of " + t.layer;
        const auto it = byName.find(t.name);
        if (it == byName.end()) {
            if (t.source == TorchTensor::Source::Counter)
                continue; // PyTorch's bookkeeping, not a weight
            throw ModelError(origin + ": the file lacks tensor \"" + t.name + "\" (" + shapeText(t.shape) + ", " +
                             t.layer + " of " + w.spec.name + "); is the file of another model?");
        }
        const Entry& e = *it->second;
        const bool counter = t.source == TorchTensor::Source::Counter;
        if (e.dtype != (counter ? "I64" : "F32"))
            throw ModelError(what + " is " + e.dtype + " but must be " + (counter ? "I64" : "F32"));
        if (counter)
            continue;
        if (e.shape != t.shape) {
            // A text model of another program takes its vocabulary from the text: a file of another
            // size of vocabulary was trained on other symbols (characters, where the text read here
            // gives bytes), which is what to say, not that the file is of another model.
            const int64_t symbols = int64_t(w.classNames.size());
            if (!hasModel && w.spec.isText() && t.layer == layout.back().layer && !e.shape.empty() &&
                e.shape.size() == t.shape.size() && t.shape[0] == symbols && e.shape[0] != symbols &&
                std::equal(e.shape.begin() + 1, e.shape.end(), t.shape.begin() + 1))
                throw ModelError(
                    symbols == 256
                        ? origin + ": its model has " + std::to_string(e.shape[0]) + " symbols (tensor \"" + t.name +
                              "\" is " + shapeText(e.shape) +
                              "), and the text read as bytes gives 256: a character-level model needs the "
                              "vocabulary of characters (--vocabulary characters; in the window, Vocabulary in "
                              "Setup) and the text it learned from"
                        : origin + ": its model has " + std::to_string(e.shape[0]) + " symbols (tensor \"" + t.name +
                              "\" is " + shapeText(e.shape) + "), and the characters of the text give " +
                              std::to_string(symbols) +
                              ": it learned from another text, or from bytes (--vocabulary bytes)");
            throw ModelError(what + " has shape " + shapeText(e.shape) + " but the model needs " + shapeText(t.shape) +
                             "; is the file of another model?");
        }
        const char* src = file.data + e.begin;
        for (int64_t k = 0; k < t.numel(); ++k) {
            const float v = readF32(src + 4 * k);
            if (!std::isfinite(v))
                throw IoError(what + " holds a NaN or infinite value at index " + std::to_string(k) +
                              ": a diverged run's weights, or the file is damaged"); // as a .tbw's (exit code 5)
            switch (t.source) {
            case TorchTensor::Source::Params:
                params[size_t(t.index[size_t(k)])] = v;
                break;
            case TorchTensor::Source::State:
                state[size_t(t.index[size_t(k)])] = v;
                break;
            case TorchTensor::Source::AddedToParams:
                params[size_t(t.index[size_t(k)])] += v;
                break;
            case TorchTensor::Source::Ones:
            case TorchTensor::Source::Zeros: {
                const float want = t.source == TorchTensor::Source::Ones ? 1.0f : 0.0f;
                if (v != want)
                    throw ModelError(what + " must be all " + (want == 1.0f ? "ones" : "zeros") + " (the layer has " +
                                     (want == 1.0f ? "no scale" : "no center") + ") but holds " + std::to_string(v) +
                                     " at index " + std::to_string(k));
                break;
            }
            case TorchTensor::Source::Counter:
                break;
            }
        }
    }
    // Checked after the model's own tensors, whose errors say more about a file of another model.
    for (const Entry& e : file.entries)
        if (!expected.count(e.name))
            throw ModelError(origin + ": tensor \"" + e.name + "\" (" + e.dtype + " " + shapeText(e.shape) +
                             ") has no place in " + w.spec.name + "; is the file of another model?");

    w.params = net.params();
    w.state = net.state();
    // The metadata is not a checksum (formats.md): a file edited in another program may keep it. Its
    // weights differing from it is said, not refused; a .tbw's checksum refuses a damaged file.
    if (const auto recorded = file.metadata.find("weights_sha256"); recorded != file.metadata.end())
        if (const std::string sha = net.weightsSha256(); recorded->second != sha)
            w.notice = origin + "'s weights differ from the SHA-256 its metadata records (" +
                       recorded->second.substr(0, 16) + "…, the weights " + sha.substr(0, 16) +
                       "…): the file was changed after Trainbench wrote it, by an edit or damage";
    return w;
} catch (const nlohmann::ordered_json::exception& e) {
    throw IoError(origin + ": the safetensors header cannot be read (" + std::string(e.what()) + ")");
}

WeightsFile loadSafetensors(const std::string& path, const ModelHint* hint)
{
    return parseSafetensors(readWholeFile(path), path, hint);
}

} // namespace tb
