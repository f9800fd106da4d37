#include "results/results_model.hpp"

#include <algorithm>

namespace tbui {

ResultsModel::ResultsModel(DatasetPtr data, EvalPtr eval) : m_data(std::move(data)), m_eval(std::move(eval))
{
    if (!m_eval || !m_data)
        return;
    m_classes = m_data->numClasses;
    const int n = m_eval->samples;
    m_confusion.assign(size_t(m_classes) * m_classes, 0);
    for (int i = 0; i < n; ++i) {
        ++m_confusion[size_t(label(i) * m_classes + predicted(i))];
        m_wrong += isWrong(i) ? 1 : 0;
    }
    m_sorted.resize(size_t(n));
    for (int i = 0; i < n; ++i)
        m_sorted[size_t(i)] = i;
    std::stable_sort(m_sorted.begin(), m_sorted.end(), [this](int a, int b) {
        const bool wa = isWrong(a), wb = isWrong(b);
        if (wa != wb)
            return wa;
        const float pa = probability(a, predicted(a)), pb = probability(b, predicted(b));
        return wa ? pa > pb : pa < pb;
    });
}

std::vector<int> ResultsModel::order(int filterTrue, int filterPredicted) const
{
    if (filterTrue < 0)
        return m_sorted;
    std::vector<int> out;
    for (int i : m_sorted)
        if (label(i) == filterTrue && predicted(i) == filterPredicted)
            out.push_back(i);
    return out;
}

double ResultsModel::classAccuracy(int cls) const
{
    int total = 0;
    for (int p = 0; p < m_classes; ++p)
        total += confusion(cls, p);
    return total ? double(confusion(cls, cls)) / total : 0.0;
}

std::vector<std::pair<int, float>> ResultsModel::topClasses(int image, int k) const
{
    std::vector<std::pair<int, float>> all;
    for (int c = 0; c < m_classes; ++c)
        all.emplace_back(c, probability(image, c));
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    all.resize(size_t(std::min(k, m_classes)));
    return all;
}

} // namespace tbui
