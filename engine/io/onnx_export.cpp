#include "io/onnx_export.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "io/export_metadata.hpp"
#include "io/protobuf_writer.hpp"
#include "layers/export_hooks.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>

namespace tb {

namespace {
// Field numbers from onnx.proto.
namespace model {
constexpr int irVersion = 1, producerName = 2, producerVersion = 3, docString = 6, graph = 7, opsetImport = 8,
              metadataProps = 14;
}
namespace graphf {
constexpr int node = 1, name = 2, initializer = 5, docString = 10, input = 11, output = 12;
}
namespace nodef {
constexpr int input = 1, output = 2, name = 3, opType = 4, attribute = 5;
}
namespace attrf {
constexpr int name = 1, f = 2, i = 3, ints = 8, type = 20;
constexpr int typeFloat = 1, typeInt = 2, typeInts = 7;
} // namespace attrf
namespace tensorf {
constexpr int dims = 1, dataType = 2, name = 8, rawData = 9;
}
constexpr int kFloat = 1, kUint8 = 2, kInt64 = 7; // TensorProto.DataType
constexpr int64_t kIrVersion = 7, kOpset = 13;

ProtoWriter attrProto(const OnnxAttr& a)
{
    ProtoWriter p;
    p.string(attrf::name, a.name);
    switch (a.type) {
    case OnnxAttr::Type::Int:
        p.int64(attrf::type, attrf::typeInt);
        p.int64(attrf::i, a.i);
        break;
    case OnnxAttr::Type::Float:
        p.int64(attrf::type, attrf::typeFloat);
        p.float32(attrf::f, a.f);
        break;
    case OnnxAttr::Type::Ints:
        p.int64(attrf::type, attrf::typeInts);
        for (int64_t x : a.ints)
            p.int64(attrf::ints, x);
        break;
    }
    return p;
}

OnnxAttr attrInt(const char* name, int64_t v)
{
    return OnnxAttr::integer(name, v);
}
OnnxAttr attrFloat(const char* name, float v)
{
    return OnnxAttr::real(name, v);
}
OnnxAttr attrInts(const char* name, const std::vector<int64_t>& v)
{
    return OnnxAttr::list(name, v);
}

// A dimension: a size, or the symbolic batch size when -1 (the number of steps when -2).
ProtoWriter valueInfo(const std::string& name, int elemType, const std::vector<int64_t>& dims)
{
    ProtoWriter shape;
    for (int64_t d : dims) {
        ProtoWriter dim;
        if (d < 0)
            dim.string(2, d == -2 ? "steps" : "batch"); // dim_param
        else
            dim.int64(1, d); // dim_value
        shape.message(1, dim);
    }
    ProtoWriter tensorType;
    tensorType.int64(1, elemType);
    tensorType.message(2, shape);
    ProtoWriter type;
    type.message(1, tensorType);
    ProtoWriter info;
    info.string(1, name);
    info.message(2, type);
    return info;
}

class GraphBuilder : public OnnxGraph {
public:
    void node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
              const std::vector<std::string>& outputs, const std::vector<OnnxAttr>& attrs = {}) override
    {
        ProtoWriter n;
        for (const auto& i : inputs)
            n.string(nodef::input, i);
        for (const auto& o : outputs)
            n.string(nodef::output, o);
        n.string(nodef::name, name);
        n.string(nodef::opType, op);
        for (const OnnxAttr& a : attrs)
            n.message(nodef::attribute, attrProto(a));
        m_graph.message(graphf::node, n);
    }
    void floats(const std::string& name, const std::vector<int64_t>& dims, const float* v, int64_t count) override
    {
        ProtoWriter t;
        for (int64_t d : dims)
            t.int64(tensorf::dims, d);
        t.int64(tensorf::dataType, kFloat);
        t.string(tensorf::name, name);
        t.string(tensorf::rawData, std::string_view(reinterpret_cast<const char*>(v), size_t(count) * sizeof(float)));
        m_graph.message(graphf::initializer, t);
    }
    void int64s(const std::string& name, const std::vector<int64_t>& v) override
    {
        ProtoWriter t;
        t.int64(tensorf::dims, int64_t(v.size()));
        t.int64(tensorf::dataType, kInt64);
        t.string(tensorf::name, name);
        t.string(tensorf::rawData, std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 8));
        m_graph.message(graphf::initializer, t);
    }
    ProtoWriter& graph() { return m_graph; }

private:
    ProtoWriter m_graph;
};

const char* activationOp(Activation a)
{
    switch (a) {
    case Activation::ReLU:
        return "Relu";
    case Activation::ELU:
        return "Elu";
    default:
        return nullptr;
    }
}
} // namespace

std::string onnxModel(const Network& net, const std::vector<std::string>& classNames)
{
    GraphBuilder g;
    const Shape in = net.inputShape();
    const int classes = net.numClasses();

    std::string cur;
    std::string inputDoc;
    if (in.tokens) {
        // Token ids (batch, steps) in: the first layer (an Embedding) gathers from them.
        cur = "tokens";
        inputDoc = "Input: token ids (int64, batch x steps) of the model's vocabulary (class_names: each symbol's "
                   "bytes in hex); outputs at every step.";
    } else {
        // The stored image in, as floats in (batch, C, H, W).
        cur = "image";
        inputDoc = "Input: the images as stored (uint8), the input scale applied inside the graph.";
        g.node("Cast", "cast_image", {cur}, {"image_float"}, {attrInt("to", kFloat)});
        cur = "image_float";
        if (net.inputScale() != 1.0f) {
            const float scale = net.inputScale();
            g.floats("input_scale", {}, &scale, 1);
            g.node("Mul", "scale_image", {cur, "input_scale"}, {"image_scaled"});
            cur = "image_scaled";
        }
        if (in.c == 1) {
            g.int64s("channel_axis", {1});
            g.node("Unsqueeze", "add_channel_axis", {cur, "channel_axis"}, {"input_nchw"});
        } else {
            g.node("Transpose", "to_nchw", {cur}, {"input_nchw"}, {attrInts("perm", {0, 3, 1, 2})});
        }
        cur = "input_nchw";
    }
    bool spatial = !in.tokens; // cur is (batch, C, H, W); otherwise (batch, F) in Keras' order, or a sequence
    bool timeMajor = false;    // a sequence as (steps, batch, F)

    auto activation = [&](Activation a, const std::string& name) {
        if (const char* op = activationOp(a)) {
            std::vector<OnnxAttr> attrs;
            if (a == Activation::ELU)
                attrs.push_back(attrFloat("alpha", 1.0f));
            g.node(op, name + "/" + activationName(a), {cur}, {name + "/" + activationName(a)}, attrs);
            cur = name + "/" + activationName(a);
        }
    };
    bool softmaxDone = false;
    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string& name = layer.name();
        OnnxLayer o{
            g,   layer,   ls,       net.params().data() + net.paramOffset(i), net.state().data() + net.stateOffset(i),
            cur, spatial, timeMajor};
        ls.type->onnx(o);
        const Activation act = o.activation;
        if (act == Activation::Softmax) {
            // The network checked that this is the last layer.
            o.batchMajor();
            cur = o.cur;
            g.node("Identity", "logits", {cur}, {"logits"});
            g.node("Softmax", name + "/softmax", {"logits"}, {"probabilities"}, {attrInt("axis", -1)});
            softmaxDone = true;
        } else {
            cur = o.cur;
            activation(act, name);
        }
        spatial = o.spatial;
        timeMajor = o.timeMajor;
    }
    if (!softmaxDone)
        throw ModelError("the model does not end with a softmax; it cannot be exported to ONNX");
    // Over the last axis: the classes of each sample, or of each step of a sequence.
    g.node("ArgMax", "class", {"probabilities"}, {"class"},
           {attrInt("axis", in.tokens ? -1 : 1), attrInt("keepdims", 0)});

    ProtoWriter& graph = g.graph();
    if (in.tokens)
        graph.message(graphf::input, valueInfo("tokens", kInt64, {-1, -2}));
    else
        graph.message(graphf::input, valueInfo("image", kUint8,
                                               in.c == 1 ? std::vector<int64_t>{-1, in.h, in.w}
                                                         : std::vector<int64_t>{-1, in.h, in.w, in.c}));
    const bool sequence = net.layer(net.layerCount() - 1).outShape().sequence; // outputs at every step
    const std::vector<int64_t> out =
        sequence ? std::vector<int64_t>{-1, -2, classes} : std::vector<int64_t>{-1, classes};
    graph.message(graphf::output, valueInfo("logits", kFloat, out));
    graph.message(graphf::output, valueInfo("probabilities", kFloat, out));
    graph.message(graphf::output,
                  valueInfo("class", kInt64, sequence ? std::vector<int64_t>{-1, -2} : std::vector<int64_t>{-1}));
    graph.string(graphf::name, net.spec().name);
    graph.string(graphf::docString,
                 "Trainbench " + std::string(trainbenchVersion()) + ": " + net.spec().name + ". " + inputDoc);

    ProtoWriter m;
    m.int64(model::irVersion, kIrVersion);
    m.string(model::producerName, "Trainbench");
    m.string(model::producerVersion, trainbenchVersion());
    m.string(model::docString, "Inference graph of the Trainbench model " + net.spec().name);
    {
        ProtoWriter opset;
        opset.string(1, "");
        opset.int64(2, kOpset);
        m.message(model::opsetImport, opset);
    }
    m.message(model::graph, graph);
    for (const auto& [key, value] : exportMetadata(net, classNames)) {
        ProtoWriter e;
        e.string(1, key);
        e.string(2, value);
        m.message(model::metadataProps, e);
    }
    return m.bytes();
}

void exportOnnx(const std::string& path, const WeightsFile& w)
{
    const Network net = w.buildNetwork();
    writeFileAtomically(path, onnxModel(net, w.classNames));
}

} // namespace tb
