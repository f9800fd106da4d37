#include "model/model_spec.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <cmath>
#include <fstream>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;
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
        // Pixels of 0 to 255 times the scale, in single precision: 1e40 would make every input infinite.
        if (!s->is_number() || !(s->get<double>() >= 1e-30) || !(s->get<double>() <= 1e30))
            throw ModelError(origin + ": \"input_scale\" must be a number between 1e-30 and 1e30");
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
        const LayerType* info = findLayerType(type->get<std::string>());
        if (!info) {
            std::string known;
            for (const LayerType* k : layerTypes())
                known += (known.empty() ? "" : ", ") + std::string(k->kerasClass);
            throw ModelError(where + ": unknown layer type \"" + type->get<std::string>() + "\" (known: " + known +
                             ")");
        }
        where += " (" + type->get<std::string>() + ")";
        for (const auto& [key, v] : lj.items())
            if (key != "type" && key != "name" && !info->keys.count(key))
                throw ModelError(where + ": unknown argument \"" + key + "\"");
        LayerArgs r(lj, where);
        LayerSpec l;
        l.type = info;
        l.kerasClass = info->kerasClass;
        if (const Json* n = jsonMember(lj, "name")) {
            if (!n->is_string() || n->get<std::string>().empty())
                r.fail("\"name\" must be a non-empty string");
            l.name = n->get<std::string>();
        }
        info->parse(r, l);
        spec.layers.push_back(std::move(l));
    }
    if (spec.name.empty())
        spec.name = "model";
    return spec;
}
} // namespace

bool ModelSpec::isText() const
{
    return !layers.empty() && layers.front().type->readsTokens;
}

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
        ModelSpec spec = specFrom(root, origin);
        spec.origin = origin;
        return spec;
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
    // A folder (which opens, and reads as nothing), a FIFO or a huge file is refused by name.
    const std::string text = readWholeFile(nameOrPath);
    // Weights given for a model said "JSON error at line 1, column 1: invalid literal".
    if (text.compare(0, 8, "TBWGHT01") == 0)
        throw ModelError(nameOrPath +
                         " is a Trainbench weights file, not a model description: --model takes a preset "
                         "or a model's JSON file (a command that reads weights takes them with --weights)");
    if (text.find('\0') < 64)
        throw ModelError(nameOrPath + " is binary (weights, an export?), not a model description: --model takes a "
                                      "preset or a model's JSON file");
    return parseModelSpec(text, nameOrPath);
}

} // namespace tb
