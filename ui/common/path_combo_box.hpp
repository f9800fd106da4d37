// A combo box of folder paths that cuts a long path in the middle ("/usr/…/fashion-mnist") instead
// of clipping its end, so it never widens its panel; the full path is in the tooltip.
#pragma once

#include <QComboBox>

namespace tbui {

class PathComboBox : public QComboBox {
    Q_OBJECT
public:
    using QComboBox::QComboBox;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace tbui
