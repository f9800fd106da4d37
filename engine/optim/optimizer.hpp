// Optimizers with Keras' defaults and update rules, stepping the network's flat parameter buffer.
// Their state (slots) is a flat buffer too, addressed by parameter index.
#pragma once

#include "kernels/kernels.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

enum class OptimizerKind { Adam, SGD, RMSprop };

struct OptimizerConfig {
    OptimizerKind kind = OptimizerKind::Adam;
    float learningRate = 1e-3f;
    // Adam
    float beta1 = 0.9f, beta2 = 0.999f;
    float epsilon = 1e-7f;
    // SGD
    float momentum = 0.0f;
    bool nesterov = false;
    // RMSprop
    float rho = 0.9f;
};

const char* optimizerName(OptimizerKind k); // "adam", "sgd", "rmsprop"
// Parses a name; throws ConfigError for an unknown one.
OptimizerKind parseOptimizer(const std::string& name);
// Keras' default learning rate: 1e-3 for Adam and RMSprop, 1e-2 for SGD.
float defaultLearningRate(OptimizerKind k);

class Optimizer {
public:
    // The updates run on `kernels` (the instruction-set level of the run).
    Optimizer(OptimizerConfig config, int64_t paramCount, const Kernels& kernels = defaultKernels());
    const OptimizerConfig& config() const { return m_config; }
    int64_t iterations() const { return m_iterations; }
    std::vector<float>& slotBuffer() { return m_slots; } // Adam: [m][v]; SGD: [velocity]; RMSprop: [ms]
    const std::vector<float>& slotBuffer() const { return m_slots; }
    void setIterations(int64_t it) { m_iterations = it; }
    // The rate of the steps from now on (a learning-rate schedule sets it before each step).
    void setLearningRate(float lr) { m_config.learningRate = lr; }
    void step(float* params, const float* grad); // beginStep, update over every parameter, commitStep
    // One step in pieces: beginStep once (counts the iteration, fixes this step's rate), then update
    // over ranges [lo, hi) of the parameters, in any order or in parallel (each parameter's update
    // reads only its own gradient and slots), then commitStep, or abandonStep to undo it. update reads
    // params and the current slots and writes the new values to `out` (which may be params) and to a
    // second slot buffer, so until commitStep the state before the step is intact.
    void beginStep();
    void update(const float* params, const float* grad, float* out, int64_t lo, int64_t hi);
    void commitStep() { m_slots.swap(m_nextSlots); }
    void abandonStep() { --m_iterations; }

    static int slotCount(OptimizerKind k);

private:
    OptimizerConfig m_config;
    const Kernels* m_kernels;
    int64_t m_n;
    int64_t m_iterations = 0;
    float m_stepRate = 0.0f; // this step's learning rate (Adam's bias-corrected lr_t)
    std::vector<float> m_slots;
    std::vector<float> m_nextSlots; // written by update, current after commitStep
};

} // namespace tb
