// Results of a text model: the held-out text with the characters the model got wrong in red, its
// most confident mistakes first (a list), and a confusion of the most frequent characters. Computed
// from one evaluation of the validation text (EvalResult with predictions, (windows x T) of them).
#pragma once

#include "common/value_types.hpp"

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QTableWidget;
class QTextEdit;

namespace tbui {

// The numbers behind the view, plain data so tests can check them.
struct TextResultsModel {
    struct Mistake {
        int position = 0; // in the held-out text (flat index over windows x steps)
        int expected = 0; // symbol ids
        int predicted = 0;
        float confidence = 0.f; // the model's probability of its wrong answer
    };
    std::vector<int> expected;     // (symbols) the held-out text as ids
    std::vector<int> predicted;    // (symbols)
    std::vector<Mistake> mistakes; // most confident first
    std::vector<int> frequent;     // the most frequent expected symbols, most frequent first
    std::vector<int> confusion;    // (frequent, frequent + 1): [true][predicted], last column "other"
    int wrong = 0;

    static TextResultsModel of(const tb::Dataset& data, const tb::EvalResult& eval, int frequentCount = 10);
};

class TextResults : public QWidget {
    Q_OBJECT
public:
    explicit TextResults(QWidget* parent = nullptr);

    void setResults(const DatasetPtr& data, const EvalPtr& eval);
    void clear();

    const TextResultsModel& model() const { return m_model; }
    QTextEdit* textView() const { return m_text; }
    QTableWidget* mistakesTable() const { return m_mistakes; }
    QTableWidget* confusionTable() const { return m_confusion; }
    QString summaryText() const;

    static constexpr int kShownSymbols = 4000; // of the held-out text
    static constexpr int kListedMistakes = 100;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fill();
    QString symbolText(int id) const; // printable: "↵" for a newline, "␣" for a space, "⟨c3⟩" for a lone byte
    QString contextText(int begin, int end) const;

    QLabel* m_summary;
    QLabel* m_textTitle;
    QLabel* m_mistakesTitle;
    QLabel* m_confusionTitle;
    QTextEdit* m_text;
    QTableWidget* m_mistakes;
    QTableWidget* m_confusion;
    DatasetPtr m_data;
    EvalPtr m_eval;
    TextResultsModel m_model;
    std::vector<std::string> m_symbols; // the vocabulary's symbols
};

} // namespace tbui
