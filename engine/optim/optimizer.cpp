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
    : m_config(config), m_n(paramCount), m_slots(size_t(paramCount * slotCount(config.kind)), 0.0f),
      m_nextSlots(m_slots.size(), 0.0f)
{
    if (!(config.learningRate > 0.0f) || !std::isfinite(config.learningRate))
        throw ConfigError("the learning rate must be a positive number");
}

void Optimizer::step(float* p, const float* g)
{
    beginStep();
    update(p, g, p, 0, m_n);
    commitStep();
}

void Optimizer::beginStep()
{
    ++m_iterations;
    m_nextSlots.resize(m_slots.size()); // in case the slots were replaced
    if (m_config.kind == OptimizerKind::Adam) {
        // Keras: lr_t = lr * sqrt(1 - b2^t) / (1 - b1^t).
        const double t = double(m_iterations);
        m_stepRate = float(double(m_config.learningRate) * std::sqrt(1.0 - std::pow(double(m_config.beta2), t)) /
                           (1.0 - std::pow(double(m_config.beta1), t)));
    } else {
        m_stepRate = m_config.learningRate;
    }
}

void Optimizer::update(const float* p, const float* g, float* out, int64_t lo, int64_t hi)
{
    const float lr = m_stepRate;
    const float* slots = m_slots.data();
    float* next = m_nextSlots.data();
    switch (m_config.kind) {
    case OptimizerKind::Adam: {
        // Keras: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; p -= lr_t * m / (sqrt(v) + eps).
        const float b1 = m_config.beta1, b2 = m_config.beta2, eps = m_config.epsilon;
        for (int64_t i = lo; i < hi; ++i) {
            const float m = b1 * slots[i] + (1.0f - b1) * g[i];
            const float v = b2 * slots[m_n + i] + (1.0f - b2) * g[i] * g[i];
            next[i] = m;
            next[m_n + i] = v;
            out[i] = p[i] - lr * m / (std::sqrt(v) + eps);
        }
        break;
    }
    case OptimizerKind::SGD: {
        // Keras: v = momentum * v - lr * g; p += v (Nesterov: p += momentum * v - lr * g).
        const float mom = m_config.momentum;
        for (int64_t i = lo; i < hi; ++i) {
            const float vel = mom * slots[i] - lr * g[i];
            next[i] = vel;
            out[i] = p[i] + (m_config.nesterov ? mom * vel - lr * g[i] : vel);
        }
        break;
    }
    case OptimizerKind::RMSprop: {
        // Keras: ms = rho * ms + (1 - rho) * g^2; p -= lr * g / (sqrt(ms) + eps).
        const float rho = m_config.rho, eps = m_config.epsilon;
        for (int64_t i = lo; i < hi; ++i) {
            const float ms = rho * slots[i] + (1.0f - rho) * g[i] * g[i];
            next[i] = ms;
            out[i] = p[i] - lr * g[i] / (std::sqrt(ms) + eps);
        }
        break;
    }
    }
}

} // namespace tb
