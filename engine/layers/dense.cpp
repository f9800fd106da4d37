#include "layers/dense.hpp"

#include "core/gemm.hpp"
#include "core/tile_gemm.hpp"

#include <algorithm>
#include <cmath>

namespace tb {

namespace {
// Rows of the kernel gradient per batchGradient task: 96 x 256 floats stay in L2 across the shards.
constexpr int kGradientRows = 96;
}  // namespace

void Dense::initParams(float* params, float*, Rng& rng) const
{
    const int64_t F = m_in.size();
    const float limit = float(std::sqrt(6.0 / double(F + m_units)));
    for (int64_t i = 0; i < F * m_units; ++i)
        params[i] = limit * (2.0f * rng.uniform() - 1.0f);
    if (m_bias)
        std::fill(params + F * m_units, params + F * m_units + m_units, 0.0f);
}

void Dense::forward(const PassContext&, int, ShardView& s, float*)
{
    const int F = int(m_in.size());
    if (m_units % 8 == 0)  // a shard's few rows: BLAS would spend its time packing the kernel
        tileGemm(s.n, m_units, F, s.x, F, 1, m_params, m_units, s.y, m_units, false);
    else
        gemm(false, false, s.n, m_units, F, 1.0f, s.x, F, m_params, m_units, 0.0f, s.y, m_units);
    if (m_bias) {
        const float* b = m_params + int64_t(F) * m_units;
        for (int i = 0; i < s.n; ++i)
            for (int u = 0; u < m_units; ++u)
                s.y[int64_t(i) * m_units + u] += b[u];
    }
    activateInPlace(m_act, s.y, int64_t(s.n) * m_units);
}

void Dense::backward(const PassContext&, int, ShardView& s, float*)
{
    const int F = int(m_in.size());
    activationBackward(m_act, s.y, s.dy, int64_t(s.n) * m_units);
    if (s.dx)  // dX[n][F] = dY * K^T
        gemm(false, true, s.n, F, m_units, 1.0f, s.dy, m_units, m_params, m_units, 0.0f, s.dx, F);
}

int Dense::batchGradientTasks() const
{
    return int((m_in.size() + kGradientRows - 1) / kGradientRows);
}

// Rows [f0, f1) of dK[F][units] += X^T * dY over the shards in order, each shard's samples in order;
// the last task also sums the bias gradient. The block of dK stays in cache across the shards.
void Dense::batchGradient(const PassContext&, std::span<const ShardView> shards, int task)
{
    const int F = int(m_in.size());
    const int f0 = task * kGradientRows, f1 = std::min(F, f0 + kGradientRows);
    float* dK = m_grad + int64_t(f0) * m_units;
    for (const ShardView& s : shards) {
        if (m_units % 8 == 0)  // X^T is read through strides: no transposed copy
            tileGemm(f1 - f0, m_units, s.n, s.x + f0, 1, F, s.dy, m_units, dK, m_units, true);
        else
            gemm(true, false, f1 - f0, m_units, s.n, 1.0f, s.x + f0, F, s.dy, m_units, 1.0f, dK, m_units);
    }
    if (m_bias && task == batchGradientTasks() - 1) {
        float* gb = m_grad + int64_t(F) * m_units;
        for (const ShardView& s : shards)
            for (int i = 0; i < s.n; ++i)
                for (int u = 0; u < m_units; ++u)
                    gb[u] += s.dy[int64_t(i) * m_units + u];
    }
}

}  // namespace tb
