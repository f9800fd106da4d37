// The confusion matrix as a heat map (rows: true class, columns: predicted class) with per-class
// accuracy in the last column. Clicking a cell selects it (the grid then shows those images).
#pragma once

#include "results/results_model.hpp"

#include <QWidget>

namespace tbui {

class ConfusionMatrix : public QWidget {
    Q_OBJECT
public:
    explicit ConfusionMatrix(QWidget* parent = nullptr);

    void setModel(const ResultsModel* model); // not owned; null clears
    QImage renderImage() const;
    QString rowLabel(int cls) const; // "T-shirt/top 0": the name, then the number its column has ("7" for a digit)
    QSize sizeHint() const override { return {520, 420}; }

signals:
    void cellClicked(int trueClass, int predictedClass);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    struct Geometry {
        int left, top, cell;
    };
    Geometry geometry(QSize size) const;
    // On screen at the widget's size; an export at least at sizeHint(), without the click hint.
    void paint(QPainter& p, QSize size, bool forExport) const;

    const ResultsModel* m_model = nullptr;
};

} // namespace tbui
