// The CPU engine's results that tst_opencl compares the OpenCL device with, in a file of their own
// so that the test does not see the CPU executor's headers beside the Backend interface.
#pragma once

#include "data/dataset.hpp"
#include "model/network.hpp"
#include "optim/optimizer.hpp"

#include <cstdint>
#include <vector>

namespace reference {

struct Step {
    double lossSum = 0.0;
    int correct = 0;
    std::vector<float> gradient; // (params) the batch-mean gradient, not applied
};
// One training step's forward and backward on one CPU thread (the BatchNorm statistics move in net).
Step cpuStep(tb::Network& net, const tb::Dataset& data, const int* indices, int count, uint64_t dropoutKey);

// Inference over the first `limit` test images: the mean loss and every probability.
struct Eval {
    double loss = 0.0;
    std::vector<float> probs;
};
Eval cpuEvaluate(tb::Network& net, const tb::Dataset& data, int limit);

// `steps` optimizer steps of `batch` samples in the training split's order, with the step's
// dropout key as the Trainer derives it from `seed`; the loss of each step.
std::vector<double> cpuTrain(tb::Network& net, const tb::Dataset& data, const tb::OptimizerConfig& optimizer, int steps,
                             int batch, uint64_t seed);

} // namespace reference
