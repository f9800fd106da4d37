#include "layers/layer_args.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <sstream>

namespace tb {

namespace {
// A number as JSON writes it; never casts a double beyond int64's range (undefined; found by
// fuzz_model_json).
std::string numberText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(int64_t(v));
    return nlohmann::ordered_json(v).dump();
}
} // namespace

void LayerArgs::fail(const std::string& what) const
{
    throw ModelError(m_where + ": " + what);
}

const LayerArgs::Json* LayerArgs::get(const char* key) const
{
    if (!m_j.is_object())
        return nullptr;
    const auto it = m_j.find(key);
    return it == m_j.end() ? nullptr : &*it;
}

void LayerArgs::require(const char* key) const
{
    if (!has(key))
        fail(std::string("needs \"") + key + "\"");
}

int LayerArgs::positive(const char* key, int def, int max) const
{
    const Json* v = get(key);
    if (!v)
        return def;
    if (!v->is_number() || v->get<double>() != std::floor(v->get<double>()))
        fail(std::string("\"") + key + "\" must be a whole number");
    if (v->get<double>() < 1 || v->get<double>() > max)
        fail(std::string("\"") + key + "\" must be between 1 and " + std::to_string(max) + " (got " +
             numberText(v->get<double>()) + ")");
    return int(v->get<double>());
}

void LayerArgs::pair(const char* key, int& a, int& b, int def) const
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

bool LayerArgs::boolean(const char* key, bool def) const
{
    const Json* v = get(key);
    if (!v)
        return def;
    if (!v->is_boolean())
        fail(std::string("\"") + key + "\" must be true or false");
    return v->get<bool>();
}

double LayerArgs::number(const char* key, double def, double lo, double hi, bool loOpen, bool hiOpen) const
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

bool LayerArgs::padding() const
{
    const Json* v = get("padding");
    if (!v)
        return false;
    if (!v->is_string() || (v->get<std::string>() != "same" && v->get<std::string>() != "valid"))
        fail("\"padding\" must be \"same\" or \"valid\"");
    return v->get<std::string>() == "same";
}

Activation LayerArgs::activation(bool required) const
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

} // namespace tb
