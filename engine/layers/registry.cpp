// The registered layer kinds. Adding a kind: write its file (docs/adding-a-layer.md) and add its
// one line to TB_LAYER_TYPES below. The order is the order model-file errors list the known types.
#include "layers/layer_type.hpp"

#include "core/errors.hpp"

// X(function): `const LayerType& function()`, defined in the kind's own file.
#define TB_LAYER_TYPES(X)                                                                                              \
    X(conv2dLayerType)                                                                                                 \
    X(batchNormLayerType)                                                                                              \
    X(maxPool2dLayerType)                                                                                              \
    X(dropoutLayerType)                                                                                                \
    X(flattenLayerType)                                                                                                \
    X(reshapeLayerType)                                                                                                \
    X(denseLayerType)                                                                                                  \
    X(activationLayerType)                                                                                             \
    X(reluLayerType)                                                                                                   \
    X(eluLayerType)                                                                                                    \
    X(softmaxLayerType)                                                                                                \
    X(embeddingLayerType)                                                                                              \
    X(lstmLayerType)

namespace tb {

#define TB_DECLARE_LAYER_TYPE(f) const LayerType& f();
TB_LAYER_TYPES(TB_DECLARE_LAYER_TYPE)
#undef TB_DECLARE_LAYER_TYPE

const std::vector<const LayerType*>& layerTypes()
{
#define TB_LIST_LAYER_TYPE(f) &f(),
    static const std::vector<const LayerType*> all = {TB_LAYER_TYPES(TB_LIST_LAYER_TYPE)};
#undef TB_LIST_LAYER_TYPE
    return all;
}

const LayerType* findLayerType(const std::string& kerasClass)
{
    for (const LayerType* t : layerTypes())
        if (kerasClass == t->kerasClass)
            return t;
    return nullptr;
}

void LayerBuild::fail(const std::string& what) const
{
    throw ModelError(where + ": " + what);
}

} // namespace tb
