// Dataset: the IDX folder or a text (a text file or a folder of them: file dialog, drag and drop,
// recent paths), what was found in it, and a grid of sample images per class or a sample of the text
// with its vocabulary. Loading runs off the GUI thread; errors show in the panel.
#pragma once

#include "common/value_types.hpp"

#include <QFutureWatcher>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace tbui {

class ImageGrid;

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    // What a path is read as. The chosen model decides, as the CLI's --data: a text model reads a
    // text (a file or a folder of texts), an image model a folder of IDX files (so a damaged IDX
    // folder gets its IDX message, never a text's). The user's gestures that say what they are
    // (Text file…, a dropped or remembered file, a folder holding IDX images) pick their kind.
    enum class Kind { ByModel, FromPath, Images, Text };
    // Starts loading `path` in the background; datasetLoaded or loadFailed follows.
    void load(const QString& path, Kind kind);
    void loadFolder(const QString& dir) { load(dir, Kind::ByModel); }
    // The chosen model reads text (a sequence model) or images: ByModel loads follow it.
    void setTextModel(bool text) { m_textModel = text; }
    bool textModel() const { return m_textModel; }
    // FromPath's choice: a file (not an IDX file) is a text, a folder with IDX training images holds
    // images, any other folder is read as the model reads.
    static bool readsAsText(const QString& path, bool textModel);
    void chooseFolder();   // opens the file dialog
    void chooseTextFile(); // opens the file dialog for a text file
    // A text is cut into windows of the model's sequence length: a text loaded with another one is
    // loaded again (Start waits for it). Image datasets ignore it.
    void setTextSequenceLength(int steps);
    int textSequenceLength() const { return m_textSteps; }
    // Byte-level (the default, as the notebook) or character-level vocabulary for a text.
    void setTextVocabulary(bool characters);
    QPlainTextEdit* textSample() const { return m_textSample; }
    DatasetPtr dataset() const { return m_dataset; }
    QString errorText() const;
    bool isLoading() const { return m_loading; } // the latest folder asked for is still loading
    ImageGrid* sampleGrid() const { return m_samples; }

    // The folder to open on first start: Fashion-MNIST when installed, else MNIST digits, else "".
    static QString defaultFolder();
    static constexpr int kRecentMax = 8;

signals:
    void datasetLoaded(tbui::DatasetPtr dataset);
    void loadFailed(QString message);

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void showFullPaths(); // the folders' full paths in tooltips (the box may cut them)
    void retranslate();
    void rememberFolder(const QString& dir);
    void showInfo();
    QString errorLine() const;

    QLabel* m_title;
    QComboBox* m_folder;
    QPushButton* m_browse;
    QLabel* m_info;
    QLabel* m_error;
    QPushButton* m_browseText;
    QLabel* m_vocabularyLabel;
    QComboBox* m_vocabulary;
    QLabel* m_samplesTitle;
    ImageGrid* m_samples;
    QWidget* m_samplesScroll;
    QPlainTextEdit* m_textSample;
    int m_textSteps = 100;
    bool m_characters = false;
    bool m_textModel = false;
    bool m_loadingText = false; // the latest load reads a text
    struct LoadResult {
        DatasetPtr data;
        QString error;
    };
    void onLoaded(const LoadResult& r);
    int m_generation = 0; // of the latest loadFolder; older loads' results are dropped
    bool m_loading = false;
    QString m_loadingDir;
    QString m_lastError;
    DatasetPtr m_dataset;
};

} // namespace tbui
