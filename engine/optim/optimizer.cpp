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

Optimizer::Optimizer(OptimizerConfig config, int64_t paramCount, const Kernels& kernels)
    : m_config(config), m_kernels(&kernels), m_n(paramCount),
      m_slots(size_t(paramCount * slotCount(config.kind)), 0.0f), m_nextSlots(m_slots.size(), 0.0f)
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
    kernel::UpdateRule r;
    r.rate = m_stepRate;
    r.beta1 = m_config.beta1;
    r.beta2 = m_config.beta2;
    r.rho = m_config.rho;
    r.momentum = m_config.momentum;
    r.epsilon = m_config.epsilon;
    r.nesterov = m_config.nesterov;
    r.stride = m_n;
    switch (m_config.kind) {
    case OptimizerKind::Adam:
        return m_kernels->adam(r, p, g, m_slots.data(), m_nextSlots.data(), out, lo, hi);
    case OptimizerKind::SGD:
        return m_kernels->sgd(r, p, g, m_slots.data(), m_nextSlots.data(), out, lo, hi);
    case OptimizerKind::RMSprop:
        return m_kernels->rmsprop(r, p, g, m_slots.data(), m_nextSlots.data(), out, lo, hi);
    }
}

} // namespace tb
