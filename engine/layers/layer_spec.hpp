// One layer of a model description as read from its JSON (model/model_spec.hpp): the registered
// kind it is, and its arguments. The fields are the arguments the built-in kinds share; a kind
// whose arguments have no field here keeps them in `extra` under their Keras names (its own parse
// writes them, its own build reads them), so a new kind adds nothing to this file.
#pragma once

#include "kernels/activation_kind.hpp"

#include <map>
#include <string>
#include <vector>

namespace tb {

struct LayerType;

struct LayerSpec {
    const LayerType* type = nullptr; // the registered kind (layers/layer_type.hpp)
    std::string kerasClass;          // as written: "Conv2D", "ReLU", "ELU", "Activation", ...
    std::string name;                // optional user-given name; Keras-style default otherwise
    int filters = 0, units = 0;
    bool unitsFromClasses = false; // Dense "units": "classes": as many as the dataset has classes
    int denseUnits(int classes) const { return unitsFromClasses ? classes : units; }
    int kh = 0, kw = 0, sh = 0, sw = 0; // kernel/pool and strides (0: the default)
    bool same = false;
    bool bias = true;
    Activation activation = Activation::Linear;
    float rate = 0.0f;
    bool center = true, scale = true;
    float momentum = 0.99f, epsilon = 1e-3f;
    std::vector<int> targetShape;
    std::map<std::string, double> extra; // a kind's own numeric/boolean arguments (booleans as 0/1)
};

} // namespace tb
