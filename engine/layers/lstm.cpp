#include "layers/lstm.hpp"

#include "layers/lstm_cell.hpp"

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

// Backward: dh and dc carried between steps (n, H) each, and h_{t-1} for every step (n, T, H).
// Inference (no cache): what the cache would hold.
int64_t Lstm::workspaceFloats(int n) const
{
    const int64_t T = m_in.h, H = m_units;
    return std::max(int64_t(n) * H * (2 + T), cacheFloats(n));
}

void Lstm::beginPass(const Kernels& k)
{
    const int F = m_in.c, H = m_units;
    m_kernelT.resize(size_t(4 * H) * size_t(F));
    m_recurrentT.resize(size_t(4 * H) * size_t(H));
    k.transpose(m_params, F, 4 * H, 4 * H, m_kernelT.data(), F);
    k.transpose(m_params + int64_t(F) * 4 * H, H, 4 * H, 4 * H, m_recurrentT.data(), H);
}

void Lstm::runSteps(const Kernels& k, float* z, float* c, float* h, int64_t hStride, int n, int T, const float* h0,
                    const float* c0) const
{
    const int H = m_units, G = 4 * H;
    const float* R = m_params + int64_t(m_in.c) * G;
    for (int t = 0; t < T; ++t) {
        // z_t += h_{t-1} R (nothing at t = 0 from zero state)
        if (t > 0)
            k.gemm(false, false, n, G, H, h + int64_t(t - 1) * H, int(hStride), R, G, z + int64_t(t) * G, T * G, true);
        else if (h0)
            k.gemm(false, false, n, G, H, h0, H, R, G, z, T * G, true);
        LstmStep st;
        st.n = n;
        st.units = H;
        st.zStride = int64_t(T) * G;
        st.cStride = int64_t(T) * H;
        st.hStride = hStride;
        st.cPrev = t > 0 ? c + int64_t(t - 1) * H : c0;
        st.cPrevStride = t > 0 ? int64_t(T) * H : H;
        lstmCell(st, z + int64_t(t) * G, c + int64_t(t) * H, h + int64_t(t) * H);
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
    // The input projections of every step at once, then the bias.
    k.gemm(false, false, int(rows), G, F, s.x, F, m_params, G, z, G, false);
    const float* b = m_params + int64_t(F + H) * G;
    for (int64_t r = 0; r < rows; ++r)
        for (int j = 0; j < G; ++j)
            z[r * G + j] += b[j];
    runSteps(k, z, c, h, int64_t(T) * H, s.n, T, nullptr, nullptr);
    if (!m_returnSequences)
        for (int i = 0; i < s.n; ++i)
            std::memcpy(s.y + int64_t(i) * H, h + (int64_t(i) * T + T - 1) * H, sizeof(float) * size_t(H));
}

void Lstm::step(const Kernels& k, const float* x, int n, LstmState& state) const
{
    const int F = m_in.c, H = m_units, G = 4 * H;
    if (state.h.size() != size_t(n) * H || state.c.size() != size_t(n) * H) { // a fresh state: zeros
        state.h.assign(size_t(n) * H, 0.0f);
        state.c.assign(size_t(n) * H, 0.0f);
    }
    std::vector<float> z(size_t(n) * G), c(size_t(n) * H), h(size_t(n) * H);
    k.gemm(false, false, n, G, F, x, F, m_params, G, z.data(), G, false);
    const float* b = m_params + int64_t(F + H) * G;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < G; ++j)
            z[size_t(i) * G + j] += b[j];
    runSteps(k, z.data(), c.data(), h.data(), H, n, 1, state.h.data(), state.c.data());
    state.h = std::move(h);
    state.c = std::move(c);
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
        LstmStep st;
        st.n = n;
        st.units = H;
        st.zStride = int64_t(T) * G;
        st.cStride = int64_t(T) * H;
        st.cPrev = t > 0 ? c + int64_t(t - 1) * H : nullptr;
        st.cPrevStride = int64_t(T) * H;
        const float* dyt = m_returnSequences ? s.dy + int64_t(t) * H : (t == T - 1 ? s.dy : nullptr);
        lstmCellBackward(st, z + int64_t(t) * G, c + int64_t(t) * H, dyt, m_returnSequences ? int64_t(T) * H : H, dh,
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
            k.gemm(false, false, n, H, G, z + int64_t(t) * G, T * G, m_recurrentT.data(), H, dh, H, false);
    }
    float* gK = s.grad;
    float* gR = gK + int64_t(F) * G;
    float* gb = gR + int64_t(H) * G;
    k.gemm(true, false, F, G, int(rows), s.x, F, z, G, gK, G, true);   // dK += X^T dZ
    k.gemm(true, false, H, G, int(rows), hPrev, H, z, G, gR, G, true); // dR += H_{t-1}^T dZ
    for (int64_t r = 0; r < rows; ++r)
        for (int j = 0; j < G; ++j)
            gb[j] += z[r * G + j];
    if (s.dx) // dX = dZ K^T
        k.gemm(false, false, int(rows), F, G, z, G, m_kernelT.data(), F, s.dx, F, false);
}

} // namespace tb
