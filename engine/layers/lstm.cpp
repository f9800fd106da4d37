#include "layers/lstm.hpp"

#include "layers/embedding.hpp"
#include "layers/export_hooks.hpp"
#include "layers/layer_args.hpp"
#include "layers/layer_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tb {

namespace {
// Keras' Orthogonal initializer for a (rows, cols) matrix with rows <= cols: the transpose of the
// Q factor of a (cols, rows) standard normal matrix, signs fixed so that R's diagonal is positive
// (modified Gram-Schmidt gives exactly that Q). Each of the `rows` vectors (a column of the normal
// matrix, a row of the result) is kept contiguous. Written into m[rows][cols].
void orthogonal(float* m, int rows, int cols, Rng& rng)
{
    std::vector<double> a(size_t(rows) * size_t(cols)); // (rows, cols)
    for (size_t i = 0; i < a.size(); i += 2) {          // Box-Muller pairs
        const double u1 = 1.0 - double(rng.uniform()), u2 = double(rng.uniform());
        const double radius = std::sqrt(-2.0 * std::log(u1)), angle = 2.0 * M_PI * u2;
        a[i] = radius * std::cos(angle);
        if (i + 1 < a.size())
            a[i + 1] = radius * std::sin(angle);
    }
    for (int r = 0; r < rows; ++r) {
        double* v = a.data() + size_t(r) * cols;
        for (int p = 0; p < r; ++p) {
            const double* q = a.data() + size_t(p) * cols;
            double d = 0.0;
            for (int k = 0; k < cols; ++k)
                d += v[k] * q[k];
            for (int k = 0; k < cols; ++k)
                v[k] -= d * q[k];
        }
        double norm = 0.0;
        for (int k = 0; k < cols; ++k)
            norm += v[k] * v[k];
        norm = std::sqrt(norm);
        for (int k = 0; k < cols; ++k)
            m[size_t(r) * cols + k] = float(v[k] /= norm);
    }
}

} // namespace

Lstm::Lstm(std::string name, Shape in, int units, bool returnSequences, bool stateful)
    : Layer(std::move(name), in, returnSequences ? Shape::seq(in.h, units) : Shape::flat(units)), m_units(units),
      m_returnSequences(returnSequences), m_stateful(stateful)
{
}

int64_t Lstm::paramCount() const
{
    const int64_t F = m_in.c, H = m_units;
    return 4 * H * (F + H + 1);
}

void Lstm::initParams(float* params, float*, Rng& rng) const
{
    const int64_t F = m_in.c, H = m_units;
    const float limit = float(std::sqrt(6.0 / double(F + 4 * H)));
    for (int64_t i = 0; i < F * 4 * H; ++i)
        params[i] = limit * (2.0f * rng.uniform() - 1.0f);
    orthogonal(params + F * 4 * H, int(H), int(4 * H), rng);
    float* b = params + (F + H) * 4 * H;
    std::fill(b, b + 4 * H, 0.0f);
    std::fill(b + H, b + 2 * H, 1.0f); // unit forget bias
}

// Per sample: the gates (T, 4H), the cells (T, H), and the outputs (T, H) unless y holds them.
int64_t Lstm::cacheFloats(int n) const
{
    const int64_t T = m_in.h, H = m_units;
    return int64_t(n) * T * (4 * H + H + (m_returnSequences ? 0 : H));
}

// Backward: dh and dc carried between steps (n, H) each, and h_{t-1} for every step (n, T, H); when
// it reads an Embedding, dZ's sums by id (V, 4H) and the used ids' rows of E and of dE (V, F) each.
// Inference (no cache): what the cache would hold.
int64_t Lstm::workspaceFloats(int n) const
{
    const int64_t T = m_in.h, H = m_units, F = m_in.c;
    const int64_t V = m_embedding ? m_embedding->inputDim() : 0;
    return std::max(int64_t(n) * H * (2 + T) + V * (4 * H + 2 * F), cacheFloats(n));
}

void Lstm::readEmbedding(Embedding& e)
{
    m_embedding = &e;
    e.setFusedIntoNext();
}

int64_t Lstm::gradientBefore() const
{
    return m_embedding ? m_embedding->paramCount() : 0;
}

void Lstm::beginPass(const Kernels& k, bool, const ParallelFor&)
{
    const int F = m_in.c, H = m_units;
    const float* R = m_params + int64_t(F) * 4 * H;
    m_kernelT.resize(size_t(4 * H) * size_t(F));
    k.transpose(m_params, F, 4 * H, 4 * H, m_kernelT.data(), F);
    // Packed once per pass, not by every shard's every step: R is read 2T times per shard.
    m_packedR.resize(size_t(kernel::packedBFloats(H, 4 * H)));
    k.packB(H, 4 * H, R, 4 * H, false, m_packedR.data());
    m_packedRT.resize(size_t(kernel::packedBFloats(4 * H, H)));
    k.packB(4 * H, H, R, 4 * H, true, m_packedRT.data());
    if (m_embedding) { // every id's input projection: E K
        const int V = m_embedding->inputDim();
        m_table.resize(size_t(V) * size_t(4 * H));
        k.gemm(false, false, V, 4 * H, F, m_embedding->table(), F, m_params, 4 * H, m_table.data(), 4 * H, false);
    }
}

void Lstm::runSteps(const Kernels& k, const float* packedR, float* z, float* c, float* h, int64_t hStride, int n, int T,
                    const float* h0, const float* c0) const
{
    const int H = m_units, G = 4 * H;
    const float* R = m_params + int64_t(m_in.c) * G;
    // z_t += h_{t-1} R: the packed and the in-place products give the same bits.
    const auto recurrent = [&](const float* hPrev, int64_t stride, float* zt) {
        if (packedR)
            k.gemmPacked(n, G, H, hPrev, stride, 1, packedR, zt, int64_t(T) * G, true);
        else
            k.tileGemm(n, G, H, hPrev, stride, 1, R, G, zt, int64_t(T) * G, true);
    };
    for (int t = 0; t < T; ++t) {
        if (t > 0)
            recurrent(h + int64_t(t - 1) * H, hStride, z + int64_t(t) * G);
        else if (h0) // nothing at t = 0 from a zero state
            recurrent(h0, H, z);
        kernel::LstmStep st;
        st.n = n;
        st.units = H;
        st.zStride = int64_t(T) * G;
        st.cStride = int64_t(T) * H;
        st.hStride = hStride;
        st.cPrev = t > 0 ? c + int64_t(t - 1) * H : c0;
        st.cPrevStride = t > 0 ? int64_t(T) * H : H;
        k.lstmCell(st, z + int64_t(t) * G, c + int64_t(t) * H, h + int64_t(t) * H);
    }
}

void Lstm::forward(const PassContext& ctx, int, ShardView& s, float* ws)
{
    const Kernels& k = *ctx.kernels;
    const int T = m_in.h, F = m_in.c, H = m_units, G = 4 * H;
    const int64_t rows = int64_t(s.n) * T;
    float* z = s.cache ? s.cache : ws;                 // (n, T, 4H)
    float* c = z + rows * G;                           // (n, T, H)
    float* h = m_returnSequences ? s.y : c + rows * H; // (n, T, H)
    // The input projections of every step at once (or their rows of E K, s.x holding the ids), then
    // the bias.
    if (m_embedding)
        for (int64_t r = 0; r < rows; ++r)
            std::memcpy(z + r * G, m_table.data() + int64_t(m_embedding->index(int(s.x[r]))) * G,
                        sizeof(float) * size_t(G));
    else
        k.gemm(false, false, int(rows), G, F, s.x, F, m_params, G, z, G, false);
    const float* b = m_params + int64_t(F + H) * G;
    for (int64_t r = 0; r < rows; ++r)
        for (int j = 0; j < G; ++j)
            z[r * G + j] += b[j];
    runSteps(k, m_packedR.data(), z, c, h, int64_t(T) * H, s.n, T, nullptr, nullptr);
    if (!m_returnSequences)
        for (int i = 0; i < s.n; ++i)
            std::memcpy(s.y + int64_t(i) * H, h + (int64_t(i) * T + T - 1) * H, sizeof(float) * size_t(H));
}

void Lstm::stepForward(const Kernels& k, const std::vector<float>& x, int n, std::vector<float>& out,
                       std::vector<float>& carried) const
{
    const int F = m_in.c, H = m_units, G = 4 * H;
    const size_t nH = size_t(n) * H;
    if (carried.size() != 2 * nH) // a fresh state: zeros
        carried.assign(2 * nH, 0.0f);
    std::vector<float> z(size_t(n) * G), c(nH), h(nH);
    k.gemm(false, false, n, G, F, x.data(), F, m_params, G, z.data(), G, false);
    const float* b = m_params + int64_t(F + H) * G;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < G; ++j)
            z[size_t(i) * G + j] += b[j];
    runSteps(k, nullptr, z.data(), c.data(), h.data(), H, n, 1, carried.data(), carried.data() + nH);
    std::copy(h.begin(), h.end(), carried.begin());
    std::copy(c.begin(), c.end(), carried.begin() + int64_t(nH));
    out = std::move(h);
}

std::string Lstm::stepRefusal(bool lastLayer) const
{
    return m_returnSequences || lastLayer ? std::string()
                                          : "needs \"return_sequences\": true to write one symbol per step";
}

void Lstm::backward(const PassContext& ctx, int, ShardView& s, float* ws)
{
    const Kernels& k = *ctx.kernels;
    const int T = m_in.h, F = m_in.c, H = m_units, G = 4 * H, n = s.n;
    const int64_t rows = int64_t(n) * T;
    float* z = s.cache; // the gates; become dZ step by step
    const float* c = z + rows * G;
    const float* h = m_returnSequences ? s.y : c + rows * H;
    float* dh = ws;                     // (n, H): from step t + 1
    float* dc = dh + int64_t(n) * H;    // (n, H)
    float* hPrev = dc + int64_t(n) * H; // (n, T, H): h_{t-1}, zero at t = 0
    std::fill(dh, dh + 2 * int64_t(n) * H, 0.0f);

    for (int t = T - 1; t >= 0; --t) {
        kernel::LstmStep st;
        st.n = n;
        st.units = H;
        st.zStride = int64_t(T) * G;
        st.cStride = int64_t(T) * H;
        st.cPrev = t > 0 ? c + int64_t(t - 1) * H : nullptr;
        st.cPrevStride = int64_t(T) * H;
        const float* dyt = m_returnSequences ? s.dy + int64_t(t) * H : (t == T - 1 ? s.dy : nullptr);
        k.lstmCellBackward(st, z + int64_t(t) * G, c + int64_t(t) * H, dyt, m_returnSequences ? int64_t(T) * H : H, dh,
                           dc);
        for (int i = 0; i < n; ++i) {
            const int64_t row = int64_t(i) * T + t;
            float* hp = hPrev + row * H;
            if (t > 0)
                std::memcpy(hp, h + row * H - H, sizeof(float) * size_t(H));
            else
                std::fill(hp, hp + H, 0.0f);
        }
        // dh_{t-1} = dZ_t R^T
        if (t > 0)
            k.gemmPacked(n, H, G, z + int64_t(t) * G, int64_t(T) * G, 1, m_packedRT.data(), dh, H, false);
    }
    float* gK = s.grad;
    float* gR = gK + int64_t(F) * G;
    float* gb = gR + int64_t(H) * G;
    k.gemm(true, false, H, G, int(rows), hPrev, H, z, G, gR, G, true); // dR += H_{t-1}^T dZ
    for (int64_t r = 0; r < rows; ++r)
        for (int j = 0; j < G; ++j)
            gb[j] += z[r * G + j];
    if (m_embedding) {
        embeddingBackward(k, s, z, hPrev + rows * H);
        return;
    }
    k.gemm(true, false, F, G, int(rows), s.x, F, z, G, gK, G, true); // dK += X^T dZ
    if (s.dx)                                                        // dX = dZ K^T
        k.gemm(false, false, int(rows), F, G, z, G, m_kernelT.data(), F, s.dx, F, false);
}

// readEmbedding's backward, from dZ (the shard's rows, n x T): S's row u sums dZ's rows of the u-th
// used id (in row order), then dK += E_used^T S and dE's used rows += S K^T. ws: (V, 4H + 2F).
void Lstm::embeddingBackward(const Kernels& k, ShardView& s, const float* dz, float* ws) const
{
    const int T = m_in.h, F = m_in.c, G = 4 * m_units, V = m_embedding->inputDim();
    const int64_t rows = int64_t(s.n) * T;
    std::vector<int> slot(size_t(V), -1), used;
    for (int64_t r = 0; r < rows; ++r)
        slot[size_t(m_embedding->index(int(s.x[r])))] = 0;
    for (int v = 0; v < V; ++v)
        if (slot[size_t(v)] == 0) {
            slot[size_t(v)] = int(used.size());
            used.push_back(v);
        }
    const int U = int(used.size());
    float* S = ws;                          // (U, G)
    float* eUsed = S + int64_t(V) * G;      // (U, F)
    float* dEUsed = eUsed + int64_t(V) * F; // (U, F)
    std::fill(S, S + int64_t(U) * G, 0.0f);
    for (int64_t r = 0; r < rows; ++r) {
        float* d = S + int64_t(slot[size_t(m_embedding->index(int(s.x[r])))]) * G;
        const float* src = dz + r * G;
        for (int j = 0; j < G; ++j)
            d[j] += src[j];
    }
    for (int u = 0; u < U; ++u)
        std::memcpy(eUsed + int64_t(u) * F, m_embedding->row(used[size_t(u)]), sizeof(float) * size_t(F));
    k.gemm(true, false, F, G, U, eUsed, F, S, G, s.grad, G, true);              // dK += E_used^T S
    k.gemm(false, false, U, F, G, S, G, m_kernelT.data(), F, dEUsed, F, false); // S K^T
    float* dE = s.grad - gradientBefore();
    for (int u = 0; u < U; ++u) {
        float* d = dE + int64_t(used[size_t(u)]) * F;
        const float* src = dEUsed + int64_t(u) * F;
        for (int f = 0; f < F; ++f)
            d[f] += src[f];
    }
}

// ---- The LSTM kind (layers/layer_type.hpp) ----
namespace {
// "return_sequences" and "stateful" have no LayerSpec field: they are kept in `extra` (0 or 1).
bool returnSequences(const LayerSpec& l)
{
    return l.extra.at("return_sequences") != 0.0;
}

void parseLstm(const LayerArgs& r, LayerSpec& l)
{
    r.require("units");
    l.units = r.positive("units", 0, 65536);
    l.extra["return_sequences"] = r.boolean("return_sequences", false) ? 1.0 : 0.0;
    l.extra["stateful"] = r.boolean("stateful", false) ? 1.0 : 0.0;
}

std::unique_ptr<Layer> buildLstm(const LayerBuild& b)
{
    if (!b.in.sequence || b.in.tokens)
        b.fail("needs a sequence (T, F) but receives " + b.in.keras() +
               "; put an Embedding or an LSTM with \"return_sequences\": true before it");
    return std::make_unique<Lstm>(b.name, b.in, b.spec.units, returnSequences(b.spec),
                                  b.spec.extra.at("stateful") != 0.0);
}

uint64_t lstmFloats(const LayerSpec& l, Shape& s, int)
{
    const uint64_t F = uint64_t(s.c), H = uint64_t(l.units);
    s = returnSequences(l) ? Shape::seq(s.h, l.units) : Shape::flat(l.units);
    return 4 * H * (F + H + 2); // the export's bias_hh (zero) besides the weights
}

// ONNX's LSTM operator on the time-major sequence: W (1, 4H, F), R (1, 4H, H) and B (1, 8H) with the
// gate blocks reordered from Keras' i, f, c, o to ONNX's i, o, f, c, the Keras bias as Wb and Rb
// zero; a fresh state at the first step (as training; stateful generation carries it outside the
// graph). Without return_sequences, the last step (batch, H).
void lstmOnnx(OnnxLayer& o)
{
    const std::string& name = o.layer.name();
    const int64_t F = o.layer.inShape().c, H = o.spec.units;
    const int from[4] = {0, 3, 1, 2}; // ONNX's gate blocks (i, o, f, c) from Keras' (i, f, c, o)
    std::vector<float> W(size_t(4 * H * F)), R(size_t(4 * H * H)), B(size_t(8 * H), 0.0f);
    const float* K = o.params;
    const float* Rk = o.params + F * 4 * H;
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
    o.graph.floats(name + ".W", {1, 4 * H, F}, W.data(), int64_t(W.size()));
    o.graph.floats(name + ".R", {1, 4 * H, H}, R.data(), int64_t(R.size()));
    o.graph.floats(name + ".B", {1, 8 * H}, B.data(), int64_t(B.size()));
    if (!o.timeMajor) {
        o.graph.node("Transpose", name + "/time_major", {o.cur}, {name + "/time_major"},
                     {OnnxAttr::list("perm", {1, 0, 2})});
        o.cur = name + "/time_major";
        o.timeMajor = true;
    }
    o.graph.node("LSTM", name, {o.cur, name + ".W", name + ".R", name + ".B"}, {name + "/Y"},
                 {OnnxAttr::integer("hidden_size", H)});
    o.graph.int64s(name + "/direction_axis", {1});
    o.graph.node("Squeeze", name + "/squeeze", {name + "/Y", name + "/direction_axis"}, {name + "/out"});
    o.cur = name + "/out"; // (steps, batch, H)
    if (!returnSequences(o.spec)) {
        o.graph.int64s(name + "/last", {-1});
        o.graph.node("Gather", name + "/last_step", {o.cur, name + "/last"}, {name + "/last_step"},
                     {OnnxAttr::integer("axis", 0)});
        o.graph.int64s(name + "/step_axis", {0});
        o.graph.node("Squeeze", name + "/drop_step", {name + "/last_step", name + "/step_axis"}, {name + "/h"});
        o.cur = name + "/h"; // (batch, H)
        o.timeMajor = false;
    }
    o.spatial = false;
}

// A text model's "lstm" child: one nn.LSTM stacking the model's LSTM layers, this one its layer k
// (the LSTM layers right before it, Dropouts between them being nn.LSTM's dropout). weight_ih_l<k>
// (4H, F) and weight_hh_l<k> (4H, H) are the Keras kernels transposed, in the same gate order
// (PyTorch's i, f, g, o is Keras' i, f, c, o); bias_ih_l<k> the Keras bias, bias_hh_l<k> zero (read
// back, a PyTorch-trained file's bias_hh_l<k> adds to bias_ih_l<k>: the gates see their sum).
void lstmTorch(TorchLayer& t)
{
    if (!t.text)
        t.refuseText("not part of an image model's nn.Sequential");
    const auto& lstm = static_cast<const Lstm&>(t.layer);
    int k = 0;
    const Lstm* previous = nullptr; // the nearest LSTM before it in the stack
    bool stacking = true;
    for (auto it = t.before.rbegin(); it != t.before.rend(); ++it) {
        if (const auto* l = dynamic_cast<const Lstm*>(*it)) {
            if (!stacking)
                t.refuseText("LSTM layers must follow each other");
            if (!previous)
                previous = l;
            ++k;
        } else if ((*it)->kind() != LayerKind::Dropout) {
            stacking = false;
        }
    }
    if (previous && previous->units() != lstm.units())
        t.refuseText("stacked LSTM layers must have the same units");
    if (!lstm.returnSequences())
        t.refuseText("nn.LSTM returns every step: \"return_sequences\" must be true");
    const int64_t F = lstm.inputFeatures(), H = lstm.units(), G = 4 * H, p = t.paramAt;
    const std::string l = std::to_string(k);
    std::vector<int64_t> ih(size_t(G * F)), hh(size_t(G * H));
    for (int64_t r = 0; r < G; ++r) { // PyTorch's rows are Keras' columns
        for (int64_t f = 0; f < F; ++f)
            ih[size_t(r * F + f)] = p + f * G + r;
        for (int64_t h = 0; h < H; ++h)
            hh[size_t(r * H + h)] = p + F * G + h * G + r;
    }
    t.addNamed("lstm.weight_ih_l" + l, {G, F}, TorchTensor::Source::Params, std::move(ih));
    t.addNamed("lstm.weight_hh_l" + l, {G, H}, TorchTensor::Source::Params, std::move(hh));
    t.addNamed("lstm.bias_ih_l" + l, {G}, TorchTensor::Source::Params, indexRange(p + (F + H) * G, G));
    t.addNamed("lstm.bias_hh_l" + l, {G}, TorchTensor::Source::AddedToParams, indexRange(p + (F + H) * G, G));
}
} // namespace

const LayerType& lstmLayerType()
{
    static const LayerType t{"LSTM",    "lstm",    {"units", "return_sequences", "stateful"},
                             parseLstm, buildLstm, lstmFloats,
                             lstmOnnx,  lstmTorch};
    return t;
}

} // namespace tb
