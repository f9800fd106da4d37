// Reading one layer's Keras-style JSON arguments, with messages that name the layer:
// "model.json, layer 3 (Conv2D): \"filters\" must be a whole number". A kind's parse function
// (layers/layer_type.hpp) reads its arguments through this.
#pragma once

#include "kernels/activation_kind.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tb {

class LayerArgs {
public:
    using Json = nlohmann::ordered_json;
    LayerArgs(const Json& layer, std::string where) : m_j(layer), m_where(std::move(where)) {}

    // Throws a ModelError "<where>: <what>".
    [[noreturn]] void fail(const std::string& what) const;
    // The argument, or null when the layer does not give it.
    const Json* get(const char* key) const;
    bool has(const char* key) const { return get(key) != nullptr; }
    void require(const char* key) const; // fails "needs \"key\"" when absent

    // A whole number from 1 to max.
    int positive(const char* key, int def, int max = 1 << 20) const;
    // An int or a pair [a, b] as Keras accepts for kernel_size/strides/pool_size (1 to 1024).
    void pair(const char* key, int& a, int& b, int def) const;
    bool boolean(const char* key, bool def) const;
    // A number in [lo, hi], either end open.
    double number(const char* key, double def, double lo, double hi, bool loOpen, bool hiOpen) const;
    // "padding": "same" (true) or "valid" (false, the default).
    bool padding() const;
    // "activation": relu, elu, softmax, linear (or none).
    Activation activation(bool required) const;

private:
    const Json& m_j;
    std::string m_where;
};

} // namespace tb
