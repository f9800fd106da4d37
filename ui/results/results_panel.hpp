// Results: the test images with the misclassified ones first, framed in red and sorted by the
// model's confidence in its wrong answer; the confusion matrix beside them. Refreshed after every
// epoch; clicking a tile enlarges it with its top-3 classes, clicking a cell filters the grid.
#pragma once

#include "results/results_model.hpp"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace tbui {

class ConfusionMatrix;
class ElidedLabel;
class ImageGrid;
class TextResults;

class ResultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);

    void setResults(DatasetPtr data, EvalPtr eval);
    // What the results are of: the run (model, device, epoch) or the weights file evaluated.
    // A word on the results under the source line (BatchNorm's statistics); empty hides it.
    void setNote(const QString& note);
    QString noteText() const;
    void setSource(const QString& source);
    QString sourceText() const;
    void clear();
    void filter(int trueClass, int predictedClass); // -1: no filter
    void showImage(int image);                      // the enlarged view

    const ResultsModel& model() const { return m_model; }
    const std::vector<int>& displayOrder() const { return m_order; }
    ImageGrid* grid() const { return m_grid; }
    ConfusionMatrix* confusion() const { return m_confusion; }
    // A text model's results (shown instead of the grid and the matrix).
    TextResults* textResults() const { return m_text; }
    bool showsText() const;
    QString headerText() const;

    static const QColor kWrongColor;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void refreshGrid();

    QLabel* m_header;
    ElidedLabel* m_source;
    QLabel* m_note;
    QPushButton* m_showAll;
    ImageGrid* m_grid;
    ConfusionMatrix* m_confusion;
    QWidget* m_images; // the grid and the matrix
    TextResults* m_text;
    ResultsModel m_model;
    std::vector<int> m_order;
    int m_filterTrue = -1, m_filterPredicted = -1;
};

} // namespace tbui
