// Dataset: the IDX folder (file dialog, drag and drop, recent folders), what was found in it, and
// a grid of sample images per class. Loading runs off the GUI thread; errors show in the panel.
#pragma once

#include "common/value_types.hpp"

#include <QFutureWatcher>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace tbui {

class ImageGrid;

class DatasetPanel : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget* parent = nullptr);

    // Starts loading `dir` in the background; datasetLoaded or loadFailed follows.
    void loadFolder(const QString& dir);
    void chooseFolder(); // opens the file dialog
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

    QLabel* m_title;
    QComboBox* m_folder;
    QPushButton* m_browse;
    QLabel* m_info;
    QLabel* m_error;
    QLabel* m_samplesTitle;
    ImageGrid* m_samples;
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
