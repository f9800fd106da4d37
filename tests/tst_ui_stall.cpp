// The window under load: the longest stall of the GUI thread's event loop while a full-speed
// training run uses every core (the device set to as many threads as the machine has), with the
// charts repainting and the results page shown after every epoch. The GUI thread must never be busy
// for 50 ms at a stretch, and the stall a user sees must stay under 50 ms when the machine is not
// over-committed; both figures and the load are printed ("longest event-loop stall").
#include "fixtures.hpp"
#include "window_test.hpp"

#include "i18n/language.hpp"
#include "main_window.hpp"
#include "panels/accelerator_panel.hpp"
#include "panels/dataset_panel.hpp"
#include "panels/hyperparameters_panel.hpp"
#include "panels/model_panel.hpp"
#include "run/run_controller.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <ctime>
#include <thread>

using namespace tbui;

namespace {
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}
QString loadAverage()
{
    QFile f("/proc/loadavg");
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readLine()).section(' ', 0, 2) : QString("?");
}
} // namespace

class TstUiStall : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    // Run folders in a data directory of its own: the Runs page refills its list at a run's start and
    // end, so the runs other tests (or earlier runs of this one) left would be part of the figure.
    void initTestCase() { fixtures::beginWindowTest("tst_ui_stall", m_tmp.filePath(QStringLiteral("data-home"))); }

    void eventLoopStaysResponsiveWhileTrainingOnAllCores()
    {
        const QString data = m_tmp.filePath(QStringLiteral("toy"));
        QDir().mkpath(data);
        fixtures::writeToyDataset(data.toStdString(), 4096, 256, 28, 3);
        const QString model = m_tmp.filePath(QStringLiteral("toy.json"));
        fixtures::writeRaw(model.toStdString(), fixtures::toyModelJson());

        MainWindow w;
        w.show();
        QSignalSpy loaded(w.datasetPanel(), &DatasetPanel::datasetLoaded);
        w.datasetPanel()->loadFolder(data);
        QVERIFY(loaded.wait(fixtures::kHangGuardMs));
        w.modelPanel()->openModelFile(model);
        w.hyperparametersPanel()->setEpochs(12);
        w.hyperparametersPanel()->setBatchSize(64);
        w.hyperparametersPanel()->setSeed(7);
        tb::DeviceSpec all;
        all.threads = int(std::max(1u, std::thread::hardware_concurrency()));
        w.acceleratorPanel()->selectDevice(all);

        QSignalSpy finished(w.runController(), &RunController::finished);
        connect(w.runController(), &RunController::epochFinished, &w, [&] { w.showPage(MainWindow::ResultsPage); });
        // A 5 ms timer. The longest gap between two ticks is the stall a user sees; the GUI thread's
        // own CPU time over that gap is the part this program causes (on a machine with more runnable
        // threads than cores the scheduler adds the rest, whatever the program does).
        QElapsedTimer clock;
        qint64 last = 0, worst = 0, worstBusy = 0, ticks = 0;
        double lastCpu = threadCpuMs();
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, [&] {
            const qint64 now = clock.elapsed();
            const double cpu = threadCpuMs();
            worst = std::max(worst, now - last);
            worstBusy = std::max(worstBusy, qint64(cpu - lastCpu));
            last = now;
            lastCpu = cpu;
            ++ticks;
        });
        w.startTraining();
        QVERIFY(w.runController()->isRunning());
        clock.start();
        lastCpu = threadCpuMs();
        probe.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, fixtures::kHangGuardMs);
        probe.stop();
        // The figure is about a run that trained: it must have completed, with its weights.
        const auto outcome = finished.first().first().value<tbui::RunOutcome>();
        QVERIFY2(outcome.status == tbui::RunStatus::Completed, qPrintable(outcome.message));
        QCOMPARE(outcome.weightsSha256.size(), 64);
        const double seconds = double(clock.elapsed()) / 1000.0;
        qInfo(
            "longest event-loop stall while training on %d threads: %lld ms, of which the GUI thread was busy %lld ms "
            "(%lld ticks of 5 ms in %.1f s; load average %s)",
            all.threads, worst, worstBusy, ticks, seconds, qPrintable(loadAverage()));
        // Under a sanitizer (scripts/hardening.sh) everything is several times slower: reported only.
        if (qEnvironmentVariableIsSet("TRAINBENCH_SANITIZED"))
            return;
        QVERIFY2(worstBusy < 50,
                 qPrintable(QStringLiteral("the GUI thread was busy for %1 ms at a stretch").arg(worstBusy)));
        // The stall a user sees (`worst`) depends on what else the machine runs: reported above, not
        // asserted (the suite must pass on busy cores).
    }
};

QTEST_MAIN(TstUiStall)
#include "tst_ui_stall.moc"
