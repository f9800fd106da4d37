#include "io/torch_layout.hpp"

#include "layers/layer_type.hpp"

namespace tb {

std::vector<TorchTensor> torchLayout(const Network& net)
{
    std::vector<TorchTensor> out;
    int module = 0;
    // For flat activations after a Flatten: perm[t] is the Keras feature at PyTorch's position t.
    std::vector<int64_t> perm;
    const bool text = net.inputShape().tokens;
    std::vector<const Layer*> before;
    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string where = layer.name() + " (" + ls.kerasClass + ")";
        auto addNamed = [&](const std::string& name, std::vector<int64_t> shape, TorchTensor::Source source,
                            std::vector<int64_t> index) {
            TorchTensor tensor;
            tensor.name = name;
            tensor.layer = where;
            tensor.shape = std::move(shape);
            tensor.source = source;
            tensor.index = std::move(index);
            out.push_back(std::move(tensor));
        };
        TorchLayer t{layer, ls, net.paramOffset(i), net.stateOffset(i), module, perm, {}, text, addNamed, before};
        t.add = [&](const std::string& param, std::vector<int64_t> shape, TorchTensor::Source source,
                    std::vector<int64_t> index) {
            if (text)
                t.refuseText("not part of the text layout");
            addNamed(std::to_string(module) + "." + param, std::move(shape), source, std::move(index));
        };
        ls.type->torch(t);
        before.push_back(&layer);
    }
    return out;
}

} // namespace tb
