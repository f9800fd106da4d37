// What a finished run's final weights did on the test set, kept in its run folder
// (evaluation.json) so that its confusion matrix and misclassified images can be shown and reported
// later without the dataset: the metrics, the confusion matrix and, with their pixels, the
// misclassified images the model was surest of, most confident first (the window's order).
#pragma once

#include "config/records.hpp"
#include "data/dataset.hpp"
#include "train/backend.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

struct MisclassifiedImage {
    int index = 0; // in the test split
    int label = 0, predicted = 0;
    double confidence = 0.0; // the model's probability for `predicted`
    int height = 0, width = 0;
    std::vector<uint8_t> pixels; // (height, width)
};

struct TestRecord {
    double loss = 0.0, accuracy = 0.0;
    int samples = 0;      // test images, or a text model's predicted symbols
    bool symbols = false; // a text model's: samples and the matrix count symbols; no images are kept
    std::vector<std::string> classNames;
    std::vector<int64_t> confusion; // (classes, classes): row the true label, column the prediction
    int misclassifiedCount = 0;     // all of them; `misclassified` keeps the first few
    std::vector<MisclassifiedImage> misclassified;

    int classes() const { return int(classNames.size()); }
};

// Of an evaluation with predictions (EvalResult::predicted and confidence) of `data.test`'s first images,
// or of its first sequences' symbols for a text dataset (one prediction per label).
TestRecord makeTestRecord(const EvalResult& result, const Dataset& data, int keepImages = 100);

// The metrics of an evaluation as the records keep them (run.json's "test", the CLI's --json lines);
// misclassified stays -1 (uncounted).
TestResult testResultOf(const EvalResult& result);

nlohmann::ordered_json testRecordJson(const TestRecord& r);
// Throws DataError saying which member is missing or wrong.
TestRecord parseTestRecord(const nlohmann::ordered_json& j);

} // namespace tb
