// trainbench: the desktop window. Optional arguments: a dataset folder to open, or
// --screenshots DIR [--data DIR] [--compare-screenshot DEVICES] to render the README's screenshots and exit.
#include "core/errors.hpp"
#include "environment.hpp"
#include "i18n/language.hpp"
#include "main_window.hpp"
#include "panels/dataset_panel.hpp"
#include "screenshot_tour.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>

#include <csignal>
#include <cstdio>
#include <optional>
#include <string_view>

int main(int argc, char** argv)
{
    // A write past the file-size limit (ulimit -f) fails with EFBIG, which the window reports ("cannot
    // write …: File too large"), where the signal would close it in silence with the run's work lost.
    std::signal(SIGXFSZ, SIG_IGN);
    // --help and --version print and exit: they need no display, so without one (a terminal over
    // ssh, a package build making the man page) they run offscreen rather than abort.
    const bool noDisplay = qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    for (int i = 1; i < argc && noDisplay && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"); ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v")
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Trainbench"));
    QApplication::setApplicationName(QStringLiteral("Trainbench"));
    QApplication::setApplicationVersion(QStringLiteral(TRAINBENCH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.trainbench.Trainbench")); // its AppStream id
    QIcon icon(QStringLiteral(":/icons/trainbench.svg"));
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/trainbench-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);
    tbui::Language::apply(tbui::Language::saved());

    // Qt's own lines of --help, which Debian's Qt catalogue does not translate: the application's does
    // (lupdate reads them here, in their context).
    [[maybe_unused]] static const char* const qtHelpLines[] = {
        QT_TRANSLATE_NOOP("QCommandLineParser", "Displays help on commandline options."),
        QT_TRANSLATE_NOOP("QCommandLineParser", "Displays help including Qt specific options.")};
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Train neural networks (CNNs on images, LSTMs on text) and compare accelerators."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption shots(QStringLiteral("screenshots"),
                                   QApplication::translate("main", "Render the README screenshots into <dir>."),
                                   QStringLiteral("dir"));
    const QCommandLineOption data(QStringLiteral("data"),
                                  QApplication::translate("main", "Dataset folder for --screenshots."),
                                  QStringLiteral("dir"));
    const QCommandLineOption predictShot(
        QStringLiteral("predict-screenshot"),
        QApplication::translate("main", "With --screenshots: only the Predict page, with these weights."),
        QStringLiteral("weights"));
    const QCommandLineOption compareShot(
        QStringLiteral("compare-screenshot"),
        QApplication::translate("main", "With --screenshots: only the Compare page, comparing these devices."),
        QStringLiteral("devices"));
    const QCommandLineOption runsShot(
        QStringLiteral("runs-screenshot"),
        QApplication::translate("main", "With --screenshots: only the Runs page, two runs overlaid."));
    const QCommandLineOption writeShot(
        QStringLiteral("write-screenshot"),
        QApplication::translate("main", "With --screenshots and --data TEXT: the Write and Results pages of a text "
                                        "model, with these weights."),
        QStringLiteral("weights"));
    // The screenshot options are the developers' (scripts/screenshots*.sh, docs/developing.md): a user's
    // --help and man page show what a user gives.
    for (const QCommandLineOption* o : {&shots, &writeShot, &runsShot, &data, &predictShot, &compareShot}) {
        QCommandLineOption hidden = *o;
        hidden.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(hidden);
    }
    parser.addPositionalArgument(
        QStringLiteral("dataset"),
        QApplication::translate("main", "A dataset folder of IDX files, or a text file or folder of texts, to open."),
        QStringLiteral("[dataset]"));
    parser.process(app);

    // TRAINBENCH_ISA and the OpenCL settings; a value that is not valid is said, not ignored.
    try {
        tb::env::applyToEngine();
    } catch (const tb::ConfigError& e) {
        std::fprintf(stderr, "trainbench: %s\n", e.what());
        QMessageBox::critical(nullptr, QApplication::translate("main", "Trainbench"),
                              QApplication::translate("main", "A setting of the environment is not valid:\n%1")
                                  .arg(QString::fromStdString(e.what())));
        return 2;
    }
    // The screenshot tours train: their runs go to a throwaway runs folder, not the user's history
    // (--runs-screenshot shows the runs folder as the environment names it). Nor do they change the
    // user's settings (recent datasets, model, hyperparameters, language): theirs start from a
    // throwaway file, as on a first launch. One folder for both, made only for a tour.
    std::optional<QTemporaryDir> tour;
    if (parser.isSet(shots)) {
        tour.emplace();
        const QDir dir(tour->path());
        if (!tour->isValid() || !dir.mkdir(QStringLiteral("data")) || !dir.mkdir(QStringLiteral("settings"))) {
            std::fprintf(stderr, "trainbench: cannot make a temporary folder for the screenshots' runs and settings\n");
            return 1;
        }
        if (!parser.isSet(runsShot))
            qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toLocal8Bit());
        for (QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat})
            QSettings::setPath(format, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
        tbui::Language::apply(tbui::Language::saved());
    }
    tbui::MainWindow window;
    window.setKernelCacheDir(tb::env::kernelCacheDir());
    if (parser.isSet(shots) && parser.isSet(runsShot))
        return runRunsScreenshot(window, parser.value(shots));
    if (parser.isSet(shots) && parser.isSet(writeShot))
        return runWriteScreenshot(window, parser.value(shots), parser.value(data), parser.value(writeShot));
    if (parser.isSet(shots) && parser.isSet(predictShot))
        return runPredictScreenshot(window, parser.value(shots), parser.value(predictShot), parser.value(data));
    if (parser.isSet(shots)) {
        const QString dir = parser.isSet(data) ? parser.value(data) : tbui::DatasetPanel::defaultFolder();
        if (parser.isSet(compareShot))
            return runCompareScreenshot(window, parser.value(shots), dir, parser.value(compareShot));
        return runScreenshotTour(window, parser.value(shots), dir);
    }

    // The folder given, else the last one used, else Fashion-MNIST (or MNIST) when installed.
    QString folder = parser.positionalArguments().value(0);
    if (folder.isEmpty())
        folder = QSettings().value(QStringLiteral("dataset/recent")).toStringList().value(0);
    if (folder.isEmpty())
        folder = tbui::DatasetPanel::defaultFolder();
    if (!folder.isEmpty())
        window.datasetPanel()->load(folder, tbui::DatasetPanel::Kind::FromPath); // a file: a text
    window.show();
    return app.exec();
}
