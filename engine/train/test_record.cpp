#include "train/test_record.hpp"

#include "core/errors.hpp"
#include "io/json_number.hpp"
#include "io/png_writer.hpp"

#include <algorithm>

namespace tb {

TestRecord makeTestRecord(const EvalResult& result, const Dataset& data, int keepImages)
{
    const ImageSplit& test = data.test;
    TestRecord r;
    r.loss = result.loss;
    r.accuracy = result.accuracy;
    r.samples = result.samples;
    r.symbols = data.isText();
    r.classNames = data.classNames;
    const int k = r.classes();
    r.confusion.assign(size_t(k) * size_t(k), 0);
    // One prediction per label: an image's class, or each symbol of a text's sequences in order.
    const int n = int(
        std::min<int64_t>({int64_t(result.samples), int64_t(result.predicted.size()), int64_t(test.labels.size())}));
    auto confidence = [&](int i) { return size_t(i) < result.confidence.size() ? result.confidence[size_t(i)] : 0.0f; };
    std::vector<int> wrong;
    for (int i = 0; i < n; ++i) {
        const int label = test.labels[size_t(i)], predicted = result.predicted[size_t(i)];
        if (label < k && predicted < k)
            ++r.confusion[size_t(label) * size_t(k) + size_t(predicted)];
        if (label != predicted)
            wrong.push_back(i);
    }
    r.misclassifiedCount = int(wrong.size());
    if (r.symbols) // a symbol is no picture; the matrix and the count say what went wrong
        return r;
    // The window's order (ui/results/results_model.cpp): the most confident mistakes first, ties by
    // test index; the ones kept are those.
    std::stable_sort(wrong.begin(), wrong.end(), [&](int a, int b) { return confidence(a) > confidence(b); });
    if (int(wrong.size()) > keepImages)
        wrong.resize(size_t(std::max(0, keepImages)));
    for (int i : wrong) {
        MisclassifiedImage m;
        m.index = i;
        m.label = test.labels[size_t(i)];
        m.predicted = result.predicted[size_t(i)];
        m.confidence = double(confidence(i));
        m.height = test.height;
        m.width = test.width;
        m.pixels.assign(test.image(i), test.image(i) + test.imageBytes());
        r.misclassified.push_back(std::move(m));
    }
    return r;
}

TestResult testResultOf(const EvalResult& result)
{
    TestResult t;
    t.loss = result.loss;
    t.accuracy = result.accuracy;
    t.samples = result.samples;
    return t;
}

nlohmann::ordered_json testRecordJson(const TestRecord& r)
{
    nlohmann::ordered_json j;
    j["format"] = "trainbench-test-evaluation";
    j["version"] = 1;
    j["loss"] = r.loss;
    j["accuracy"] = r.accuracy;
    j["samples"] = r.samples;
    j["unit"] = r.symbols ? "symbols" : "images";
    j["class_names"] = r.classNames;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (int t = 0; t < r.classes(); ++t)
        rows.push_back(
            std::vector<int64_t>(r.confusion.begin() + t * r.classes(), r.confusion.begin() + (t + 1) * r.classes()));
    j["confusion"] = rows;
    j["misclassified_count"] = r.misclassifiedCount;
    nlohmann::ordered_json images = nlohmann::ordered_json::array();
    for (const MisclassifiedImage& m : r.misclassified)
        images.push_back({{"index", m.index},
                          {"label", m.label},
                          {"predicted", m.predicted},
                          {"confidence", m.confidence},
                          {"height", m.height},
                          {"width", m.width},
                          {"pixels", base64Encode(std::string(m.pixels.begin(), m.pixels.end()))}});
    j["misclassified"] = images;
    return j;
}

TestRecord parseTestRecord(const nlohmann::ordered_json& j)
{
    try {
        TestRecord r;
        r.loss = j.at("loss").get<double>();
        r.accuracy = j.at("accuracy").get<double>();
        r.samples = jsonWhole<int>(j.at("samples"), "the test evaluation's samples");
        if (const auto unit = j.find("unit"); unit != j.end()) { // written after 0.2.0; images before
            if (*unit != "images" && *unit != "symbols")
                throw DataError("the test evaluation's unit is " + unit->dump() + ", not \"images\" or \"symbols\"");
            r.symbols = *unit == "symbols";
        }
        r.classNames = j.at("class_names").get<std::vector<std::string>>();
        const int k = r.classes();
        const auto& rows = j.at("confusion");
        if (!rows.is_array() || int(rows.size()) != k)
            throw DataError("the confusion matrix has " + std::to_string(rows.size()) + " rows for " +
                            std::to_string(k) + " classes");
        for (const auto& row : rows) {
            if (!row.is_array())
                throw DataError("a row of the confusion matrix is not an array");
            std::vector<int64_t> cells;
            for (const auto& c : row)
                cells.push_back(jsonWhole<int64_t>(c, "a confusion matrix cell"));
            if (int(cells.size()) != k)
                throw DataError("a row of the confusion matrix has " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(k) + " classes");
            r.confusion.insert(r.confusion.end(), cells.begin(), cells.end());
        }
        r.misclassifiedCount = jsonWhole<int>(j.at("misclassified_count"), "misclassified_count");
        for (const auto& e : j.at("misclassified")) {
            MisclassifiedImage m;
            m.index = jsonWhole<int>(e.at("index"), "a misclassified image's index");
            m.label = jsonWhole<int>(e.at("label"), "a misclassified image's label");
            m.predicted = jsonWhole<int>(e.at("predicted"), "a misclassified image's predicted class");
            m.confidence = e.at("confidence").get<double>();
            m.height = jsonWhole<int>(e.at("height"), "a misclassified image's height");
            m.width = jsonWhole<int>(e.at("width"), "a misclassified image's width");
            if (m.label < 0 || m.label >= k || m.predicted < 0 || m.predicted >= k)
                throw DataError("misclassified image " + std::to_string(m.index) + " names a class outside 0.." +
                                std::to_string(k - 1));
            const std::string bytes = base64Decode(e.at("pixels").get<std::string>());
            if (m.height <= 0 || m.width <= 0 || int64_t(bytes.size()) != int64_t(m.height) * m.width)
                throw DataError("misclassified image " + std::to_string(m.index) + " holds " +
                                std::to_string(bytes.size()) + " bytes, not " + std::to_string(m.height) + "x" +
                                std::to_string(m.width));
            m.pixels.assign(bytes.begin(), bytes.end());
            r.misclassified.push_back(std::move(m));
        }
        return r;
    } catch (const nlohmann::json::exception& e) {
        throw DataError(std::string("the test evaluation is malformed: ") + e.what());
    }
}

} // namespace tb
