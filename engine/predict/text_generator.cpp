#include "predict/text_generator.hpp"

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "io/weights_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tb {

struct TextGenerator::State {
    int n = 0;
    std::vector<std::vector<float>> carried; // (layers) each layer's own (Layer::stepForward)
};

TextGenerator::TextGenerator(const Network& net, TextVocabulary vocabulary, const Kernels& kernels)
    : m_net(net), m_vocab(std::move(vocabulary)), m_kernels(&kernels)
{
    if (!net.spec().isText())
        throw ModelError("the model \"" + net.spec().name +
                         "\" is not a text model (it does not start with an Embedding)");
    if (m_vocab.size() != net.numClasses())
        throw ModelError("the vocabulary has " + std::to_string(m_vocab.size()) + " symbols but the model predicts " +
                         std::to_string(net.numClasses()));
    for (int l = 0; l < net.layerCount(); ++l) {
        const Layer& layer = net.layer(l);
        if (const std::string why = layer.stepRefusal(l + 1 == net.layerCount()); !why.empty())
            throw ModelError("layer " + std::to_string(l + 1) + " (" + layer.name() + ") " + why);
    }
}

void TextGenerator::step(State& st, const std::vector<int>& ids, std::vector<float>& logits) const
{
    const int n = st.n;
    std::vector<float> cur(ids.begin(), ids.end()), next; // the first layer reads the ids
    for (int l = 0; l < m_net.layerCount(); ++l) {
        m_net.layer(l).stepForward(*m_kernels, cur, n, next, st.carried[size_t(l)]);
        cur.swap(next);
    } // the softmax is taken by the caller
    requireFiniteOutputs(std::all_of(cur.begin(), cur.end(), [](float z) { return std::isfinite(z); }));
    logits = cur;
}

namespace {
void softmax(const float* z, int V, double temperature, std::vector<double>& p)
{
    p.assign(size_t(V), 0.0);
    double m = z[0];
    for (int v = 1; v < V; ++v)
        m = std::max(m, double(z[v]));
    double sum = 0.0;
    for (int v = 0; v < V; ++v)
        sum += p[size_t(v)] = std::exp((double(z[v]) - m) / temperature);
    for (double& x : p)
        x /= sum;
}
} // namespace

std::vector<float> TextGenerator::probabilities(const std::vector<uint8_t>& ids, const StopRequested& stopRequested)
{
    const int V = m_net.numClasses();
    State st;
    st.n = 1;
    st.carried.resize(size_t(m_net.layerCount()));
    std::vector<float> logits, out;
    std::vector<double> p;
    for (uint8_t id : ids) {
        if (stopRequested && stopRequested())
            break;
        step(st, {int(id)}, logits);
        softmax(logits.data(), V, 1.0, p);
        for (double x : p)
            out.push_back(float(x));
    }
    return out;
}

void requireValid(const GenerateOptions& o)
{
    if (o.streams < 1 || o.streams > 1024)
        throw ConfigError("the number of streams must be between 1 and 1024 (got " + std::to_string(o.streams) + ")");
    if (o.length < 0 || o.length > 10000000)
        throw ConfigError("the length must be between 0 and 10000000 symbols (got " + std::to_string(o.length) + ")");
    if (!(o.temperature >= 0) || !std::isfinite(o.temperature)) {
        char got[32];
        std::snprintf(got, sizeof got, "%g", o.temperature);
        throw ConfigError(std::string("the temperature must be 0 (greedy) or a positive number (got ") + got + ")");
    }
}

std::vector<std::string> TextGenerator::generate(const GenerateOptions& o,
                                                 const std::function<void(const GeneratedSymbol&)>& onSymbol,
                                                 const StopRequested& stopRequested)
{
    requireValid(o);
    const int V = m_net.numClasses(), n = o.streams;
    std::vector<uint8_t> prompt = m_vocab.encode(o.prompt, "the prompt");
    std::vector<std::string> texts(static_cast<size_t>(n));
    if (o.length == 0) // nothing to draw: the prompt need not be read
        return texts;
    if (prompt.empty()) {
        const auto nl = std::find(m_vocab.symbols.begin(), m_vocab.symbols.end(), std::string("\n"));
        prompt.push_back(uint8_t(nl == m_vocab.symbols.end() ? 0 : nl - m_vocab.symbols.begin()));
    }
    State st;
    st.n = n;
    st.carried.resize(size_t(m_net.layerCount()));
    std::vector<float> logits;
    for (uint8_t id : prompt) {
        if (stopRequested && stopRequested())
            return texts;
        step(st, std::vector<int>(size_t(n), int(id)), logits);
    }

    std::vector<Rng> rngs;
    for (int s = 0; s < n; ++s)
        rngs.emplace_back(hashKey(o.seed, uint64_t(RngPurpose::Sample), uint64_t(s)));
    std::vector<int> ids(static_cast<size_t>(n));
    std::vector<double> p, q;
    for (int k = 0; k < o.length; ++k) {
        for (int s = 0; s < n; ++s) {
            const float* z = logits.data() + int64_t(s) * V;
            softmax(z, V, 1.0, p);
            int id = 0;
            if (o.temperature == 0.0) {
                id = int(std::max_element(p.begin(), p.end()) - p.begin());
            } else {
                softmax(z, V, o.temperature, q);
                const double u = double(rngs[size_t(s)].uniform());
                double acc = 0.0;
                id = V - 1;
                for (int v = 0; v < V; ++v) {
                    acc += q[size_t(v)];
                    if (u < acc) {
                        id = v;
                        break;
                    }
                }
            }
            ids[size_t(s)] = id;
            texts[size_t(s)] += m_vocab.decode(id);
            if (onSymbol)
                onSymbol({s, k, id, m_vocab.decode(id), float(p[size_t(id)])});
        }
        if (k + 1 == o.length || (stopRequested && stopRequested()))
            break;
        step(st, ids, logits);
    }
    return texts;
}

std::string epochSample(const Network& net, const TextVocabulary& vocabulary, int epoch)
{
    TextGenerator gen(net, vocabulary);
    GenerateOptions g;
    g.length = 120;
    g.temperature = 0.8;
    g.seed = uint64_t(epoch);
    return gen.generate(g).front();
}

} // namespace tb
