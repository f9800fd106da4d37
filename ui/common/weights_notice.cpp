#include "common/weights_notice.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "io/weights_file.hpp"

namespace tbui {

WeightsNotice::WeightsNotice(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("weightsNotice"));
    setWordWrap(true);
    setStyleSheet(QStringLiteral("color: #8a5300;"));
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

void WeightsNotice::showFor(const tb::WeightsFile* weights)
{
    // The engine's English, worded again in the window's language.
    const QString notice = weights && !weights->notice.empty() ? EngineText::english(qs(weights->notice)) : QString();
    setText(notice);
    setVisible(!notice.isEmpty());
}

} // namespace tbui
