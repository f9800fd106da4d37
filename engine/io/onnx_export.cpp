#include "io/onnx_export.hpp"

#include "core/errors.hpp"
#include "io/atomic_file.hpp"
#include "io/export_metadata.hpp"
#include "io/protobuf_writer.hpp"
#include "layers/conv2d.hpp"

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

struct Attr {
    ProtoWriter p;
};

Attr attrInt(const char* name, int64_t v)
{
    Attr a;
    a.p.string(attrf::name, name);
    a.p.int64(attrf::type, attrf::typeInt);
    a.p.int64(attrf::i, v);
    return a;
}

Attr attrFloat(const char* name, float v)
{
    Attr a;
    a.p.string(attrf::name, name);
    a.p.int64(attrf::type, attrf::typeFloat);
    a.p.float32(attrf::f, v);
    return a;
}

Attr attrInts(const char* name, const std::vector<int64_t>& v)
{
    Attr a;
    a.p.string(attrf::name, name);
    a.p.int64(attrf::type, attrf::typeInts);
    for (int64_t x : v)
        a.p.int64(attrf::ints, x);
    return a;
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

class GraphBuilder {
public:
    void node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
              const std::vector<std::string>& outputs, const std::vector<Attr>& attrs = {})
    {
        ProtoWriter n;
        for (const auto& i : inputs)
            n.string(nodef::input, i);
        for (const auto& o : outputs)
            n.string(nodef::output, o);
        n.string(nodef::name, name);
        n.string(nodef::opType, op);
        for (const Attr& a : attrs)
            n.message(nodef::attribute, a.p);
        m_graph.message(graphf::node, n);
    }
    void floats(const std::string& name, const std::vector<int64_t>& dims, const float* v, int64_t count)
    {
        ProtoWriter t;
        for (int64_t d : dims)
            t.int64(tensorf::dims, d);
        t.int64(tensorf::dataType, kFloat);
        t.string(tensorf::name, name);
        t.string(tensorf::rawData, std::string_view(reinterpret_cast<const char*>(v), size_t(count) * sizeof(float)));
        m_graph.message(graphf::initializer, t);
    }
    void int64s(const std::string& name, const std::vector<int64_t>& v)
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

// Keras' padding of one axis as ONNX pads: (before, after); "same" puts the odd pixel after.
std::pair<int64_t, int64_t> pads(bool same, int in, int kernel, int stride)
{
    int out = 0, before = 0;
    kerasPadding(same, in, kernel, stride, out, before);
    const int after = std::max(0, (out - 1) * stride + kernel - in - before);
    return {before, same ? after : 0};
}

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
// A text model's graph: token ids (batch, steps) in; Gather from the embedding table, ONNX's LSTM
// operator per layer (gates reordered from Keras' i, f, c, o to ONNX's i, o, f, c; the Keras bias as
// Wb, Rb zero), and the per-step Dense as MatMul + Add; logits, probabilities and the most likely
// symbol at every step out. Fresh state at the first step (as training; stateful writing carries it
// outside the graph).
// The model around a finished graph (below onnxModel).
std::string modelBytes(const Network& net, const std::vector<std::string>& classNames, GraphBuilder& g,
                       const std::string& inputDoc);

void textGraph(const Network& net, GraphBuilder& g)
{
    std::string cur = "tokens";
    bool timeMajor = false; // cur is (steps, batch, F) rather than (batch, steps, F)
    bool sequence = true;
    bool softmaxDone = false;
    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string& name = layer.name();
        const float* p = net.params().data() + net.paramOffset(i);
        const Shape li = layer.inShape(), lo = layer.outShape();
        Activation act = Activation::Linear;
        switch (ls.kind) {
        case LayerKind::Embedding:
            g.floats(name + ".weight", {ls.inputDim, ls.outputDim}, p, int64_t(ls.inputDim) * ls.outputDim);
            g.node("Gather", name, {name + ".weight", cur}, {name}, {attrInt("axis", 0)});
            cur = name;
            break;
        case LayerKind::LSTM: {
            const int64_t F = li.c, H = ls.units;
            // ONNX's gate blocks (i, o, f, c) from Keras' (i, f, c, o).
            const int from[4] = {0, 3, 1, 2};
            std::vector<float> W(size_t(4 * H * F)), R(size_t(4 * H * H)), B(size_t(8 * H), 0.0f);
            const float* K = p;
            const float* Rk = p + F * 4 * H;
            const float* b = Rk + H * 4 * H;
            for (int q = 0; q < 4; ++q)
                for (int64_t j = 0; j < H; ++j) {
                    const int64_t src = from[q] * H + j, row = q * H + j; // ONNX row, Keras column
                    for (int64_t f = 0; f < F; ++f)
                        W[size_t(row * F + f)] = K[f * 4 * H + src];
                    for (int64_t h = 0; h < H; ++h)
                        R[size_t(row * H + h)] = Rk[h * 4 * H + src];
                    B[size_t(row)] = b[src];
                }
            g.floats(name + ".W", {1, 4 * H, F}, W.data(), int64_t(W.size()));
            g.floats(name + ".R", {1, 4 * H, H}, R.data(), int64_t(R.size()));
            g.floats(name + ".B", {1, 8 * H}, B.data(), int64_t(B.size()));
            if (!timeMajor) {
                g.node("Transpose", name + "/time_major", {cur}, {name + "/time_major"}, {attrInts("perm", {1, 0, 2})});
                cur = name + "/time_major";
                timeMajor = true;
            }
            g.node("LSTM", name, {cur, name + ".W", name + ".R", name + ".B"}, {name + "/Y"},
                   {attrInt("hidden_size", H)});
            g.int64s(name + "/direction_axis", {1});
            g.node("Squeeze", name + "/squeeze", {name + "/Y", name + "/direction_axis"}, {name + "/out"});
            cur = name + "/out"; // (steps, batch, H)
            if (!ls.returnSequences) {
                g.int64s(name + "/last", {-1});
                g.node("Gather", name + "/last_step", {cur, name + "/last"}, {name + "/last_step"},
                       {attrInt("axis", 0)});
                g.int64s(name + "/step_axis", {0});
                g.node("Squeeze", name + "/drop_step", {name + "/last_step", name + "/step_axis"}, {name + "/h"});
                cur = name + "/h"; // (batch, H)
                timeMajor = false;
                sequence = false;
            }
            break;
        }
        case LayerKind::Dense: {
            if (timeMajor) {
                g.node("Transpose", name + "/batch_major", {cur}, {name + "/batch_major"},
                       {attrInts("perm", {1, 0, 2})});
                cur = name + "/batch_major";
                timeMajor = false;
            }
            const int64_t F = li.c, U = lo.c;
            g.floats(name + ".kernel", {F, U}, p, F * U);
            g.node("MatMul", name + "/matmul", {cur, name + ".kernel"}, {name + "/matmul"});
            cur = name + "/matmul";
            if (ls.bias) {
                g.floats(name + ".bias", {U}, p + F * U, U);
                g.node("Add", name + "/bias", {cur, name + ".bias"}, {name + "/bias"});
                cur = name + "/bias";
            }
            act = ls.activation;
            break;
        }
        case LayerKind::Dropout: // nothing in inference
            break;
        case LayerKind::Activation:
            act = ls.activation;
            break;
        default:
            throw ModelError("layer " + name + " (" + ls.kerasClass +
                             ") cannot be exported in a text model's ONNX graph");
        }
        if (act == Activation::Softmax) {
            if (timeMajor) {
                g.node("Transpose", name + "/batch_major", {cur}, {name + "/batch_major"},
                       {attrInts("perm", {1, 0, 2})});
                cur = name + "/batch_major";
                timeMajor = false;
            }
            g.node("Identity", "logits", {cur}, {"logits"});
            g.node("Softmax", name + "/softmax", {"logits"}, {"probabilities"}, {attrInt("axis", -1)});
            softmaxDone = true;
        } else if (const char* op = activationOp(act)) {
            std::vector<Attr> attrs;
            if (act == Activation::ELU)
                attrs.push_back(attrFloat("alpha", 1.0f));
            g.node(op, name + "/" + activationName(act), {cur}, {name + "/" + activationName(act)}, attrs);
            cur = name + "/" + activationName(act);
        }
    }
    if (!softmaxDone)
        throw ModelError("the model does not end with a softmax; it cannot be exported to ONNX");
    const int classes = net.numClasses();
    g.node("ArgMax", "class", {"probabilities"}, {"class"}, {attrInt("axis", -1), attrInt("keepdims", 0)});
    ProtoWriter& graph = g.graph();
    graph.message(graphf::input, valueInfo("tokens", kInt64, {-1, -2}));
    const std::vector<int64_t> out =
        sequence ? std::vector<int64_t>{-1, -2, classes} : std::vector<int64_t>{-1, classes};
    graph.message(graphf::output, valueInfo("logits", kFloat, out));
    graph.message(graphf::output, valueInfo("probabilities", kFloat, out));
    graph.message(graphf::output,
                  valueInfo("class", kInt64, sequence ? std::vector<int64_t>{-1, -2} : std::vector<int64_t>{-1}));
}
} // namespace

std::string onnxModel(const Network& net, const std::vector<std::string>& classNames)
{
    GraphBuilder g;
    const Shape in = net.inputShape();
    const int classes = net.numClasses();
    if (net.spec().isText()) {
        textGraph(net, g);
        return modelBytes(net, classNames, g,
                          "Input: token ids (int64, batch x steps) of the model's vocabulary (class_names: each "
                          "symbol's bytes in hex); outputs at every step.");
    }

    // The stored image in, as floats in (batch, C, H, W).
    std::string cur = "image";
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
    bool spatial = true; // cur is (batch, C, H, W); otherwise (batch, F) in Keras' order

    auto activation = [&](Activation a, const std::string& name) {
        if (const char* op = activationOp(a)) {
            std::vector<Attr> attrs;
            if (a == Activation::ELU)
                attrs.push_back(attrFloat("alpha", 1.0f));
            g.node(op, name + "/" + activationName(a), {cur}, {name + "/" + activationName(a)}, attrs);
            cur = name + "/" + activationName(a);
        }
    };
    auto toChannelsLast = [&](const std::string& name) {
        g.node("Transpose", name + "/to_channels_last", {cur}, {name + "/channels_last"},
               {attrInts("perm", {0, 2, 3, 1})});
        cur = name + "/channels_last";
    };

    bool softmaxDone = false;
    for (int i = 0; i < net.layerCount(); ++i) {
        const Layer& layer = net.layer(i);
        const LayerSpec& ls = net.layerSpec(i);
        const std::string& name = layer.name();
        const float* p = net.params().data() + net.paramOffset(i);
        const Shape li = layer.inShape(), lo = layer.outShape();
        Activation act = Activation::Linear;
        switch (ls.kind) {
        case LayerKind::Conv2D: {
            const int64_t nw = int64_t(lo.c) * li.c * ls.kh * ls.kw;
            g.floats(name + ".weight", {lo.c, li.c, ls.kh, ls.kw}, p, nw);
            std::vector<std::string> inputs = {cur, name + ".weight"};
            if (ls.bias) {
                g.floats(name + ".bias", {lo.c}, p + nw, lo.c);
                inputs.push_back(name + ".bias");
            }
            const auto [top, bottom] = pads(ls.same, li.h, ls.kh, ls.sh);
            const auto [left, right] = pads(ls.same, li.w, ls.kw, ls.sw);
            g.node("Conv", name, inputs, {name},
                   {attrInts("kernel_shape", {ls.kh, ls.kw}), attrInts("strides", {ls.sh, ls.sw}),
                    attrInts("pads", {top, left, bottom, right}), attrInts("dilations", {1, 1}), attrInt("group", 1)});
            cur = name;
            act = ls.activation;
            break;
        }
        case LayerKind::BatchNorm: {
            const int C = spatial ? li.c : int(li.size());
            const float* s = net.state().data();
            int64_t stateOffset = 0;
            for (int j = 0; j < i; ++j)
                stateOffset += net.layer(j).stateCount();
            std::vector<float> gamma(size_t(C), 1.0f), beta(size_t(C), 0.0f);
            if (ls.scale)
                std::copy(p, p + C, gamma.begin());
            if (ls.center)
                std::copy(p + (ls.scale ? C : 0), p + (ls.scale ? C : 0) + C, beta.begin());
            g.floats(name + ".gamma", {C}, gamma.data(), C);
            g.floats(name + ".beta", {C}, beta.data(), C);
            g.floats(name + ".moving_mean", {C}, s + stateOffset, C);
            g.floats(name + ".moving_variance", {C}, s + stateOffset + C, C);
            g.node("BatchNormalization", name,
                   {cur, name + ".gamma", name + ".beta", name + ".moving_mean", name + ".moving_variance"}, {name},
                   {attrFloat("epsilon", ls.epsilon), attrFloat("momentum", ls.momentum)});
            cur = name;
            break;
        }
        case LayerKind::MaxPool2D: {
            const auto [top, bottom] = pads(ls.same, li.h, ls.kh, ls.sh);
            const auto [left, right] = pads(ls.same, li.w, ls.kw, ls.sw);
            g.node("MaxPool", name, {cur}, {name},
                   {attrInts("kernel_shape", {ls.kh, ls.kw}), attrInts("strides", {ls.sh, ls.sw}),
                    attrInts("pads", {top, left, bottom, right})});
            cur = name;
            break;
        }
        case LayerKind::Dropout:
            break; // identity at inference
        case LayerKind::Flatten:
        case LayerKind::Reshape: {
            if (spatial)
                toChannelsLast(name);
            std::vector<int64_t> shape = {-1};
            if (lo.spatial)
                shape.insert(shape.end(), {lo.h, lo.w, lo.c});
            else
                shape.push_back(lo.size());
            g.int64s(name + "/shape", shape);
            g.node("Reshape", name, {cur, name + "/shape"}, {name});
            cur = name;
            spatial = lo.spatial;
            if (spatial) {
                g.node("Transpose", name + "/to_nchw", {cur}, {name + "/nchw"}, {attrInts("perm", {0, 3, 1, 2})});
                cur = name + "/nchw";
            }
            break;
        }
        case LayerKind::Dense: {
            const int64_t F = li.size(), units = lo.size();
            g.floats(name + ".kernel", {F, units}, p, F * units);
            std::vector<std::string> inputs = {cur, name + ".kernel"};
            if (ls.bias) {
                g.floats(name + ".bias", {units}, p + F * units, units);
                inputs.push_back(name + ".bias");
            }
            g.node("Gemm", name, inputs, {name});
            cur = name;
            act = ls.activation;
            break;
        }
        case LayerKind::Activation:
            act = ls.activation;
            break;
        case LayerKind::Embedding: // refused above
        case LayerKind::LSTM:
            break;
        }
        if (act == Activation::Softmax) {
            // The network checked that this is the last layer.
            g.node("Identity", "logits", {cur}, {"logits"});
            g.node("Softmax", name + "/softmax", {"logits"}, {"probabilities"}, {attrInt("axis", -1)});
            softmaxDone = true;
        } else {
            activation(act, name);
        }
    }
    if (!softmaxDone)
        throw ModelError("the model does not end with a softmax; it cannot be exported to ONNX");
    g.node("ArgMax", "class", {"probabilities"}, {"class"}, {attrInt("axis", 1), attrInt("keepdims", 0)});

    ProtoWriter& graph = g.graph();
    graph.message(graphf::input, valueInfo("image", kUint8,
                                           in.c == 1 ? std::vector<int64_t>{-1, in.h, in.w}
                                                     : std::vector<int64_t>{-1, in.h, in.w, in.c}));
    graph.message(graphf::output, valueInfo("logits", kFloat, {-1, classes}));
    graph.message(graphf::output, valueInfo("probabilities", kFloat, {-1, classes}));
    graph.message(graphf::output, valueInfo("class", kInt64, {-1}));
    return modelBytes(net, classNames, g,
                      "Input: the images as stored (uint8), the input scale applied inside the graph.");
}

namespace {
std::string modelBytes(const Network& net, const std::vector<std::string>& classNames, GraphBuilder& g,
                       const std::string& inputDoc)
{
    ProtoWriter& graph = g.graph();
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
} // namespace

void exportOnnx(const std::string& path, const WeightsFile& w)
{
    const Network net = w.buildNetwork();
    writeFileAtomically(path, onnxModel(net, w.classNames));
}

} // namespace tb
