// A horizontal bar chart of a prediction's most probable classes, most probable on top, for the
// Predict page. Part of the charts layer: with chart.hpp, the only code that talks to Qt Charts.
// Redrawn in place (no animation) as often as predictions arrive while the user draws.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace tbui {

struct ProbabilityBarsParts;

class ProbabilityBars : public QWidget {
    Q_OBJECT
public:
    explicit ProbabilityBars(QWidget* parent = nullptr);
    ~ProbabilityBars() override;

    void setTitle(const QString& title);
    // names[i] with probabilities[i] in 0..1, most probable first.
    void setBars(const QStringList& names, const std::vector<double>& probabilities);
    void clear();
    int barCount() const;
    QStringList categories() const;  // the class names, top to bottom
    QStringList labels() const;      // each name with its probability, top to bottom
    QStringList axisLabels() const;  // the axis's own categories, bottom up (rich text)
    QStringList drawnLabels() const; // the text the view's scene shows, the title aside

private:
    ProbabilityBarsParts* m_parts;
};

} // namespace tbui
