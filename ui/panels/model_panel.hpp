// Model: a preset or a model file, and its Keras-style summary (layer, output shape, params) for
// the current dataset's image size and classes. A bad model file shows its error here.
#pragma once

#include "common/value_types.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace tbui {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(QWidget* parent = nullptr);

    // The chosen model, or nothing when the file could not be read.
    const std::optional<tb::ModelSpec>& spec() const { return m_spec; }
    QString modelName() const;
    QString errorText() const;
    QTableWidget* summaryTable() const { return m_table; }
    QString totalsText() const;

    void selectPreset(const QString& name);
    void openModelFile(const QString& path);
    // Rebuilds the summary for this input (the dataset's image size and class count).
    void setInput(int height, int width, int classes);
    // A text dataset: sequences of `steps` symbols over a vocabulary of `classes`. The preset list then
    // offers the text presets (an image dataset: the image presets); a chosen preset of the other kind
    // gives way to the first of this kind.
    void setTextInput(int steps, int classes);
    bool forText() const { return m_text; }

signals:
    void modelChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void chooseFile();
    void refresh();
    void fillPresets();

    QLabel* m_title;
    QComboBox* m_preset;
    QPushButton* m_open;
    QLabel* m_description;
    QLabel* m_error;
    QTableWidget* m_table;
    QLabel* m_totals;
    std::optional<tb::ModelSpec> m_spec;
    QString m_filePath; // when a model file is chosen
    int m_height = 28, m_width = 28, m_classes = 10;
    bool m_text = false; // the dataset is a text
};

} // namespace tbui
