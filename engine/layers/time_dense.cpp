#include "layers/time_dense.hpp"

#include <algorithm>
#include <cmath>

namespace tb {

TimeDense::TimeDense(std::string name, Shape in, int units, bool bias, Activation act)
    : Layer(std::move(name), in, Shape::seq(in.h, units)), m_units(units), m_bias(bias), m_act(act)
{
}

void TimeDense::initParams(float* params, float*, Rng& rng) const
{
    const int64_t F = m_in.c;
    const float limit = float(std::sqrt(6.0 / double(F + m_units)));
    for (int64_t i = 0; i < F * m_units; ++i)
        params[i] = limit * (2.0f * rng.uniform() - 1.0f);
    if (m_bias)
        std::fill(params + F * m_units, params + F * m_units + m_units, 0.0f);
}

void TimeDense::beginPass(const Kernels& k, bool, const ParallelFor&)
{
    m_kernelT.resize(size_t(m_in.c) * size_t(m_units));
    k.transpose(m_params, m_in.c, m_units, m_units, m_kernelT.data(), m_in.c);
}

void TimeDense::applyRows(const Kernels& k, const float* x, int rows, float* y) const
{
    const int F = m_in.c, U = m_units;
    k.gemm(false, false, rows, U, F, x, F, m_params, U, y, U, false);
    k.rowBiasActivate(m_act, y, rows, U, 0, U, m_bias ? m_params + int64_t(F) * U : nullptr);
}

void TimeDense::forward(const PassContext& ctx, int, ShardView& s, float*)
{
    applyRows(*ctx.kernels, s.x, s.n * m_in.h, s.y);
}

void TimeDense::backward(const PassContext& ctx, int, ShardView& s, float*)
{
    const int F = m_in.c, U = m_units, rows = s.n * m_in.h;
    ctx.kernels->activationBackward(m_act, s.y, s.dy, int64_t(rows) * U);
    ctx.kernels->gemm(true, false, F, U, rows, s.x, F, s.dy, U, s.grad, U, true); // dK += X^T dY
    if (m_bias) {
        float* gb = s.grad + int64_t(F) * U;
        for (int r = 0; r < rows; ++r)
            for (int u = 0; u < U; ++u)
                gb[u] += s.dy[int64_t(r) * U + u];
    }
    if (s.dx) // dX = dY K^T
        ctx.kernels->gemm(false, false, rows, F, U, s.dy, U, m_kernelT.data(), F, s.dx, F, false);
}

void TimeDense::stepForward(const Kernels& k, const std::vector<float>& x, int n, std::vector<float>& out,
                            std::vector<float>&) const
{
    out.assign(size_t(n) * size_t(m_units), 0.0f);
    applyRows(k, x.data(), n, out.data());
}

} // namespace tb
