// Faults while writing files people care about: weights (.tbw), the exports (safetensors, ONNX)
// and the CLI's CSV files all go through writeFileAtomically. A full disk (a small tmpfs this test
// mounts when it runs as root, and a file-size limit, which needs no privilege), a read-only or
// unwritable folder, and a writer killed with SIGKILL at random moments must each leave the
// previous file complete: a clear IoError, never half a file.
#include "fixtures.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "io/weights_file.hpp"
#include "io/weights_formats.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

std::string fileBytes(const std::string& path)
{
    try {
        return tb::readWholeFile(path);
    } catch (const tb::Error&) {
        return "<missing>";
    }
}

// Files in `dir` other than `keep` (a failed write must leave no temporary file).
QStringList strays(const QString& dir, const QString& keep)
{
    QStringList out;
    for (const QString& f : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        if (f != keep && !f.startsWith("filler"))
            out << f;
    return out;
}

} // namespace

class TstWriteFaults : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    tb::WeightsFile m_w; // the toy model, real weights

    // Saves `w` in every format the window and the CLI write, plus a CSV; returns the paths.
    std::vector<std::string> paths(const QString& dir) const
    {
        const std::string d = dir.toStdString();
        return {d + "/w.tbw", d + "/w.safetensors", d + "/w.onnx", d + "/history.csv"};
    }
    void saveAll(const std::vector<std::string>& p, const tb::WeightsFile& w, const std::string& csv) const
    {
        tb::saveWeightsAs(p[0], w, tb::WeightsFormat::Trainbench);
        tb::saveWeightsAs(p[1], w, tb::WeightsFormat::Safetensors);
        tb::saveWeightsAs(p[2], w, tb::WeightsFormat::Onnx);
        tb::writeFileAtomically(p[3], csv);
    }
    tb::WeightsFile changed(float delta) const
    {
        tb::WeightsFile w = m_w;
        for (float& x : w.params)
            x += delta;
        return w;
    }
    // Every write of the second version fails with `expected` and leaves the first version's bytes.
    void expectEachFails(const QString& dir, const QString& expected)
    {
        const auto p = paths(dir);
        const tb::WeightsFile second = changed(0.5f);
        for (size_t i = 0; i < p.size(); ++i) {
            const std::string before = fileBytes(p[i]);
            QVERIFY(before != "<missing>");
            try {
                if (i < 3)
                    tb::saveWeightsAs(p[i], second, tb::weightsFormatOfPath(p[i]));
                else
                    tb::writeFileAtomically(p[i], std::string(1 << 20, 'x'));
                QFAIL(qPrintable("writing " + QString::fromStdString(p[i]) + " did not fail"));
            } catch (const tb::IoError& e) {
                QCOMPARE(QString(e.what()), QString(expected).arg(QString::fromStdString(p[i])));
            }
            QCOMPARE(fileBytes(p[i]), before);
        }
        QCOMPARE(strays(dir, ""), QStringList({"history.csv", "w.onnx", "w.safetensors", "w.tbw"}));
    }

private slots:
    void initTestCase()
    {
        m_w.spec = tb::parseModelSpec(fixtures::toyModelJson(), "toy");
        m_w.input = tb::Shape::image(12, 12, 1);
        m_w.classNames = {"a", "b", "c"};
        tb::Network net(m_w.spec, m_w.input, 3);
        m_w.params = net.params();
        m_w.state = net.state();
        // Big enough that a full disk of 256 KiB cannot take a second copy of the tbw file.
        m_w.optimizerSlots.assign(2 * m_w.params.size(), 0.25f);
    }

    void fullDisk()
    {
        // Without root, fileSizeLimit covers a write that runs out of room.
        const QString dir = m_tmp.path() + "/full";
        const fixtures::SmallDisk disk(dir.toStdString());
        if (!disk.skipReason().empty())
            QSKIP(disk.skipReason().c_str());
        const auto p = paths(dir);
        saveAll(p, m_w, "epoch,loss\n1,0.5\n");
        // Fill what is left: no room for any second copy.
        {
            const std::string filler = dir.toStdString() + "/filler";
            FILE* f = std::fopen(filler.c_str(), "wb");
            QVERIFY(f);
            std::vector<char> block(4096, 'f');
            while (std::fwrite(block.data(), 1, block.size(), f) == block.size()) {
            }
            std::fclose(f);
        }
        expectEachFails(dir, "cannot write %1: No space left on device; nothing was written");
    }

    void fileSizeLimit()
    {
        const QString dir = m_tmp.path() + "/limit";
        QDir().mkpath(dir);
        const auto p = paths(dir);
        saveAll(p, m_w, "epoch,loss\n1,0.5\n");
        // A file-size limit below the files' size: write() fails with EFBIG, as it would at the end
        // of a disk. SIGXFSZ would kill the process first; ignored, the write returns the error.
        struct rlimit old {};
        ::getrlimit(RLIMIT_FSIZE, &old);
        const auto restore = qScopeGuard([&] {
            ::setrlimit(RLIMIT_FSIZE, &old);
            std::signal(SIGXFSZ, SIG_DFL);
        });
        std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = 2048;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        expectEachFails(dir, "cannot write %1: File too large; nothing was written");
    }

    void unwritableFolder()
    {
        const QString dir = m_tmp.path() + "/readonly";
        QDir().mkpath(dir);
        const auto p = paths(dir);
        saveAll(p, m_w, "epoch,loss\n1,0.5\n");
        if (geteuid() == 0) {
            // Root writes into any folder: a read-only bind mount of it then.
            if (::mount(qPrintable(dir), qPrintable(dir), nullptr, MS_BIND, nullptr) != 0 ||
                ::mount(nullptr, qPrintable(dir), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0)
                QSKIP(qPrintable(QString("cannot make a read-only bind mount here (%1)").arg(std::strerror(errno))));
            const auto cleanup = qScopeGuard([&] { ::umount2(qPrintable(dir), MNT_DETACH); });
            expectEachFails(dir, "cannot write %1: Read-only file system");
        } else {
            QVERIFY(::chmod(qPrintable(dir), 0555) == 0);
            const auto cleanup = qScopeGuard([&] { ::chmod(qPrintable(dir), 0755); });
            expectEachFails(dir, "cannot write %1: Permission denied");
        }
    }

    void missingFolder()
    {
        const std::string path = m_tmp.path().toStdString() + "/no/such/folder/w.tbw";
        try {
            tb::saveWeights(path, m_w);
            QFAIL("saving into a missing folder did not fail");
        } catch (const tb::IoError& e) {
            QCOMPARE(QString(e.what()),
                     QString::fromStdString("cannot write " + path + ": the folder " + m_tmp.path().toStdString() +
                                            "/no/such/folder" + " does not exist"));
        }
    }

    // Any name the folder can hold can be written, up to the file system's 255 bytes: the temporary
    // file beside it is named from a part of it. Its full name and the suffix exceeded the limit, and
    // names of 245 to 255 bytes said "File name too long".
    void namesUpToTheLimitAreWritten()
    {
        const std::string dir = m_tmp.path().toStdString() + "/long";
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        for (const size_t length : {244, 245, 250, 255}) {
            const std::string path = dir + "/" + std::string(length - 4, 'c') + ".tbw";
            QCOMPARE(tb::unwritableReason(path), std::string());
            tb::saveWeights(path, m_w);
            QCOMPARE(tb::loadWeights(path).params, m_w.params);
        }
        QCOMPARE(QDir(QString::fromStdString(dir)).entryList(QDir::Files).size(), 4); // no temporary file left
        QCOMPARE(tb::unwritableReason(dir + "/" + std::string(252, 'c') + ".tbw"), std::string("File name too long"));
        try {
            tb::saveWeights(dir + "/" + std::string(252, 'c') + ".tbw", m_w); // 256 bytes: too long for any folder
            QFAIL("a name of 256 bytes was written");
        } catch (const tb::IoError& e) {
            QVERIFY2(QString(e.what()).contains("File name too long"), e.what());
        }
    }

    // What is not a regular file is never replaced: a symbolic link's target is written (the link
    // stays a link), a FIFO and a device are written through, a link that cannot lead to a file is
    // refused.
    void specialFilesAreWrittenThroughNotReplaced()
    {
        const std::string dir = m_tmp.path().toStdString() + "/special";
        QDir().mkpath(QString::fromStdString(dir + "/elsewhere"));
        const std::string target = dir + "/elsewhere/t.csv", link = dir + "/link.csv";
        tb::writeFileAtomically(target, "old");
        QVERIFY(::symlink(target.c_str(), link.c_str()) == 0);
        tb::writeFileAtomically(link, "new");
        struct stat st {};
        QVERIFY(::lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode));
        QCOMPARE(fileBytes(target), std::string("new"));
        QVERIFY(strays(QString::fromStdString(dir + "/elsewhere"), "t.csv").isEmpty());

        const std::string fifo = dir + "/fifo.csv";
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        std::string received;
        std::thread reader([&] {
            FILE* f = std::fopen(fifo.c_str(), "rb");
            for (int c; f && (c = std::fgetc(f)) != EOF;)
                received += char(c);
            if (f)
                std::fclose(f);
        });
        tb::writeFileAtomically(fifo, "epoch,loss\n1,0.5\n");
        reader.join();
        QCOMPARE(received, std::string("epoch,loss\n1,0.5\n"));
        QVERIFY(::lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));

        tb::writeFileAtomically("/dev/null", "gone");
        QVERIFY(::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
        if (::access("/dev/full", W_OK) == 0) { // a device that is always full
            QVERIFY_THROWS_EXCEPTION(tb::IoError, tb::writeFileAtomically("/dev/full", "x"));
            QVERIFY(::stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
        }

        // A link to a file not made yet, in a folder that exists: made there (a relative target
        // from the link's folder), as a shell's redirection would.
        const std::string ahead = dir + "/ahead.csv";
        QVERIFY(::symlink("elsewhere/new.csv", ahead.c_str()) == 0);
        tb::writeFileAtomically(ahead, "made");
        QCOMPARE(fileBytes(dir + "/elsewhere/new.csv"), std::string("made"));
        QVERIFY(::lstat(ahead.c_str(), &st) == 0 && S_ISLNK(st.st_mode));

        // One of the process's descriptors (/proc/self/fd/N, /dev/stdout): written where it stands,
        // after what the file already holds, not from its start.
        const std::string log = dir + "/log.txt";
        tb::writeFileAtomically(log, "first line\n");
        const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
        QVERIFY(fd >= 0);
        tb::writeFileAtomically("/proc/self/fd/" + std::to_string(fd), "second line\n");
        ::close(fd);
        QCOMPARE(fileBytes(log), std::string("first line\nsecond line\n"));

        // A regular file under /dev (a tmpfs there) is a file like any other: replaced atomically.
        if (::access("/dev/shm", W_OK) == 0) {
            const std::string shm = "/dev/shm/trainbench-write-faults-" + std::to_string(::getpid()) + ".csv";
            const auto cleanup = qScopeGuard([&] { ::unlink(shm.c_str()); });
            tb::writeFileAtomically(shm, std::string(1000, 'a'));
            tb::writeFileAtomically(shm, "short");
            QCOMPARE(fileBytes(shm), std::string("short"));
        }

        const std::string dangling = dir + "/dangling.csv";
        QVERIFY(::symlink((dir + "/nowhere/x.csv").c_str(), dangling.c_str()) == 0);
        try {
            tb::writeFileAtomically(dangling, "x");
            QFAIL("writing through a link to nothing did not fail");
        } catch (const tb::IoError& e) {
            QVERIFY2(QString(e.what()).contains("symbolic link to " + QString::fromStdString(dir) + "/nowhere/x.csv"),
                     e.what());
        }
        QVERIFY(::lstat(dangling.c_str(), &st) == 0 && S_ISLNK(st.st_mode));
    }

    // A writer killed with SIGKILL at random moments: the file is always the old or the new one,
    // complete (it loads, its checksum holds, its weights are one version's).
    void sigkillLeavesOldOrNew()
    {
        const QString dir = m_tmp.path() + "/kill";
        QDir().mkpath(dir);
        const std::string path = dir.toStdString() + "/w.tbw";
        // Two versions of a 1 MB file; the kills land anywhere in three saves' time, often inside a
        // write. A save's time is measured as the trials see it, in a forked writer (fork included),
        // so a slow disk, a sanitizer's slower fork or a loaded machine gets later kills.
        const size_t slotCount = 1 << 18;
        tb::WeightsFile a = m_w, b = m_w;
        a.optimizerSlots.assign(slotCount, 1.0f);
        b.optimizerSlots.assign(slotCount, 2.0f);
        QElapsedTimer timer;
        timer.start();
        const pid_t probe = ::fork();
        QVERIFY(probe >= 0);
        if (probe == 0) {
            tb::saveWeights(path, b);
            tb::saveWeights(path, a);
            ::_exit(0);
        }
        int probeStatus = 0;
        ::waitpid(probe, &probeStatus, 0);
        QVERIFY(WIFEXITED(probeStatus) && WEXITSTATUS(probeStatus) == 0);
        const int saveUs = int(std::max<qint64>(1000, timer.nsecsElapsed() / 2000));
        std::mt19937 rng(20);
        int sawA = 0, sawB = 0, midWrite = 0;
        const int trials = 60;
        for (int t = 0; t < trials; ++t) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) {
                for (int i = 0;; ++i)
                    tb::saveWeights(path, i % 2 ? a : b);
            }
            ::usleep(useconds_t(std::uniform_int_distribution<int>(0, 3 * saveUs)(rng)));
            ::kill(pid, SIGKILL);
            int status = 0;
            ::waitpid(pid, &status, 0);
            QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
            const tb::WeightsFile w = tb::loadWeights(path);
            QCOMPARE(w.optimizerSlots.size(), slotCount);
            const float v = w.optimizerSlots.front();
            QVERIFY(v == 1.0f || v == 2.0f);
            QVERIFY(std::all_of(w.optimizerSlots.begin(), w.optimizerSlots.end(), [v](float x) { return x == v; }));
            (v == 1.0f ? sawA : sawB)++;
            // A killed writer leaves its temporary file (nothing can remove it); never the target.
            const QStringList leftovers = QDir(dir).entryList({"w.tbw.tmp-*"}, QDir::Files);
            midWrite += !leftovers.isEmpty();
            for (const QString& f : leftovers)
                QFile::remove(dir + "/" + f);
        }
        qInfo("%d SIGKILLs within %d us (a save takes %d us), %d of them inside a write: the first version %d times, "
              "the second %d times, never anything else",
              trials, 3 * saveUs, saveUs, midWrite, sawA, sawB);
        // The kills did land inside writes, and after some had completed.
        QVERIFY(midWrite > 0);
        QVERIFY(sawB > 0);
    }
};

QTEST_GUILESS_MAIN(TstWriteFaults)
#include "tst_write_faults.moc"
