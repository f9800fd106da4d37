#include "optim/optimizer.hpp"

#include "core/errors.hpp"

#include <cmath>

namespace tb {

const char* optimizerName(OptimizerKind k)
{
    switch (k) {
    case OptimizerKind::Adam:
        return "adam";
    case OptimizerKind::SGD:
        return "sgd";
    case OptimizerKind::RMSprop:
        return "rmsprop";
    }
    return "?";
}

OptimizerKind parseOptimizer(const std::string& name)
{
    if (name == "adam")
        return OptimizerKind::Adam;
    if (name == "sgd")
        return OptimizerKind::SGD;
    if (name == "rmsprop")
        return OptimizerKind::RMSprop;
    throw ConfigError("unknown optimizer \"" + name + "\" (use adam, sgd or rmsprop)");
}

float defaultLearningRate(OptimizerKind k)
{
    return k == OptimizerKind::SGD ? 1e-2f : 1e-3f;
}

int Optimizer::slotCount(OptimizerKind k)
{
    switch (k) {
    case OptimizerKind::Adam:
        return 2;
    case OptimizerKind::SGD:
        return 1;
    case OptimizerKind::RMSprop:
        return 1;
    }
    return 0;
}

Optimizer::Optimizer(OptimizerConfig config, int64_t paramCount)
    : m_config(config), m_n(paramCount), m_slots(size_t(paramCount * slotCount(config.kind)), 0.0f)
{
    if (!(config.learningRate > 0.0f) || !std::isfinite(config.learningRate))
        throw ConfigError("the learning rate must be a positive number");
}

void Optimizer::step(float* p, const float* g)
{
    beginStep();
    update(p, g, 0, m_n);
}

void Optimizer::beginStep()
{
    ++m_iterations;
    if (m_config.kind == OptimizerKind::Adam) {
        // Keras: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t).
        const double t = double(m_iterations);
        m_stepRate = float(double(m_config.learningRate) * std::sqrt(1.0 - std::pow(double(m_config.beta2), t)) /
                           (1.0 - std::pow(double(m_config.beta1), t)));
    } else {
        m_stepRate = m_config.learningRate;
    }
}

void Optimizer::update(float* p, const float* g, int64_t lo, int64_t hi)
{
    const float lr = m_stepRate;
    switch (m_config.kind) {
    case OptimizerKind::Adam: {
        // Keras: p -= lr_t * m / (sqrt(v) + eps).
        const float b1 = m_config.beta1, b2 = m_config.beta2, eps = m_config.epsilon;
        float* m = m_slots.data();
        float* v = m + m_n;
        for (int64_t i = lo; i < hi; ++i) {
            m[i] = b1 * m[i] + (1.0f - b1) * g[i];
            v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
            p[i] -= lr * m[i] / (std::sqrt(v[i]) + eps);
        }
        break;
    }
    case OptimizerKind::SGD: {
        // Keras: v = momentum * v - lr * g; p += v (Nesterov: p += momentum * v - lr * g).
        const float mom = m_config.momentum;
        float* vel = m_slots.data();
        for (int64_t i = lo; i < hi; ++i) {
            vel[i] = mom * vel[i] - lr * g[i];
            p[i] += m_config.nesterov ? mom * vel[i] - lr * g[i] : vel[i];
        }
        break;
    }
    case OptimizerKind::RMSprop: {
        // Keras: ms = rho * ms + (1 - rho) * g^2; p -= lr * g / (sqrt(ms) + eps).
        const float rho = m_config.rho, eps = m_config.epsilon;
        float* ms = m_slots.data();
        for (int64_t i = lo; i < hi; ++i) {
            ms[i] = rho * ms[i] + (1.0f - rho) * g[i] * g[i];
            p[i] -= lr * g[i] / (std::sqrt(ms[i]) + eps);
        }
        break;
    }
    }
}

} // namespace tb
