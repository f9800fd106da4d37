#include "common/path_combo_box.hpp"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace tbui {

void PathComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
    opt.currentText = fontMetrics().elidedText(opt.currentText, Qt::ElideMiddle, field.width() - 4);
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

} // namespace tbui
