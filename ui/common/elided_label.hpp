// A one-line label that never widens its window: text that does not fit is elided (at the end, or
// in the middle for paths) and the whole text is in the tooltip.
#pragma once

#include <QLabel>

namespace tbui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(Qt::TextElideMode mode = Qt::ElideRight, QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_text; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateElided();

    QString m_text;
    Qt::TextElideMode m_mode;
};

} // namespace tbui
