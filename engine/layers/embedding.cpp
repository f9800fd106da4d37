#include "layers/embedding.hpp"

#include <algorithm>
#include <cstring>

namespace tb {

Embedding::Embedding(std::string name, Shape in, int inputDim, int outputDim)
    : Layer(std::move(name), in, Shape::seq(int(in.size()), outputDim)), m_inputDim(inputDim), m_outputDim(outputDim)
{
}

void Embedding::initParams(float* params, float*, Rng& rng) const
{
    for (int64_t i = 0; i < paramCount(); ++i)
        params[i] = 0.05f * (2.0f * rng.uniform() - 1.0f);
}

const float* Embedding::row(int id) const
{
    return m_params + int64_t(std::clamp(id, 0, m_inputDim - 1)) * m_outputDim;
}

void Embedding::forward(const PassContext&, int, ShardView& s, float*)
{
    const int64_t T = m_in.size(), E = m_outputDim;
    for (int64_t r = 0; r < int64_t(s.n) * T; ++r)
        std::memcpy(s.y + r * E, row(int(s.x[r])), sizeof(float) * size_t(E));
}

void Embedding::backward(const PassContext&, int, ShardView& s, float*)
{
    const int64_t T = m_in.size(), E = m_outputDim;
    for (int64_t r = 0; r < int64_t(s.n) * T; ++r) {
        float* g = s.grad + int64_t(std::clamp(int(s.x[r]), 0, m_inputDim - 1)) * E;
        const float* d = s.dy + r * E;
        for (int64_t j = 0; j < E; ++j)
            g[j] += d[j];
    }
    if (s.dx)
        std::fill(s.dx, s.dx + int64_t(s.n) * T, 0.0f);
}

} // namespace tb
