// Predictor: one image, one core, the evaluation path of CpuExecutor (predictor.hpp).
#include "predict/predictor.hpp"

#include "core/errors.hpp"
#include "train/cpu_executor.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tb {

Predictor::Predictor(const WeightsFile& weights, const Kernels& kernels)
    : m_net(std::make_unique<Network>(weights.buildNetwork())), m_classNames(weights.classNames)
{
    const Shape in = m_net->inputShape();
    if (in.tokens)
        throw ModelError("these weights are a text model's (its inputs are " + in.keras() +
                         " symbol ids): it writes text rather than recognise pictures; use trainbench-cli generate, or "
                         "the window's Write page");
    if (!in.spatial || in.c != 1)
        throw ModelError("the model takes " + in.keras() + " inputs, not one-channel images");
    m_image.count = 1;
    m_image.height = in.h;
    m_image.width = in.w;
    m_image.pixels.assign(size_t(in.plane()), 0);
    m_image.labels.assign(1, 0);
    m_executor = std::make_unique<CpuExecutor>(*m_net, 1, 16, kernels);
}

Predictor::~Predictor() = default;

PreprocessOptions Predictor::defaultOptions() const
{
    PreprocessOptions o;
    o.centre = centringSuits(m_classNames);
    return o;
}

std::vector<float> Predictor::probabilities(const GrayImage& input)
{
    if (input.width != m_image.width || input.height != m_image.height)
        throw ModelError("the model takes " + std::to_string(m_image.height) + "x" + std::to_string(m_image.width) +
                         " images, not " + std::to_string(input.height) + "x" + std::to_string(input.width));
    std::copy(input.pixels.begin(), input.pixels.end(), m_image.pixels.begin());
    std::vector<float> probs = m_executor->evaluate(m_image, 1, 1, EvalKeeps::Probabilities).probs;
    requireFiniteOutputs(std::all_of(probs.begin(), probs.end(), [](float p) { return std::isfinite(p); }));
    return probs;
}

std::vector<RankedClass> topClasses(const std::vector<float>& probabilities, int k)
{
    std::vector<int> order(probabilities.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return probabilities[size_t(a)] > probabilities[size_t(b)]; });
    order.resize(std::min(order.size(), size_t(std::max(k, 0))));
    std::vector<RankedClass> out;
    for (int i : order)
        out.push_back({i, probabilities[size_t(i)]});
    return out;
}

} // namespace tb
