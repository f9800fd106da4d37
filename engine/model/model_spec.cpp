#include "model/model_spec.hpp"

#include "core/errors.hpp"
#include "io/json_text.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace tb {

namespace {
struct KindInfo {
    const char* type;
    LayerKind kind;
    std::set<std::string> keys; // accepted arguments besides "type" and "name"
};

const std::vector<KindInfo>& kinds()
{
    static const std::vector<KindInfo> k = {
        {"Conv2D", LayerKind::Conv2D, {"filters", "kernel_size", "strides", "padding", "use_bias", "activation"}},
        {"BatchNormalization", LayerKind::BatchNorm, {"center", "scale", "momentum", "epsilon"}},
        {"MaxPooling2D", LayerKind::MaxPool2D, {"pool_size", "strides", "padding"}},
        {"Dropout", LayerKind::Dropout, {"rate"}},
        {"Flatten", LayerKind::Flatten, {}},
        {"Reshape", LayerKind::Reshape, {"target_shape"}},
        {"Dense", LayerKind::Dense, {"units", "use_bias", "activation"}},
        {"Activation", LayerKind::Activation, {"activation"}},
        {"ReLU", LayerKind::Activation, {}},
        {"ELU", LayerKind::Activation, {}},
        {"Softmax", LayerKind::Activation, {}},
        {"Embedding", LayerKind::Embedding, {"input_dim", "output_dim"}},
        {"LSTM", LayerKind::LSTM, {"units", "return_sequences", "stateful"}},
    };
    return k;
}

using Json = nlohmann::ordered_json;

class LayerReader {
public:
    LayerReader(const Json& j, std::string where) : m_j(j), m_where(std::move(where)) {}

    [[noreturn]] void fail(const std::string& what) const { throw ModelError(m_where + ": " + what); }

    const Json* get(const char* key) const { return jsonMember(m_j, key); }

    int positive(const char* key, int def, int max = 1 << 20) const
    {
        const Json* v = get(key);
        if (!v)
            return def;
        if (!v->is_number() || v->get<double>() != std::floor(v->get<double>()))
            fail(std::string("\"") + key + "\" must be a whole number");
        if (v->get<double>() < 1 || v->get<double>() > max)
            fail(std::string("\"") + key + "\" must be between 1 and " + std::to_string(max) + " (got " +
                 // never casts a double beyond int64's range (undefined; found by fuzz_model_json)
                 jsonNumberText(v->get<double>()) + ")");
        return int(v->get<double>());
    }
    // An int or a pair [a, b] as Keras accepts for kernel_size/strides/pool_size.
    void pair(const char* key, int& a, int& b, int def) const
    {
        const Json* v = get(key);
        if (!v) {
            a = b = def;
            return;
        }
        auto one = [&](const Json& x) {
            if (!x.is_number() || x.get<double>() != std::floor(x.get<double>()) || x.get<double>() < 1 ||
                x.get<double>() > 1024)
                fail(std::string("\"") + key + "\" must be a whole number from 1 to 1024 or a pair of them");
            return int(x.get<double>());
        };
        if (v->is_array()) {
            if (v->size() != 2)
                fail(std::string("\"") + key + "\" must have two values (height, width)");
            a = one((*v)[0]);
            b = one((*v)[1]);
        } else {
            a = b = one(*v);
        }
    }
    bool boolean(const char* key, bool def) const
    {
        const Json* v = get(key);
        if (!v)
            return def;
        if (!v->is_boolean())
            fail(std::string("\"") + key + "\" must be true or false");
        return v->get<bool>();
    }
    double number(const char* key, double def, double lo, double hi, bool loOpen, bool hiOpen) const
    {
        const Json* v = get(key);
        if (!v)
            return def;
        if (!v->is_number())
            fail(std::string("\"") + key + "\" must be a number");
        const double d = v->get<double>();
        if ((loOpen ? d <= lo : d < lo) || (hiOpen ? d >= hi : d > hi)) {
            std::ostringstream os;
            os << "\"" << key << "\" must be in " << (loOpen ? "(" : "[") << lo << ", " << hi << (hiOpen ? ")" : "]")
               << " (got " << d << ")";
            fail(os.str());
        }
        return d;
    }
    bool padding() const
    {
        const Json* v = get("padding");
        if (!v)
            return false;
        if (!v->is_string() || (v->get<std::string>() != "same" && v->get<std::string>() != "valid"))
            fail("\"padding\" must be \"same\" or \"valid\"");
        return v->get<std::string>() == "same";
    }
    Activation activation(bool required) const
    {
        const Json* v = get("activation");
        if (!v) {
            if (required)
                fail("needs an \"activation\"");
            return Activation::Linear;
        }
        if (!v->is_string())
            fail("\"activation\" must be a string");
        const std::string& a = v->get<std::string>();
        if (a == "linear" || a == "none")
            return Activation::Linear;
        if (a == "relu")
            return Activation::ReLU;
        if (a == "elu")
            return Activation::ELU;
        if (a == "softmax")
            return Activation::Softmax;
        fail("unknown activation \"" + a + "\" (supported: relu, elu, softmax, linear)");
    }

private:
    const Json& m_j;
    std::string m_where;
};
} // namespace

namespace {
ModelSpec specFrom(const Json& root, const std::string& origin)
{
    if (!root.is_object())
        throw ModelError(origin + ": a model file holds a JSON object with \"layers\"");
    ModelSpec spec;
    spec.json = jsonText(root);
    for (const auto& [key, v] : root.items())
        if (key != "name" && key != "input_scale" && key != "layers" && key != "description" &&
            key != "sequence_length")
            throw ModelError(origin + ": unknown member \"" + key +
                             "\" (expected name, input_scale, sequence_length, layers)");
    if (const Json* n = jsonMember(root, "name")) {
        if (!n->is_string())
            throw ModelError(origin + ": \"name\" must be a string");
        spec.name = n->get<std::string>();
    }
    if (const Json* s = jsonMember(root, "input_scale")) {
        if (!s->is_number() || !(s->get<double>() > 0) || !std::isfinite(s->get<double>()))
            throw ModelError(origin + ": \"input_scale\" must be a positive number");
        spec.inputScale = float(s->get<double>());
    }
    if (const Json* t = jsonMember(root, "sequence_length")) {
        if (!t->is_number() || t->get<double>() != std::floor(t->get<double>()) || t->get<double>() < 1 ||
            t->get<double>() > 100000)
            throw ModelError(origin + ": \"sequence_length\" must be a whole number from 1 to 100000");
        spec.sequenceLength = int(t->get<double>());
    }
    const Json* layers = jsonMember(root, "layers");
    if (!layers || !layers->is_array() || layers->empty())
        throw ModelError(origin + ": \"layers\" must be a non-empty array");

    int index = 0;
    for (const Json& lj : *layers) {
        ++index;
        std::string where = origin + ", layer " + std::to_string(index);
        if (!lj.is_object())
            throw ModelError(where + ": each layer is a JSON object");
        const Json* type = jsonMember(lj, "type");
        if (!type || !type->is_string())
            throw ModelError(where + ": needs a \"type\" such as \"Conv2D\"");
        const KindInfo* info = nullptr;
        for (const KindInfo& k : kinds())
            if (type->get<std::string>() == k.type)
                info = &k;
        if (!info) {
            std::string known;
            for (const KindInfo& k : kinds())
                known += (known.empty() ? "" : ", ") + std::string(k.type);
            throw ModelError(where + ": unknown layer type \"" + type->get<std::string>() + "\" (known: " + known +
                             ")");
        }
        where += " (" + type->get<std::string>() + ")";
        for (const auto& [key, v] : lj.items())
            if (key != "type" && key != "name" && !info->keys.count(key))
                throw ModelError(where + ": unknown argument \"" + key + "\"");
        LayerReader r(lj, where);
        LayerSpec l;
        l.kind = info->kind;
        l.kerasClass = info->type;
        if (const Json* n = jsonMember(lj, "name")) {
            if (!n->is_string() || n->get<std::string>().empty())
                r.fail("\"name\" must be a non-empty string");
            l.name = n->get<std::string>();
        }
        switch (l.kind) {
        case LayerKind::Conv2D:
            if (!jsonMember(lj, "filters"))
                r.fail("needs \"filters\"");
            if (!jsonMember(lj, "kernel_size"))
                r.fail("needs \"kernel_size\"");
            l.filters = r.positive("filters", 0, 65536);
            r.pair("kernel_size", l.kh, l.kw, 1);
            r.pair("strides", l.sh, l.sw, 1);
            l.same = r.padding();
            l.bias = r.boolean("use_bias", true);
            l.activation = r.activation(false);
            break;
        case LayerKind::BatchNorm:
            l.center = r.boolean("center", true);
            l.scale = r.boolean("scale", true);
            l.momentum = float(r.number("momentum", 0.99, 0.0, 1.0, false, true));
            l.epsilon = float(r.number("epsilon", 1e-3, 0.0, 1.0, true, false));
            break;
        case LayerKind::MaxPool2D:
            r.pair("pool_size", l.kh, l.kw, 2);
            if (jsonMember(lj, "strides"))
                r.pair("strides", l.sh, l.sw, 1);
            else {
                l.sh = l.kh;
                l.sw = l.kw;
            }
            l.same = r.padding();
            break;
        case LayerKind::Dropout:
            if (!jsonMember(lj, "rate"))
                r.fail("needs \"rate\"");
            l.rate = float(r.number("rate", 0.0, 0.0, 1.0, false, true));
            break;
        case LayerKind::Flatten:
            break;
        case LayerKind::Reshape: {
            const Json* t = jsonMember(lj, "target_shape");
            if (!t || !t->is_array() || (t->size() != 1 && t->size() != 3))
                r.fail("needs \"target_shape\": [F] or [H, W, C]");
            for (const Json& d : *t) {
                if (!d.is_number() || d.get<double>() < 1 || d.get<double>() != std::floor(d.get<double>()))
                    r.fail("\"target_shape\" values must be positive whole numbers");
                if (d.get<double>() > double(1 << 30)) // before the cast to int (undefined beyond its range)
                    r.fail("\"target_shape\" values must be at most 1073741824");
                l.targetShape.push_back(int(d.get<double>()));
            }
            break;
        }
        case LayerKind::Dense:
            if (!jsonMember(lj, "units"))
                r.fail("needs \"units\"");
            // "classes": the dataset's class count, so the model fits any dataset (the presets).
            if (jsonMember(lj, "units")->is_string()) {
                if (jsonMember(lj, "units")->get<std::string>() != "classes")
                    r.fail("\"units\" must be a whole number or \"classes\"");
                l.unitsFromClasses = true;
            } else {
                l.units = r.positive("units", 0, 1 << 20);
            }
            l.bias = r.boolean("use_bias", true);
            l.activation = r.activation(false);
            break;
        case LayerKind::Embedding:
            if (!jsonMember(lj, "input_dim") || !jsonMember(lj, "output_dim"))
                r.fail("needs \"input_dim\" (the vocabulary size) and \"output_dim\"");
            l.inputDim = r.positive("input_dim", 0, 256);
            l.outputDim = r.positive("output_dim", 0, 65536);
            if (index != 1)
                r.fail("an Embedding must be the first layer (it reads token ids)");
            break;
        case LayerKind::LSTM:
            if (!jsonMember(lj, "units"))
                r.fail("needs \"units\"");
            l.units = r.positive("units", 0, 65536);
            l.returnSequences = r.boolean("return_sequences", false);
            l.stateful = r.boolean("stateful", false);
            break;
        case LayerKind::Activation:
            if (l.kerasClass == "ReLU")
                l.activation = Activation::ReLU;
            else if (l.kerasClass == "ELU")
                l.activation = Activation::ELU;
            else if (l.kerasClass == "Softmax")
                l.activation = Activation::Softmax;
            else
                l.activation = r.activation(true);
            break;
        }
        spec.layers.push_back(std::move(l));
    }
    if (spec.name.empty())
        spec.name = "model";
    return spec;
}
} // namespace

ModelSpec parseModelSpec(const std::string& text, const std::string& origin)
{
    Json root;
    try {
        root = parseJson(text);
    } catch (const Error& e) {
        throw ModelError(origin + ": " + e.what());
    }
    // specFrom checks each value's type before it reads it; should one slip through, nlohmann's
    // exception still becomes a ModelError naming the file.
    try {
        return specFrom(root, origin);
    } catch (const nlohmann::ordered_json::exception& e) {
        throw ModelError(origin + ": the model description cannot be read (" + std::string(e.what()) + ")");
    }
}

ModelSpec loadModelSpec(const std::string& nameOrPath)
{
    const std::string preset = presetJson(nameOrPath);
    if (!preset.empty())
        return parseModelSpec(preset, "preset " + nameOrPath);
    std::ifstream in(nameOrPath, std::ios::binary);
    if (!in) {
        std::string known;
        for (const auto& n : presetNames())
            known += (known.empty() ? "" : ", ") + n;
        throw ModelError("\"" + nameOrPath + "\" is neither a preset (" + known + ") nor a readable model file");
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseModelSpec(ss.str(), nameOrPath);
}

} // namespace tb
