// One picture through a trained model, as the Predict page and `trainbench-cli predict` run it:
// a forward pass in inference mode on one core, with buffers allocated once and reused.
#pragma once

#include "data/preprocess.hpp"
#include "io/weights_file.hpp"
#include "kernels/isa.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tb {

class CpuExecutor;

struct RankedClass {
    int index = 0;
    float probability = 0.0f;
};

class Predictor {
public:
    // Throws ModelError when the file's parts disagree.
    explicit Predictor(const WeightsFile& weights, const Kernels& kernels = defaultKernels());
    ~Predictor();

    int inputHeight() const { return m_image.height; }
    int inputWidth() const { return m_image.width; }
    const std::vector<std::string>& classNames() const { return m_classNames; }
    // What the file's classes suggest: MNIST's centring for the digits, a plain resize otherwise.
    PreprocessOptions defaultOptions() const;

    // The probability of every class for an input of exactly inputHeight() x inputWidth().
    std::vector<float> probabilities(const GrayImage& input);

private:
    std::unique_ptr<Network> m_net;
    std::unique_ptr<CpuExecutor> m_executor;
    ImageSplit m_image; // one image, label 0 (evaluate needs one; the loss is not used)
    std::vector<std::string> m_classNames;
};

// The `k` most probable classes, most probable first (ties: the lower index first).
std::vector<RankedClass> topClasses(const std::vector<float>& probabilities, int k);

} // namespace tb
