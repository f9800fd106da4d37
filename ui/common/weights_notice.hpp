// What a weights file's reader should hear of it (tb::WeightsFile::notice: a safetensors file whose
// weights differ from the SHA-256 its metadata records), said beside the model, as the Results page
// says its notes: not in a box to dismiss. Hidden while the file says nothing.
#pragma once

#include <QLabel>

namespace tb {
struct WeightsFile;
}

namespace tbui {

class WeightsNotice : public QLabel {
    Q_OBJECT
public:
    explicit WeightsNotice(QWidget* parent = nullptr);

    // The notice of `weights` (none: nullptr) in the window's language; a language switch calls it again.
    void showFor(const tb::WeightsFile* weights);
    // The notice as shown; empty while hidden.
    QString shown() const { return isHidden() ? QString() : text(); }
};

} // namespace tbui
