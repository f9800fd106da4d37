// What the results panels show, computed from one evaluation of the test split: the order of the
// image grid (misclassified first, most confidently wrong first), the confusion matrix, per-class
// accuracy and the top classes of an image. Plain data, no widgets, so it is easy to test.
#pragma once

#include "common/value_types.hpp"

#include <utility>
#include <vector>

namespace tbui {

class ResultsModel {
public:
    ResultsModel() = default;
    ResultsModel(DatasetPtr data, EvalPtr eval);

    bool isEmpty() const { return !m_eval || m_eval->samples == 0; }
    int samples() const { return m_eval ? m_eval->samples : 0; }
    int classes() const { return m_classes; }
    int wrongCount() const { return m_wrong; }
    const DatasetPtr& data() const { return m_data; }

    int label(int image) const { return m_data->test.labels[size_t(image)]; }
    int predicted(int image) const { return m_eval->predicted[size_t(image)]; }
    float probability(int image, int cls) const { return m_eval->probs[size_t(image) * m_classes + cls]; }
    bool isWrong(int image) const { return label(image) != predicted(image); }

    // Image indices in display order: misclassified first by descending confidence in the wrong
    // class, then the correct ones by ascending confidence. With a filter (true, predicted), only
    // the images in that confusion-matrix cell.
    std::vector<int> order(int filterTrue = -1, int filterPredicted = -1) const;
    int confusion(int trueClass, int predictedClass) const
    {
        return m_confusion[size_t(trueClass * m_classes + predictedClass)];
    }
    double classAccuracy(int cls) const;
    // The k most probable classes of an image, best first.
    std::vector<std::pair<int, float>> topClasses(int image, int k) const;

private:
    DatasetPtr m_data;
    EvalPtr m_eval;
    int m_classes = 0;
    int m_wrong = 0;
    std::vector<int> m_confusion; // (classes, classes): [true][predicted]
    std::vector<int> m_sorted;    // display order without filter
};

} // namespace tbui
