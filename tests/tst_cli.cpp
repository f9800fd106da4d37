// trainbench-cli as a user runs it: summaries, training with --json, determinism across thread
// counts, save + evaluate, and the exit codes for each kind of failure.
#include "cli_process.hpp"
#include "fixtures.hpp"

#include "core/thread_pool.hpp"
#include "io/weights_file.hpp"
#include "kernels/isa.hpp"
#include "train/run_lock.hpp"
#include "train/train_options.hpp"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>
#include <algorithm>
#include <fstream>

#include <csignal>
#include <unistd.h>

class TstCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_data;

    using Result = fixtures::CliResult;
    static Result run(const QStringList& args) { return fixtures::runCli(QStringLiteral(TRAINBENCH_CLI), args); }
    // One batch an epoch of small-text-lstm on a licence text, in sequences of 32 bytes, with no run folder.
    static QStringList quickTextRun()
    {
        return {"train",
                "--data",
                "/usr/share/common-licenses/GPL-3",
                "--max-batches",
                "1",
                "--sequence-length",
                "32",
                "--threads",
                "1",
                "--no-run-folder"};
    }
    // Starts the CLI with `args` and reads its standard output until it holds `marker` (or the process
    // ends): what it printed, for the test to check that the marker came before it acts on the process.
    static QByteArray startUntil(QProcess& p, const QStringList& args, const QByteArray& marker)
    {
        p.start(QStringLiteral(TRAINBENCH_CLI), args);
        QByteArray out;
        if (!p.waitForStarted())
            return out;
        while (!out.contains(marker) && p.state() == QProcess::Running)
            if (p.waitForReadyRead(fixtures::kHangGuardMs))
                out += p.readAllStandardOutput();
        return out;
    }
    static QByteArray fileBytes(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(cannot be read)");
    }
    QList<QJsonObject> jsonLines(const QString& out)
    {
        QList<QJsonObject> lines;
        for (const QString& l : out.split('\n', Qt::SkipEmptyParts)) {
            const QJsonDocument d = QJsonDocument::fromJson(l.toUtf8());
            if (d.isObject())
                lines << d.object();
        }
        return lines;
    }
    // The lines of `out` that are `event` events (compare's "device" rows after its "start").
    QList<QJsonObject> jsonEvents(const QString& out, const QString& event)
    {
        QList<QJsonObject> events;
        for (const QJsonObject& o : jsonLines(out))
            if (o["event"].toString() == event)
                events << o;
        return events;
    }

private slots:
    void initTestCase()
    {
        fixtures::writeToyDataset(m_tmp.path().toStdString(), 200, 50, 12, 3, true);
        fixtures::writeRaw(m_tmp.path().toStdString() + "/toy.json", fixtures::toyModelJson());
        m_data = m_tmp.path();
    }

    void summary()
    {
        Result r = run({"summary", "--model", "colab-fashion-cnn"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Total params: 1,619,470"));
        QVERIFY(r.out.contains("Trainable params: 1,619,084"));
        r = run({"summary", "--model", "tpu-mnist-cnn"});
        QVERIFY(r.out.contains("Total params: 695,882"));
        r = run({"presets"});
        QVERIFY(r.out.contains("keras-mnist-cnn"));
        QVERIFY(r.out.contains("shakespeare-lstm"));
        r = run({"presets", "--kind", "image"});
        QVERIFY(r.out.contains("keras-mnist-cnn") && !r.out.contains("shakespeare-lstm"));
        r = run({"summary", "--model", "shakespeare-lstm"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("Total params: 4,460,800") && r.out.contains("(None, 100, 512)"), qPrintable(r.out));
    }

    // --validation-limit: each epoch validates on the first N samples of its validation set, and the
    // header says which set, and what the test at the end takes.
    void validationLimitSaysWhatItValidates()
    {
        const auto losses = [](const QString& out) { // the epoch's val_loss, the test's loss at the end
            const QRegularExpressionMatch val = QRegularExpression("val_loss: ([0-9.]+)").match(out);
            const QRegularExpressionMatch test = QRegularExpression("Test loss: ([0-9.]+)").match(out);
            return std::pair(val.captured(1), test.captured(1));
        };
        // A text's last part validates, and is the test at the end: the same loss, unless limited.
        const QStringList text = quickTextRun() + QStringList{"--epochs", "1"};
        Result r = run(text);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains("Each epoch validates"), qPrintable(r.out));
        QVERIFY2(!losses(r.out).first.isEmpty() && losses(r.out).first == losses(r.out).second, qPrintable(r.out));
        r = run(text + QStringList{"--validation-limit", "5"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("\nEach epoch validates on the first 5 of the 109 sequences of the text's last part; "
                                "the test at the end takes them all\n"),
                 qPrintable(r.out));
        QVERIFY2(!losses(r.out).first.isEmpty() && losses(r.out).first != losses(r.out).second, qPrintable(r.out));
        // Held out of the training images: the test at the end is the test set's.
        const QStringList images = {"train",
                                    "--data",
                                    m_data,
                                    "--model",
                                    m_data + "/toy.json",
                                    "--epochs",
                                    "1",
                                    "--threads",
                                    "1",
                                    "--no-run-folder",
                                    "--validation-split",
                                    "0.5",
                                    "--validation-limit",
                                    "3"};
        r = run(images);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("\nEach epoch validates on the first 3 of the 100 held-out training images; the test "
                                "at the end takes the 50 test images\n"),
                 qPrintable(r.out));
        r = run(images + QStringList{"--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(jsonLines(r.out).first()["validation_limit"].toInt(), 3);
        // A limit past the set's size limits nothing, and is not said.
        r = run(QStringList{"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--threads",
                            "1", "--no-run-folder", "--validation-limit", "50"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains("Each epoch validates"), qPrintable(r.out));
    }

    // A text model from the command line: --data names a text, the run prints the unigram entropy,
    // bits per character and a sample each epoch; generate with a fixed seed prints the same text twice.
    // A text preset trains with its own optimizer, rate, batch and epochs, as in the window, where the
    // command line names none (at Adam's batch 128 a licence text is 4 steps an epoch, and the model
    // writes noise); each option given still wins.
    void aTextPresetBringsItsOwnSettings()
    {
        const QStringList base = quickTextRun();
        Result r = run(base + QStringList{"--epochs", "1"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("small-text-lstm trains with its own settings where the command line gives none: "
                                  "rmsprop, learning rate 0.01, batch 16 (--optimizer, --lr, --batch and --epochs "
                                  "change them)\n"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("batch 16, rmsprop lr 0.01, seed 200"), qPrintable(r.out));
        r = run(base + QStringList{"--epochs", "1", "--lr", "0.002", "--batch", "8"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("small-text-lstm trains with its own settings where the command line gives none: "
                                  "rmsprop ("),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("batch 8, rmsprop lr 0.002, seed 200"), qPrintable(r.out));
        r = run(base + QStringList{"--epochs", "1", "--optimizer", "adam", "--batch", "8"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains("its own settings") && r.out.contains("batch 8, adam lr 0.001, seed 200"),
                 qPrintable(r.out));
        // Six epochs when --epochs is not given; an image model keeps the defaults.
        r = run(base + QStringList{"--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject start = jsonLines(r.out).first();
        QCOMPARE(start["batch"].toInt(), 16);
        QCOMPARE(start["epochs"].toInt(), 6);
        QCOMPARE(start["optimizer"].toString(), QString("rmsprop"));
        QCOMPARE(float(start["learning_rate"].toDouble()), 0.01f);
        QCOMPARE(r.out.count("\"event\":\"epoch\""), 6);
        r = run({"train", "--data", m_data, "--max-batches", "1", "--epochs", "1", "--no-run-folder"});
        QVERIFY2(r.code == 0 && !r.out.contains("its own settings") && r.out.contains("batch 128, adam lr 0.001"),
                 qPrintable(r.out + r.err));
    }

    void textTrainAndGenerate()
    {
        const QString weights = m_tmp.path() + "/text.tbw";
        Result r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm", "--epochs",
                        "1", "--batch", "16", "--max-batches", "4", "--sequence-length", "32", "--threads", "2",
                        "--no-run-folder", "--save", weights});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        for (const char* want : {"Unigram entropy of the validation text", "bpc:", "val_bpc:", "Sample: "})
            QVERIFY2(r.out.contains(want), qPrintable(r.out));
        // --json says the same: the text's numbers at the start, bpc and the sample each epoch, the test's bpc.
        r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm", "--epochs", "1",
                 "--batch", "16", "--max-batches", "4", "--sequence-length", "32", "--threads", "2", "--no-run-folder",
                 "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QList<QJsonObject> events = jsonLines(r.out);
        QCOMPARE(events.first()["sequence_length"].toInt(), 32);
        QCOMPARE(events.first()["vocabulary"].toString(), QString("bytes"));
        QCOMPARE(events.first()["symbols"].toInt(), 256);
        QVERIFY(events.first()["unigram_entropy_bits"].toDouble() > 4.0);
        const QJsonObject epoch = events[events.size() - 2];
        QCOMPARE(epoch["event"].toString(), QString("epoch"));
        QCOMPARE(epoch["bpc"].toDouble(), epoch["loss"].toDouble() / std::log(2.0));
        QCOMPARE(epoch["val_bpc"].toDouble(), epoch["val_loss"].toDouble() / std::log(2.0));
        QVERIFY(!epoch["sample"].toString().isEmpty());
        QCOMPARE(events.last()["test_bpc"].toDouble(),
                 events.last()["test"].toObject()["loss"].toDouble() / std::log(2.0));
        const QStringList gen = {"generate", "--weights", weights, "--prompt", "The ", "--length", "60", "--seed", "3"};
        const Result a = run(gen), b = run(gen);
        QCOMPARE(a.code, 0);
        QVERIFY(a.out.startsWith("The "));
        QCOMPARE(b.out, a.out);
        QVERIFY(run(gen + QStringList{"--seed", "4"}).out != a.out);
        QCOMPARE(run(gen + QStringList{"--seed", "18446744073709551615"}).code, 0); // train's range
        const Result g1 = run(gen + QStringList{"--temperature", "0"}),
                     g2 = run(gen + QStringList{"--temperature", "0", "--seed", "9"});
        QCOMPARE(g2.out, g1.out); // greedy: the seed does not matter
        // Refused before anything is printed (the prompt came out first).
        r = run({"generate", "--weights", weights, "--prompt", "Hello", "--temperature", "-1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("the temperature must be 0 (greedy) or a positive number (got -1)"), qPrintable(r.err));
        QCOMPARE(r.out, QString());
        // The same model exported to safetensors writes the same text.
        const QString st = m_tmp.path() + "/text.safetensors";
        QCOMPARE(run({"export", "--weights", weights, "--format", "safetensors", "--out", st}).code, 0);
        QStringList fromSt = gen;
        fromSt[2] = st;
        r = run(fromSt);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, a.out);
        // On a terminal (script(1) gives it one), control bytes are written as "?": an escape sequence
        // would drive it. So are the C1 controls, whose two UTF-8 bytes a byte model writes as two
        // symbols. Piped, the bytes go as generated. Hot enough, the model writes any byte: 20,000
        // of them hold about ten C1 pairs.
        const QString hot = QStringLiteral("'%1' generate --weights '%2' --length 20000 --temperature 1e6")
                                .arg(QStringLiteral(TRAINBENCH_CLI), weights);
        const auto hasC1 = [](const QString& text) {
            return std::any_of(text.begin(), text.end(),
                               [](QChar c) { return c.unicode() >= 0x80 && c.unicode() < 0xa0; });
        };
        r = fixtures::runCli(QStringLiteral("script"), {"-qec", hot, "/dev/null"});
        QVERIFY2(r.code == 0 && r.out.size() > 15000, qPrintable(r.err));
        QVERIFY(!r.out.contains(QChar(0x1b)) && !r.out.contains(QChar(0x07)) && !hasC1(r.out));
        // Nor a byte outside well-formed UTF-8 (a lone 0x9B is CSI on an 8-bit terminal): what the
        // terminal gets decodes without a replacement character.
        QVERIFY(!r.out.contains(QChar::ReplacementCharacter));
        r = fixtures::runCli(QStringLiteral("sh"), {"-c", hot});
        QVERIFY2(r.code == 0 && r.out.contains(QChar(0x1b)) && hasC1(r.out), qPrintable(r.err));
        QVERIFY(r.out.contains(QChar::ReplacementCharacter));
        // --json: each symbol's bytes in hex beside its text, so that any text can be rebuilt.
        r = run(gen + QStringList{"--json"});
        QCOMPARE(r.code, 0);
        QString rebuilt;
        QByteArray bytes;
        for (const QJsonObject& j : jsonLines(r.out))
            if (j.contains("bytes"))
                bytes += QByteArray::fromHex(j["bytes"].toString().toLatin1());
        QCOMPARE(QString::fromUtf8(QByteArray("The ") + bytes), a.out.chopped(1)); // less the newline
        // The last line says the text is whole, as train's last says how the run ended.
        const QJsonObject done = jsonLines(r.out).last();
        QCOMPARE(done["event"].toString(), QStringLiteral("done"));
        QCOMPARE(done["symbols"].toInt(), bytes.size());
        // A character model refuses a prompt outside its vocabulary before it prints anything.
        const QString chars = m_tmp.path() + "/chars.tbw";
        r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm", "--epochs", "1",
                 "--batch", "16", "--max-batches", "1", "--sequence-length", "32", "--vocabulary", "characters",
                 "--no-run-folder", "--save", chars});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run({"generate", "--weights", chars, "--prompt", "The ~€", "--length", "5"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("the prompt's character \"~\" at byte offset 4 (byte 0x7e) is not in the model's "
                                "character-level vocabulary"),
                 qPrintable(r.err));
        QCOMPARE(r.out, QString());
        r = run({"generate", "--weights", chars, "--prompt", "The €", "--length", "5"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("the prompt's character \"€\" at byte offset 4 (bytes 0xe2 0x82 0xac)"),
                 qPrintable(r.err));
        // A file that names its model and vocabulary takes no --vocabulary; a --model that agrees with it
        // cuts the text as its weights say (the model's own sequence length was used: "trained on 32x1
        // images").
        const QString gpl = QStringLiteral("/usr/share/common-licenses/GPL-3");
        r = run({"evaluate", "--weights", chars, "--data", gpl, "--vocabulary", "characters"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("names its model and its vocabulary: leave out --vocabulary"), qPrintable(r.err));
        r = run({"evaluate", "--weights", chars, "--data", gpl, "--model", "small-text-lstm"});
        QVERIFY2(r.code == 0 && r.out.contains("test bpc"), qPrintable(r.err));
        // The text is read once, as the weights say: it was read first as for training --model (bytes, the
        // preset's sequence length of 64, a text of one symbol refused) and then again. One letter
        // repeated, 400 symbols (too few for 64 on both sides of the split) evaluate with --model as without.
        const QString letters = m_tmp.path() + "/letters.txt";
        fixtures::writeRaw(letters.toStdString(), std::string(400, 'e'));
        const Result bare = run({"evaluate", "--weights", chars, "--data", letters});
        QVERIFY2(bare.code == 0 && bare.out.contains("test bpc"), qPrintable(bare.err));
        r = run({"evaluate", "--weights", chars, "--data", letters, "--model", "small-text-lstm"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, bare.out);
        // The same weights as another program writes them (no metadata): read as bytes, the text gives
        // 256 symbols where the file has the text's characters, which is what the message says; with
        // --vocabulary characters they evaluate and export.
        const QString charsSt = m_tmp.path() + "/chars.safetensors",
                      foreign = m_tmp.path() + "/chars-torch.safetensors";
        QCOMPARE(run({"export", "--weights", chars, "--format", "safetensors", "--out", charsSt}).code, 0);
        // --data without --model would be read for nothing: the file names its model.
        r = run({"export", "--weights", chars, "--data", gpl, "--format", "safetensors", "--out", charsSt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--data goes with --model"), qPrintable(r.err));
        {
            QFile in(charsSt), out(foreign);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            const QByteArray all = in.readAll();
            const qint64 n = qFromLittleEndian<qint64>(all.constData());
            QJsonObject header = QJsonDocument::fromJson(all.mid(8, int(n))).object();
            QVERIFY(header.contains("__metadata__"));
            header.remove("__metadata__");
            QByteArray h = QJsonDocument(header).toJson(QJsonDocument::Compact);
            h.append(QByteArray((8 - h.size() % 8) % 8, ' '));
            QByteArray length(8, '\0');
            qToLittleEndian<qint64>(h.size(), length.data());
            out.write(length + h + all.mid(8 + int(n)));
        }
        const QStringList theirs = {"evaluate", "--weights", foreign, "--data", gpl, "--model", "small-text-lstm"};
        r = run(theirs);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("symbols (tensor \"dense.weight\" is [") &&
                     r.err.contains("and the text read as bytes gives 256: a character-level model needs the "
                                    "vocabulary of characters (--vocabulary characters"),
                 qPrintable(r.err));
        r = run(theirs + QStringList{"--vocabulary", "characters"});
        QVERIFY2(r.code == 0 && r.out.contains("test bpc"), qPrintable(r.err));
        // generate takes the same --model, --data and --vocabulary, and writes what the file that names its
        // model writes; without --model it asks for it, and an image model is refused.
        const QStringList writeOptions = {"--prompt", "The ", "--length", "40", "--seed", "3"};
        const Result own = run(QStringList{"generate", "--weights", chars} + writeOptions);
        QVERIFY2(own.code == 0 && own.out.startsWith("The "), qPrintable(own.err));
        r = run(QStringList{"generate", "--weights", foreign, "--data", gpl, "--model", "small-text-lstm",
                            "--vocabulary", "characters"} +
                writeOptions);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, own.out);
        r = run(QStringList{"generate", "--weights", foreign} + writeOptions);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("(written by another program?): say which model its tensors belong to (--model "
                                "NAME|FILE"),
                 qPrintable(r.err));
        r = run(QStringList{"generate", "--weights", foreign, "--data", gpl} + writeOptions);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--data goes with --model"), qPrintable(r.err));
        r = run(QStringList{"generate", "--weights", foreign, "--data", gpl, "--model", "tpu-mnist-cnn"} +
                writeOptions);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is not a text model (tpu-mnist-cnn): generate writes with a text model"),
                 qPrintable(r.err));
        r = run({"evaluate", "--weights", foreign, "--data", "/usr/share/common-licenses/MPL-1.1", "--model",
                 "small-text-lstm", "--vocabulary", "characters"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("and the characters of the text give"), qPrintable(r.err));
        // Ctrl-C ends a long generation after the symbol under way, with exit code 130 and what it wrote
        // (it died by the signal).
        QProcess writing;
        const QByteArray written =
            startUntil(writing, {"generate", "--weights", chars, "--prompt", "The ", "--length", "10000000"}, "The ");
        QVERIFY2(written.startsWith("The "), written.constData());
        ::kill(pid_t(writing.processId()), SIGINT);
        QVERIFY(writing.waitForFinished(fixtures::kHangGuardMs));
        QCOMPARE(writing.exitStatus(), QProcess::NormalExit);
        QCOMPARE(writing.exitCode(), 130);
        QVERIFY(writing.readAllStandardError().contains("Stopped by the user."));
        r = run({"generate", "--weights", chars, "--prompt", "", "--probabilities", m_tmp.path() + "/p.csv"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--probabilities needs a --prompt that is not empty"), qPrintable(r.err));
        // evaluate reads a text with the model's characters, not the text's own: GPL-3 without its one "J"
        // (in its training part) gives the same validation numbers, and a character the model lacks is
        // named. It used the text's characters: the one missing, the ids after it moved.
        r = run({"evaluate", "--data", "/usr/share/common-licenses/GPL-3", "--weights", chars});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString original = r.out.mid(r.out.indexOf("Test loss: "));
        QFile licence("/usr/share/common-licenses/GPL-3");
        QVERIFY(licence.open(QIODevice::ReadOnly));
        QByteArray text = licence.readAll();
        QCOMPARE(text.count('J'), 1);
        const QString withoutJ = m_tmp.path() + "/GPL-3-without-J";
        fixtures::writeRaw(withoutJ.toStdString(), QByteArray(text).replace("June", "Xune").toStdString());
        r = run({"evaluate", "--data", withoutJ, "--weights", chars});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(original.startsWith("Test loss: ") && r.out.contains(original), qPrintable(original + " / " + r.out));
        const QString tilde = m_tmp.path() + "/tilde";
        fixtures::writeRaw(tilde.toStdString(), QByteArray(text).replace("June", "~une").toStdString());
        r = run({"evaluate", "--data", tilde, "--weights", chars});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("the text " + tilde + "'s character \"~\" at byte offset"), qPrintable(r.err));
        r = run({"train", "--data", m_tmp.path() + "/text.tbw", "--model", "small-text-lstm", "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("looks binary"), qPrintable(r.err));
        // A text model meeting images, and the reverse, says which is which.
        r = run({"train", "--model", "small-text-lstm", "--no-run-folder"}); // the default data: images
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("small-text-lstm is a text model: give --data a text file"), qPrintable(r.err));
        r = run({"train", "--data", m_data, "--model", "small-text-lstm", "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(m_data + " holds IDX images, not texts"), qPrintable(r.err));
        r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--model", m_data + "/toy.json",
                 "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("GPL-3 is a text, and toy is not a text model: a text model starts with an Embedding "
                                "layer, as small-text-lstm does"),
                 qPrintable(r.err));
        // An IDX file for its folder, a device for a text, a folder of texts without --model.
        r = run({"train", "--data", m_data + "/train-images-idx3-ubyte.gz", "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("train-images-idx3-ubyte.gz is a file; choose the folder that holds the IDX files"),
                 qPrintable(r.err));
        for (const QStringList& args : {QStringList{"train", "--data", "/dev/null", "--no-run-folder"},
                                        QStringList{"evaluate", "--data", "/dev/null", "--weights", weights}}) {
            r = run(args);
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains("/dev/null is not a regular file (a device, pipe or socket): give a text file"),
                     qPrintable(r.err));
        }
        r = run({"evaluate", "--data", m_data, "--weights", weights});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("holds a text model (small-text-lstm): evaluate it on a text"), qPrintable(r.err));
        // A folder of texts, as train reads it: evaluate reads it too (it looked for IDX files there).
        const QString texts = m_tmp.path() + "/texts";
        QVERIFY(QDir().mkpath(texts));
        QVERIFY(QFile::copy("/usr/share/common-licenses/GPL-3", texts + "/GPL-3"));
        QVERIFY(QFile::copy("/usr/share/common-licenses/Apache-2.0", texts + "/Apache-2.0"));
        // Without --model a folder of texts trains the text model, as a text file does; a folder of
        // binary files (images of another format) the image model, and says how to train a text one.
        r = run({"train", "--data", texts, "--max-batches", "1", "--epochs", "1", "--no-run-folder"});
        QVERIFY2(r.code == 0 && r.out.contains("Model small-text-lstm"), qPrintable(r.out + r.err));
        const QString pictures = m_tmp.path() + "/pictures";
        QVERIFY(QDir().mkpath(pictures));
        fixtures::writeRaw((pictures + "/a.png").toStdString(), std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
        r = run({"train", "--data", pictures, "--max-batches", "1", "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("no train-images-idx3-ubyte[.gz] file in " + pictures +
                                " (if it holds texts, they train a text model: --model small-text-lstm)"),
                 qPrintable(r.err));
        const QString folderWeights = m_tmp.path() + "/texts.tbw";
        r = run({"train", "--data", texts, "--model", "small-text-lstm", "--epochs", "1", "--batch", "16",
                 "--max-batches", "1", "--sequence-length", "32", "--no-run-folder", "--save", folderWeights});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString trained = r.out.mid(r.out.lastIndexOf("Test loss: ")).section(" - weights", 0, 0);
        r = run({"evaluate", "--data", texts, "--weights", folderWeights});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(trained), qPrintable(trained + " in " + r.out)); // the run's own last evaluation
        // Without --model, a text file trains the small text model (a folder, the image default).
        r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--epochs", "1", "--batch", "16",
                 "--max-batches", "1", "--no-run-folder"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("small-text-lstm trains with its own settings") &&
                     r.out.section('\n', 1, 1).startsWith("Model small-text-lstm ("),
                 qPrintable(r.out.left(300)));
    }

    void trainJsonAndThreadsGiveSameHash()
    {
        const QStringList common = {"train",    "--data", m_data,    "--model", m_data + "/toy.json",
                                    "--epochs", "2",      "--batch", "32",      "--seed",
                                    "11",       "--json"};
        const Result one = run(common + QStringList{"--threads", "1"});
        const Result two = run(common + QStringList{"--threads", "2"});
        QCOMPARE(one.code, 0);
        QCOMPARE(two.code, 0);
        const auto a = jsonLines(one.out), b = jsonLines(two.out);
        QCOMPARE(a.first()["event"].toString(), QString("start"));
        QCOMPARE(a.last()["event"].toString(), QString("done"));
        int epochs = 0, batches = 0;
        for (const auto& o : a) {
            epochs += o["event"].toString() == "epoch";
            batches += o["event"].toString() == "batch";
            if (o["event"].toString() == "epoch") { // the epoch record as run.json keeps it
                QVERIFY(o.contains("stopped") && o.contains("rate_lowered") && o.contains("best"));
                QCOMPARE(o["samples"].toInt(), 200);
                QVERIFY(!o.contains("early_stopping") && !o.contains("learning_rate_lowered"));
            }
        }
        QCOMPARE(epochs, 2);
        QCOMPARE(batches, 2 * 7); // ceil(200 / 32)
        const QString sha = a.last()["weights_sha256"].toString();
        QCOMPARE(sha.size(), 64);
        QCOMPARE(b.last()["weights_sha256"].toString(), sha);
        // More threads than cores: the same weights, and a note that says it is no faster.
        const int cores = tb::hardwareThreads();
        const Result over = run(common + QStringList{"--threads", QString::number(cores + 1)});
        QCOMPARE(over.code, 0);
        const auto c = jsonLines(over.out);
        QCOMPARE(c.last()["weights_sha256"].toString(), sha);
        QVERIFY2(
            c.first()["setup_note"].toString().startsWith(QString("%1 threads on %2 core").arg(cores + 1).arg(cores)),
            qPrintable(over.out));
        QVERIFY(!a.first().contains("setup_note"));
        const Result overText =
            run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches", "1",
                 "--no-run-folder", "--device", QString("cpu:%1").arg(cores + 1)});
        QVERIFY2(overText.out.contains(QString("so it trains no faster than cpu:%1").arg(cores)),
                 qPrintable(overText.out));
        const Result other = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "2",
                                  "--batch", "32", "--seed", "12", "--json"});
        QVERIFY(jsonLines(other.out).last()["weights_sha256"].toString() != sha);
    }

    // An ONNX file is all a run without a run folder keeps when --save names one: said at the start.
    void savingOnlyAnOnnxFileIsSaid()
    {
        const QString onnx = m_tmp.path() + "/only.onnx";
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches",
                        "1", "--no-run-folder", "--save", onnx});
        QVERIFY2(r.code == 0 && QFileInfo::exists(onnx), qPrintable(r.err));
        QVERIFY2(r.err.contains("note: " + onnx + " is for other tools: Trainbench does not read ONNX back"),
                 qPrintable(r.err));
        r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches", "1",
                 "--no-run-folder", "--save", m_tmp.path() + "/only.tbw"});
        QVERIFY2(r.code == 0 && !r.err.contains("note: "), qPrintable(r.err));
    }

    // A TRAINBENCH_MPI_TIMEOUT that is not a number of seconds is a usage error with its reason. The
    // error path read it again and threw inside its own handler: std::terminate, exit code 134.
    void aBadMpiTimeoutIsAUsageError()
    {
        for (const char* bad : {"abc", "0", "-5"}) {
            qputenv("TRAINBENCH_MPI_TIMEOUT", bad);
            const Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1",
                                  "--max-batches", "1", "--no-run-folder"});
            qunsetenv("TRAINBENCH_MPI_TIMEOUT");
            QCOMPARE(r.code, 2);
            QVERIFY2(
                r.err.contains(QString("trainbench-cli train: TRAINBENCH_MPI_TIMEOUT=%1: expected a positive number "
                                       "of seconds")
                                   .arg(bad)),
                qPrintable(r.err));
        }
    }

    void textOutputIsKerasLike()
    {
        const Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--batch",
                              "40", "--drop-remainder", "--size-multiplier", "2", "--max-batches", "3"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Epoch 1/1"));
        QVERIFY(r.out.contains("3/3 [==============================]"));
        QVERIFY(r.out.contains("val_accuracy:"));
        QVERIFY(r.out.contains("Test loss:"));
        QVERIFY(r.out.contains("weights sha256:"));
        QVERIFY(r.out.contains("24x24")); // 12x12 images scaled by 2
        // Held-out validation images are counted in the header.
        const Result split = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1",
                                  "--max-batches", "1", "--validation-split", "0.25", "--no-run-folder"});
        QCOMPARE(split.code, 0);
        QVERIFY2(split.out.contains(": 150 train / 50 validation (held out of train) / 50 test images"),
                 qPrintable(split.out));
    }

    void saveThenEvaluate()
    {
        const QString w = m_tmp.path() + "/model.tbw";
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "3", "--batch", "25",
                        "--seed", "3", "--save", w, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject done = jsonLines(r.out).last();
        r = run({"evaluate", "--data", m_data, "--weights", w, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject ev = jsonLines(r.out).last();
        // One spelling of a test result (config/records.hpp) in train's and evaluate's lines.
        const QJsonObject evTest = ev["test"].toObject(), doneTest = done["test"].toObject();
        QCOMPARE(evTest["accuracy"].toDouble(), doneTest["accuracy"].toDouble());
        QCOMPARE(evTest["samples"].toInt(), 50);
        QCOMPARE(doneTest["samples"].toInt(), 50);
        QCOMPARE(ev["weights_sha256"].toString(), done["weights_sha256"].toString());
        const int wrong = evTest["misclassified"].toInt();
        QCOMPARE(wrong, qRound((1.0 - evTest["accuracy"].toDouble()) * 50));
        r = run({"evaluate", "--data", m_data, "--weights", w});
        QVERIFY(r.out.contains("misclassified: " + QString::number(wrong) + " of 50"));
    }

    // An OpenCL device's evaluation keeps its compiled kernels in the cache folder, as training does.
    void evaluateOnOpenClUsesTheKernelCache()
    {
        if (!run({"devices"}).out.contains("opencl:0 "))
            QSKIP("no OpenCL device here");
        const QString w = m_tmp.path() + "/for-opencl.tbw";
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--batch", "25",
                        "--seed", "4", "--no-run-folder", "--save", w});
        QCOMPARE(r.code, 0);
        const QString cache = m_tmp.path() + "/xdg-cache";
        qputenv("XDG_CACHE_HOME", cache.toUtf8());
        r = run({"evaluate", "--data", m_data, "--weights", w, "--device", "opencl:0"});
        qunsetenv("XDG_CACHE_HOME");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("Evaluated on opencl:0"));
        QVERIFY2(!QDir(cache + "/trainbench/opencl").entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty(),
                 "no compiled kernels were cached");
    }

    // export -> evaluate the export: same predictions, same hash; errors with their exit codes.
    void exportThenEvaluateTheExport()
    {
        const QString w = m_tmp.path() + "/exported.tbw";
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--batch", "25",
                        "--seed", "5", "--save", w});
        QCOMPARE(r.code, 0);
        r = run({"export", "--weights", w, "--format", "safetensors", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject ex = jsonLines(r.out).last();
        const QString st = m_tmp.path() + "/exported.safetensors";
        QCOMPARE(ex["path"].toString(), st);
        // Back without --out would be exported.tbw, which holds the run's history and optimizer state:
        // not replaced unasked (an export is). Only --out names a .tbw to replace.
        const QByteArray original = fileBytes(w);
        r = run({"export", "--weights", st, "--format", "tbw"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(w + " exists, and may hold a run's history and optimizer state: give --out " + w +
                                " to replace it, or another name"),
                 qPrintable(r.err));
        QCOMPARE(fileBytes(w), original);
        QCOMPARE(run({"export", "--weights", w, "--format", "safetensors"}).code, 0); // an export is replaced
        QVERIFY(!run({"evaluate", "--data", m_data, "--weights", st, "--limit", "3"}).err.contains("warning"));
        // A weight's lowest bit flipped: the file still reads, and says
        // that its weights are not those its metadata records (an edit in another program, or damage).
        QByteArray flipped = fileBytes(st);
        const qint64 headerSize = qFromLittleEndian<qint64>(flipped.constData());
        const QJsonObject tensors = QJsonDocument::fromJson(flipped.mid(8, int(headerSize))).object();
        qint64 at = -1, largest = 0; // the largest F32 tensor's: a kernel (a BatchNorm's ones are checked)
        for (auto it = tensors.begin(); it != tensors.end(); ++it) {
            const QJsonArray offsets = it.value().toObject()["data_offsets"].toArray();
            const qint64 size = qint64(offsets[1].toDouble() - offsets[0].toDouble());
            if (it.value().toObject()["dtype"].toString() == "F32" && size > largest) {
                largest = size;
                at = 8 + headerSize + qint64(offsets[0].toDouble());
            }
        }
        QVERIFY(at > 0);
        flipped[at] = char(flipped[at] ^ 1);
        const QString changed = m_tmp.path() + "/changed.safetensors";
        fixtures::writeRaw(changed.toStdString(), flipped.toStdString());
        r = run({"evaluate", "--data", m_data, "--weights", changed, "--limit", "3"});
        QVERIFY2(r.code == 0 && r.err.contains("warning: " + changed +
                                               "'s weights differ from the SHA-256 its metadata records ("),
                 qPrintable(r.err));
        r = run({"export", "--weights", st, "--out", m_tmp.path() + "/exported.onnx"});
        QCOMPARE(r.code, 0);
        QVERIFY(QFileInfo(m_tmp.path() + "/exported.onnx").size() > 1000);
        // An extension in capitals names its format too; --weights is asked for first.
        r = run({"export", "--weights", st, "--out", m_tmp.path() + "/EXPORTED.ONNX"});
        QVERIFY2(r.code == 0 && r.out.contains("(onnx)"), qPrintable(r.err));
        QCOMPARE(fileBytes(m_tmp.path() + "/EXPORTED.ONNX"), fileBytes(m_tmp.path() + "/exported.onnx"));
        r = run({"export"});
        QVERIFY2(r.code == 2 && r.err.contains("--weights FILE is required"), qPrintable(r.err));
        // To standard output (a pipe here): the weights alone there, what was written on stderr.
        r = run({"export", "--weights", w, "--format", "safetensors", "--out", "/dev/stdout"});
        QCOMPARE(r.code, 0);
        QVERIFY(!r.out.contains("Wrote") && r.out.contains("__metadata__"));
        QVERIFY2(r.err.startsWith("Wrote /dev/stdout (safetensors)"), qPrintable(r.err));
        r = run({"evaluate", "--data", m_data, "--weights", w, "--limit", "3", "--predictions", "/dev/stdout"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("index,label,predicted,"), qPrintable(r.out));
        // "-" is standard output for export, as for report; elsewhere it is refused, not a file named "-".
        const Result dash = run({"export", "--weights", w, "--format", "safetensors", "--out", "-"});
        QCOMPARE(dash.code, 0);
        QVERIFY(dash.out.contains("__metadata__"));
        QVERIFY(!QFile::exists("-"));
        r = run({"export", "--weights", w, "--out", "-"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out - (standard output) needs --format onnx|safetensors|tbw"), qPrintable(r.err));
        r = run({"evaluate", "--data", m_data, "--weights", w, "--limit", "3", "--predictions", "-"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--predictions -: give a file name, or /dev/stdout for standard output"),
                 qPrintable(r.err));

        const QString a = m_tmp.path() + "/a.csv", b = m_tmp.path() + "/b.csv";
        r = run({"evaluate", "--data", m_data, "--weights", w, "--limit", "30", "--predictions", a, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject ea = jsonLines(r.out).last();
        r = run({"evaluate", "--data", m_data, "--weights", st, "--limit", "30", "--predictions", b, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject eb = jsonLines(r.out).last();
        QCOMPARE(ea["test"].toObject()["samples"].toInt(), 30);
        QCOMPARE(eb["weights_sha256"].toString(), ea["weights_sha256"].toString());
        QCOMPARE(ex["weights_sha256"].toString(), ea["weights_sha256"].toString());
        QFile fa(a), fb(b);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray csv = fa.readAll();
        QCOMPARE(fb.readAll(), csv);
        QCOMPARE(csv.count('\n'), 31);
        QVERIFY(csv.startsWith("index,label,predicted,p_0,p_1,p_2\n0,"));

        r = run({"export", "--weights", w, "--format", "pt"});
        QCOMPARE(r.code, 2);
        r = run({"evaluate", "--data", m_data, "--weights", m_tmp.path() + "/exported.onnx"});
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("export"));
        // A header that claims more bytes than the file has, and the weights of another model.
        QFile lying(m_tmp.path() + "/lying.safetensors");
        QVERIFY(lying.open(QIODevice::WriteOnly));
        lying.write(QByteArray("\x00\x00\x00\x00\x00\x01\x00\x00{}", 10));
        lying.close();
        r = run({"evaluate", "--data", m_data, "--weights", lying.fileName()});
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("header length"));
        QFile foreign(m_tmp.path() + "/foreign.safetensors");
        QVERIFY(foreign.open(QIODevice::WriteOnly));
        const QByteArray header = R"({"0.weight":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        QByteArray bytes(8, '\0');
        bytes[0] = char(header.size());
        foreign.write(bytes + header + QByteArray(8, '\0'));
        foreign.close();
        r = run({"evaluate", "--data", m_data, "--weights", foreign.fileName()});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("--model"));
        r = run({"evaluate", "--data", m_data, "--weights", foreign.fileName(), "--model", m_data + "/toy.json"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("tensor \"0.weight\""), qPrintable(r.err));
        // predict takes --model as evaluate does (tst_predict), and asks for it.
        r = run({"predict", "--image", m_tmp.path() + "/any.png", "--weights", foreign.fileName()});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("(written by another program?): say which model its tensors belong to (--model "
                                "NAME|FILE"),
                 qPrintable(r.err));
    }

    // Weights evaluated on a dataset whose classes have other names (Fashion-MNIST's weights on MNIST):
    // evaluated, with a warning on stderr and in the JSON line. Names that only number the classes
    // (no classes.txt: "class 0", ...) are not compared.
    void evaluateWarnsOfOtherClasses()
    {
        const QString clothes = m_tmp.path() + "/clothes", colours = m_tmp.path() + "/colours";
        for (const QString& d : {clothes, colours}) {
            QVERIFY(QDir().mkpath(d));
            fixtures::writeToyDataset(d.toStdString(), 200, 50, 12, 3, true);
        }
        fixtures::writeRaw(clothes.toStdString() + "/classes.txt", "shirt\ntrouser\nbag\n");
        fixtures::writeRaw(colours.toStdString() + "/classes.txt", "red\ngreen\nblue\n");
        const QString w = m_tmp.path() + "/clothes.tbw";
        Result r = run({"train", "--data", clothes, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches",
                        "1", "--no-run-folder", "--save", w});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run({"evaluate", "--data", colours, "--weights", w});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.startsWith("trainbench-cli evaluate: warning: the weights were trained on a dataset with other "
                                  "classes (" +
                                  clothes + ": shirt, trouser, bag) than " + colours + " (red, green, blue)"),
                 qPrintable(r.err));
        QVERIFY(r.out.contains("Test loss: "));
        r = run({"evaluate", "--data", colours, "--weights", w, "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(jsonLines(r.out).last()["warning"].toString().startsWith(
                     "the weights were trained on a dataset with other classes"),
                 qPrintable(r.out));
        QVERIFY(r.err.contains("warning: "));
        for (const QString& same : {clothes, m_data}) { // its own classes; numbered ones
            r = run({"evaluate", "--data", same, "--weights", w, "--json"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
            QVERIFY(!jsonLines(r.out).last().contains("warning"));
        }
        // Images half the size the model takes are evaluated enlarged, and the note says so (it was silent).
        const QString small = m_tmp.path() + "/small";
        QVERIFY(QDir().mkpath(small));
        fixtures::writeToyDataset(small.toStdString(), 20, 10, 6, 3, true);
        fixtures::writeRaw(small.toStdString() + "/classes.txt", "shirt\ntrouser\nbag\n");
        r = run({"evaluate", "--data", small, "--weights", w});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err == "trainbench-cli evaluate: note: the model takes 12x12 images and " + small +
                              " holds 6x6 ones: they are enlarged 2 times (each pixel repeated) to fit\n",
                 qPrintable(r.err));
    }

    // Evaluation reads only the test split: a damaged training file does not stop it (the same result as
    // beside a good one). --precise-bn, which recomputes statistics over the training images, names it.
    void evaluateNeedsOnlyTheTestSplit()
    {
        const QString good = m_tmp.path() + "/good", damaged = m_tmp.path() + "/damaged";
        for (const QString& d : {good, damaged}) {
            QVERIFY(QDir().mkpath(d));
            fixtures::writeToyDataset(d.toStdString(), 200, 50, 12, 3, false);
        }
        fixtures::writeRaw(damaged.toStdString() + "/train-images-idx3-ubyte", "not an IDX file");
        const QString w = m_tmp.path() + "/good.tbw";
        Result r = run({"train", "--data", good, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches", "2",
                        "--no-run-folder", "--save", w});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const Result before = run({"evaluate", "--data", good, "--weights", w});
        QVERIFY2(before.code == 0, qPrintable(before.err));
        r = run({"evaluate", "--data", damaged, "--weights", w});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out, before.out);
        r = run({"evaluate", "--data", damaged, "--weights", w, "--precise-bn", "1"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("train-images-idx3-ubyte"), qPrintable(r.err));
    }

    // --model says which model a safetensors file of another program holds. A .tbw, and a safetensors
    // file Trainbench exported, name their own: a --model naming another is refused, not ignored.
    void modelOptionMustAgreeWithTheWeights()
    {
        const QString w = m_tmp.path() + "/named.tbw", st = m_tmp.path() + "/named.safetensors";
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "1", "--max-batches",
                        "1", "--no-run-folder", "--save", w});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(run({"export", "--weights", w, "--out", st}).code, 0);
        for (const QString& file : {w, st}) {
            r = run({"evaluate", "--data", m_data, "--weights", file, "--model", "tpu-mnist-cnn"});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(file + " holds toy, not --model tpu-mnist-cnn: the file names its model, so leave "
                                           "out --model"),
                     qPrintable(r.err));
            QVERIFY(!r.out.contains("Test loss"));
            r = run({"evaluate", "--data", m_data, "--weights", file, "--model", m_data + "/toy.json"});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
        r = run({"export", "--weights", w, "--data", m_data, "--model", "colab-fashion-cnn", "--out",
                 m_tmp.path() + "/never.onnx"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("holds toy, not --model colab-fashion-cnn"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_tmp.path() + "/never.onnx"));
    }

    // Messages name what the user typed: the device as given (and what an alias stands for), a seed
    // out of range with the range; the help gives --top's range as the refusal does.
    void messagesNameWhatWasTyped()
    {
        if (run({"devices"}).out.contains("cuda:0 "))
            QSKIP("this machine has a GPU: gpu:0 can train");
        Result r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--device", "gpu:0",
                        "--max-batches", "1", "--no-run-folder"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("trainbench-cli train: --device gpu:0 (cuda:0) cannot train: no GPU available"),
                 qPrintable(r.err));
        QVERIFY(!r.out.contains("Epoch 1/"));
        r = run({"evaluate", "--data", m_data, "--weights", m_tmp.path() + "/any.tbw", "--device", "cuda:0"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("trainbench-cli evaluate: --device cuda:0 cannot evaluate: no GPU available"),
                 qPrintable(r.err));
        r = run({"train", "--data", m_data, "--seed", "18446744073709551616"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli train: --seed must be between 0 and 18446744073709551615 (got "
                                "18446744073709551616)\n"));
        r = run({"train", "--data", m_data, "--seed", "-1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--seed needs a non-negative whole number"), qPrintable(r.err));
        r = run({"predict", "--help"});
        QVERIFY2(r.out.contains("the K most probable classes, 1 to the model's number of classes (3)"),
                 qPrintable(r.out));
    }

    // What a command prints that cannot reach its standard output (a file on a full disk) fails the
    // command as a file it cannot write does: exit 5 with the reason, not 0 with the output lost.
    void outputThatCannotBeWrittenFails()
    {
        if (::access("/dev/full", W_OK) != 0)
            QSKIP("no /dev/full to write to");
        for (const QStringList& args : {QStringList{"presets"}, QStringList{"summary", "--model", "tpu-mnist-cnn"},
                                        QStringList{"--help"}, QStringList{"train", "--help"}}) {
            QProcess p;
            p.setStandardOutputFile(QStringLiteral("/dev/full"));
            p.start(QStringLiteral(TRAINBENCH_CLI), args);
            QVERIFY(p.waitForFinished(60000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QCOMPARE(p.exitCode(), 5);
            QVERIFY2(err.contains("cannot write to the standard output: No space left on device"), qPrintable(err));
        }
    }

    // A pipe whose reader ended (`| head`) stops a run as Ctrl-C does, its work kept and the reason
    // said, exit code 5; SIGPIPE ended it in silence, the weights unsaved. A file-size limit (ulimit -f)
    // is a file that cannot be written, exit code 5; SIGXFSZ ended the command in silence.
    void aClosedPipeOrAFileSizeLimitIsAnErrorNotASignal()
    {
        // As many epochs as a run takes: it ends through the closed pipe only, however late head runs.
        const QString cli = QStringLiteral(TRAINBENCH_CLI), saved = m_tmp.path() + "/piped.tbw";
        const QString piped =
            QStringLiteral("'%1' train --data '%2' --model '%2/toy.json' --epochs 100000 --batch 8 --no-run-folder "
                           "--save '%3' | head -1; echo \"rc=${PIPESTATUS[0]}\" >&2")
                .arg(cli, m_data, saved);
        Result r = fixtures::runCli(QStringLiteral("bash"), {"-c", piped});
        QVERIFY2(r.err.contains("rc=5\n"), qPrintable(r.err));
        QVERIFY2(r.err.contains("Stopped: cannot write to the standard output: Broken pipe; the weights so far were "
                                "saved to " +
                                saved),
                 qPrintable(r.err));
        QVERIFY(QFileInfo::exists(saved));
        const QString limited = QStringLiteral("ulimit -f 4; '%1' export --weights '%2' --out '%3/limited.onnx'")
                                    .arg(cli, saved, m_tmp.path());
        r = fixtures::runCli(QStringLiteral("bash"), {"-c", limited});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("limited.onnx: File too large; nothing was written"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(m_tmp.path() + "/limited.onnx"));
    }

    // SIGHUP stops a run as SIGTERM does, unless it was ignored when the run started (nohup): then the
    // run goes on, epoch after epoch, and Ctrl-C still stops it.
    void hangUpStopsARunUnlessIgnored()
    {
        const QString cli = QStringLiteral(TRAINBENCH_CLI);
        const QString train = QStringLiteral("'%1' train --data '%2' --model '%2/toy.json' --epochs 100000 --batch 8 "
                                             "--no-run-folder --json")
                                  .arg(cli, m_data);
        for (const bool ignored : {false, true}) {
            QProcess p;
            p.start(QStringLiteral("bash"), {"-c", (ignored ? "trap '' HUP; exec " : "exec ") + train});
            QVERIFY(p.waitForStarted());
            QByteArray out;
            while (!out.contains("\"event\":\"epoch\"") && p.state() == QProcess::Running)
                if (p.waitForReadyRead(fixtures::kHangGuardMs))
                    out += p.readAllStandardOutput();
            ::kill(pid_t(p.processId()), SIGHUP);
            const int epochs = int(out.count("\"event\":\"epoch\""));
            // Ignored: more epochs come. Handled: the run stops within the epoch under way.
            while (p.state() == QProcess::Running && !out.contains("\"event\":\"stopped\"") &&
                   (!ignored || out.count("\"event\":\"epoch\"") < epochs + 2))
                if (p.waitForReadyRead(fixtures::kHangGuardMs))
                    out += p.readAllStandardOutput();
            if (ignored) {
                QVERIFY2(!out.contains("\"event\":\"stopped\""), out.right(300).constData());
                ::kill(pid_t(p.processId()), SIGINT);
            }
            QVERIFY(p.waitForFinished(fixtures::kHangGuardMs));
            out += p.readAllStandardOutput();
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 130);
            QVERIFY2(out.contains("\"event\":\"stopped\""), out.right(300).constData());
        }
    }

    // The cell of compare's CSV `line` under the column `name` of `header`, as written (quotes kept).
    static QString csvField(const QString& header, const QString& line, const QString& name)
    {
        QStringList cells{QString()}; // the description and the reason are quoted and may hold commas
        bool quoted = false;
        for (const QChar c : line) {
            if (c == '"')
                quoted = !quoted;
            if (c == ',' && !quoted)
                cells << QString();
            else
                cells.last() += c;
        }
        return cells.value(int(header.split(',').indexOf(name)));
    }

    // A skipped row of compare's CSV has no results: its measured fields are empty, not zeros, and
    // its reason is in the last column.
    void compareCsvLeavesASkippedRowsResultsEmpty()
    {
        const QString csv = m_tmp.path() + "/skipped.csv";
        const Result r = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                              "cpu:1,cpu:1@baseline+bf16", "--max-batches", "1", "--csv", csv});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        const auto field = [&](const QString& line, const QString& name) { return csvField(lines[0], line, name); };
        QVERIFY(lines[2].startsWith("cpu:1@baseline+bf16,"));
        for (const char* name : {"epochs", "samples", "seconds_per_epoch", "samples_per_sec", "speedup", "test_loss",
                                 "test_accuracy", "weights_sha256", "max_abs_diff"}) {
            QVERIFY2(field(lines[2], name).isEmpty(), name);
            QVERIFY2(!field(lines[1], name).isEmpty(), name);
        }
        QCOMPARE(field(lines[2], "replicas"), QString("1")); // the device's: what it would have run
        QVERIFY2(field(lines[2], "skipped").contains("bf16"), qPrintable(lines[2]));
        QCOMPARE(field(lines[1], "skipped"), QString("\"\""));
        // --json's device events likewise: a skipped device has its reason and no results.
        const Result j = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                              "cpu:1,cpu:1@baseline+bf16", "--max-batches", "1", "--json"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const QList<QJsonObject> devices = jsonEvents(j.out, "device");
        QCOMPARE(devices.size(), 2);
        QVERIFY(devices[0].contains("test") && devices[0].contains("samples_per_sec") &&
                !devices[0].contains("skipped"));
        QVERIFY(devices[1]["skipped"].toString().contains("bf16"));
        for (const char* name : {"test", "samples_per_sec", "seconds_per_epoch", "speedup", "weights_sha256"})
            QVERIFY2(!devices[1].contains(name), name);
    }

    void devicesReportsTheMachineAndWhyNoGpu()
    {
        const Result r = run({"devices"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("cpu "));
        QVERIFY(r.out.contains("no CUDA backend: GPUs train through OpenCL")); // this build has no CUDA backend
        // Every OpenCL device (PoCL in CI) as opencl:K, or why there is none.
        QVERIFY(r.out.contains("opencl:0 ") || r.out.contains("opencl   none usable: "));
        // bf16: how to ask for it, or why this CPU cannot.
        const std::string why = tb::precisionUnavailableReason(tb::Precision::Bf16, tb::Isa::Avx512);
        QVERIFY2(r.out.contains(why.empty() ? QString("cpu:N+bf16 or --precision bf16")
                                            : "bf16     not on this CPU: " + QString::fromStdString(why)),
                 qPrintable(r.out));
        // Where bf16 runs: whether the AMX tiles do, and why not.
        const std::string amx = tb::bf16KernelsUnavailableReason(tb::Bf16Kernels::Amx);
        if (why.empty())
            QVERIFY2(r.out.contains(amx.empty() ? QString("AMX-BF16 tiles: yes")
                                                : "AMX-BF16 tiles: no, " + QString::fromStdString(amx)),
                     qPrintable(r.out));
    }

    // devices still lists the machine under a kernel setting this machine refuses (which stops every
    // other command), and says what is wrong; below the avx512 level it says how bf16 is asked for.
    void devicesUnderTheEnvironmentsSettings()
    {
        qputenv("TRAINBENCH_BF16_KERNELS", "tiles");
        const Result bad = run({"devices"});
        const Result summary = run({"summary"});
        qunsetenv("TRAINBENCH_BF16_KERNELS");
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.out.contains("cpu ") && bad.out.contains("mpi "), qPrintable(bad.out));
        QVERIFY2(bad.err.startsWith("trainbench-cli devices: TRAINBENCH_BF16_KERNELS=tiles: "), qPrintable(bad.err));
        QCOMPARE(summary.code, 2);
        QVERIFY2(summary.err.contains("TRAINBENCH_BF16_KERNELS=tiles: "), qPrintable(summary.err));

        qputenv("TRAINBENCH_ISA", "baseline");
        const Result low = run({"devices"});
        qunsetenv("TRAINBENCH_ISA");
        QCOMPARE(low.code, 0);
        QVERIFY2(low.out.contains("kernels  baseline kernels"), qPrintable(low.out));
        if (tb::precisionUnavailableReason(tb::Precision::Bf16, tb::Isa::Avx512).empty()) {
            QVERIFY2(low.out.contains("bf16     cpu:N@avx512+bf16: "), qPrintable(low.out));
            QVERIFY2(low.out.contains("not cpu:N+bf16 at TRAINBENCH_ISA's level: "), qPrintable(low.out));
        }
    }

    void compareGivesIdenticalHashesOnCpuDevices()
    {
        const QString csv = m_tmp.filePath("compare.csv");
        const Result r =
            run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices", "cpu:1,cpu:2,cpu:3,cuda:0",
                 "--epochs", "2", "--batch", "32", "--seed", "5", "--csv", csv, "--json"});
        QCOMPARE(r.code, 0);
        const QList<QJsonObject> rows = jsonEvents(r.out, "device");
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0]["device"].toString(), QString("cpu:1"));
        QCOMPARE(rows[1]["replicas"].toInt(), 2);
        const QString sha = rows[0]["weights_sha256"].toString();
        QCOMPARE(sha.size(), 64);
        QCOMPARE(rows[1]["weights_sha256"].toString(), sha);
        QCOMPARE(rows[2]["weights_sha256"].toString(), sha);
        QCOMPARE(rows[1]["max_abs_diff"].toDouble(), 0.0);
        QVERIFY(rows[0]["samples_per_sec"].toDouble() > 0);
        QCOMPARE(rows[0]["speedup"].toDouble(), 1.0);
        QCOMPARE(rows[0]["test"].toObject()["samples"].toInt(), 50); // the test result record
        QCOMPARE(rows[1]["test"].toObject()["accuracy"].toDouble(), rows[0]["test"].toObject()["accuracy"].toDouble());
        QVERIFY(rows[3]["skipped"].toString().contains("no CUDA backend: GPUs train through OpenCL"));

        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 4); // a header and one row per device
        QVERIFY(lines[0].startsWith("device,precision,description,sweep_value,replicas,global_batch"));
        QVERIFY(lines[1].startsWith("cpu:1,"));
        QVERIFY(lines[2].contains(sha));
        QVERIFY(lines[4].startsWith("cuda:0,"));

        // The text table, and a batch sweep giving one row per (value, device).
        const Result text = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                                 "cpu:1,cpu:2", "--epochs", "1", "--seed", "5", "--sweep", "batch=16,64"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("speed-up"));
        QCOMPARE(text.out.count(QRegularExpression("^cpu:[12] ", QRegularExpression::MultilineOption)), 4);
        QVERIFY2(text.out.contains("[3/4] cpu:1 (batch 64, size x1): "), qPrintable(text.out));
        QVERIFY2(text.out.endsWith(
                     "\nspeed-up and max |dw|: against the first device that ran at the same batch and size\n"),
                 qPrintable(text.out));
    }

    // Each CPU device can name its instruction-set level: the same cores at AVX2 and AVX-512 give
    // the same weights, the baseline its own; the level shows in the row and in the train header.
    void compareAcrossInstructionSets()
    {
        const QStringList levels = run({"devices"}).out.section("this CPU runs ", 1).section(" (", 0, 0).split(", ");
        QVERIFY2(levels.contains("baseline"), qPrintable(levels.join(' ')));
        QStringList devices;
        for (const QString& level : levels)
            devices << "cpu:2@" + level;
        const Result r = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                              devices.join(','), "--epochs", "1", "--batch", "32", "--seed", "5", "--json"});
        QCOMPARE(r.code, 0);
        const QList<QJsonObject> rows = jsonEvents(r.out, "device");
        QCOMPARE(rows.size(), levels.size());
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i]["device"].toString(), devices[i]);
            QVERIFY2(rows[i]["description"].toString().contains(levels[i] + " kernels"),
                     qPrintable(rows[i]["description"].toString()));
        }
        if (levels.contains("avx512"))
            QCOMPARE(rows[2]["weights_sha256"].toString(), rows[1]["weights_sha256"].toString());
        const Result header = run(
            {"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--isa", "baseline"});
        QCOMPARE(header.code, 0);
        QVERIFY2(header.out.contains("baseline kernels (SSE4.2"), qPrintable(header.out));
        const Result bad = run({"compare", "--data", m_data, "--devices", "cpu:1@avx3"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("unknown instruction set \"avx3\" (use baseline, avx2 or avx512)"),
                 qPrintable(bad.err));
    }

    // --precision on train, evaluate and compare, and per device (cpu:1+bf16): bf16 runs where the
    // CPU has AVX512_BF16 and is refused with the reason elsewhere (never emulated); cpu:1@avx2+bf16
    // is refused on every CPU, and cpu:1+bf16@avx2 with the order to write them in. The header names
    // FP32 too; the names take any case.
    // Weights trained in bf16 evaluated where bf16 cannot run (the avx2 level, on every CPU): the note
    // says why instead of advising a --precision that would be refused. The file is an FP32 one whose
    // record says bf16.
    void evaluateNotesWhyBf16CannotRunHere()
    {
        const QString fp32 = m_tmp.filePath("noted-fp32.tbw"), bf16 = m_tmp.filePath("noted-bf16.tbw");
        const Result trained = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1",
                                    "--no-run-folder", "--save", fp32});
        QCOMPARE(trained.code, 0);
        tb::WeightsFile w = tb::loadWeights(fp32.toStdString());
        w.train.device.precision = tb::Precision::Bf16;
        tb::saveWeights(bf16.toStdString(), w);
        const Result ev = run({"evaluate", "--data", m_data, "--weights", bf16, "--isa", "avx2"});
        if (!tb::isaSupported(tb::Isa::Avx2))
            QSKIP("this CPU has no AVX2");
        QCOMPARE(ev.code, 0);
        QVERIFY2(ev.err.startsWith("trainbench-cli evaluate: note: the weights were trained in bf16; this evaluation "
                                   "is fp32 (bf16 cannot run here: "),
                 qPrintable(ev.err));
        QVERIFY2(!ev.err.contains("--precision"), qPrintable(ev.err));
        // Named, no note.
        const Result named =
            run({"evaluate", "--data", m_data, "--weights", bf16, "--isa", "avx2", "--precision", "fp32"});
        QCOMPARE(named.code, 0);
        QVERIFY2(named.err.isEmpty(), qPrintable(named.err));
    }

    void precisionOnTrainEvaluateAndCompare()
    {
        const QStringList model = {"--data", m_data, "--model", m_data + "/toy.json", "--seed", "5"};
        const Result avx2 =
            run(QStringList{"train", "--max-batches", "1", "--device", "cpu:1@avx2+bf16", "--no-run-folder"} + model);
        QCOMPARE(avx2.code, 2);
        QVERIFY2(avx2.err.contains("bf16"), qPrintable(avx2.err));
        const Result order =
            run(QStringList{"train", "--max-batches", "1", "--device", "cpu:1+bf16@avx2", "--no-run-folder"} + model);
        QCOMPARE(order.code, 2);
        QVERIFY2(order.err.contains("the instruction set comes before the precision (cpu:1@avx2+bf16)"),
                 qPrintable(order.err));
        const Result fp32 =
            run(QStringList{"train", "--max-batches", "1", "--no-run-folder", "--precision", "FP32"} + model);
        QCOMPARE(fp32.code, 0);
        QVERIFY2(!fp32.out.contains("bf16") && !fp32.out.contains("bfloat16"), qPrintable(fp32.out));
        QVERIFY2(fp32.out.contains("CPU, 2 threads, FP32, batch ") || fp32.out.contains("CPU, 1 thread, FP32, batch "),
                 qPrintable(fp32.out));

        const QString why =
            QString::fromStdString(tb::precisionUnavailableReason(tb::Precision::Bf16, tb::Isa::Avx512));
        const QString w = m_tmp.filePath("bf16.tbw"), runs = m_tmp.filePath("bf16-runs");
        const Result bf16 = run(QStringList{"train", "--epochs", "1", "--batch", "32", "--precision", "bf16", "--save",
                                            w, "--runs-dir", runs} +
                                model);
        // cpu:2+fp32 names its precision and keeps it; cpu:1 takes --precision's.
        const Result compare = run(QStringList{"compare", "--devices", "cpu:1,cpu:2+fp32,cpu:1+bf16", "--precision",
                                               "bf16", "--epochs", "1", "--batch", "32", "--json"} +
                                   model);
        QCOMPARE(compare.code, 0);
        const QList<QJsonObject> rows = jsonEvents(compare.out, "device");
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[1]["device"].toString(), QString("cpu:2"));
        QVERIFY(!rows[1].contains("skipped"));
        if (!why.isEmpty()) {
            QCOMPARE(bf16.code, 2);
            QVERIFY2(bf16.err.contains(why), qPrintable(bf16.err));
            QCOMPARE(rows[0]["skipped"].toString(), why);
            QCOMPARE(rows[2]["skipped"].toString(), why);
            QSKIP(qPrintable("bf16 is refused on this CPU, as it should be: " + why));
        }
        QCOMPARE(bf16.code, 0);
        QVERIFY2(bf16.out.contains(", bf16 (bfloat16 products, FP32 accumulation), batch 32"), qPrintable(bf16.out));
        QVERIFY2(bf16.out.contains("AVX512_BF16 kernel"), qPrintable(bf16.out));
        QDir runDir(runs);
        const QStringList folders = runDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(folders.size(), 1);
        QFile record(runDir.filePath(folders.first() + "/run.json"));
        QVERIFY(record.open(QIODevice::ReadOnly));
        const QJsonObject config = QJsonDocument::fromJson(record.readAll()).object()["config"].toObject();
        QCOMPARE(config["precision"].toString(), QString("bf16"));
        QVERIFY2(config["device"].toString().endsWith("+bf16"), qPrintable(config["device"].toString()));
        // evaluate in the run's precision prints the run's test result, to the bit.
        const QString test = bf16.out.section("Test loss: ", 1).section(" - weights", 0, 0);
        const Result ev = run({"evaluate", "--data", m_data, "--weights", w, "--precision", "bf16"});
        QCOMPARE(ev.code, 0);
        QVERIFY2(ev.out.contains("\nTest loss: " + test), qPrintable(ev.out + " / " + test));
        QVERIFY2(ev.out.startsWith("Evaluated on cpu:"), qPrintable(ev.out));
        QVERIFY2(ev.out.section('\n', 0, 0).endsWith("+bf16 (bfloat16 products, FP32 accumulation)"),
                 qPrintable(ev.out));
        QVERIFY2(ev.err.isEmpty(), qPrintable(ev.err));
        // In FP32 unless told, with a note that says how to evaluate as the run did.
        const Result evFp32 = run({"evaluate", "--data", m_data, "--weights", w});
        QCOMPARE(evFp32.code, 0);
        QVERIFY2(evFp32.out.section('\n', 0, 0).endsWith(" (FP32)"), qPrintable(evFp32.out));
        QCOMPARE(evFp32.err, QString("trainbench-cli evaluate: note: the weights were trained in bf16; this evaluation "
                                     "is fp32 (--precision bf16 evaluates as their run did)\n"));

        QCOMPARE(rows[0]["device"].toString(), QString("cpu:1+bf16"));
        QCOMPARE(rows[0]["precision"].toString(), QString("bf16"));
        QCOMPARE(rows[1]["precision"].toString(), QString("fp32"));
        QVERIFY2(rows[0]["description"].toString().contains("bfloat16"), qPrintable(rows[0]["description"].toString()));
        QCOMPARE(rows[2]["weights_sha256"].toString(), rows[0]["weights_sha256"].toString());
        QVERIFY(rows[1]["weights_sha256"].toString() != rows[0]["weights_sha256"].toString());
    }

    // A device that cannot set the model up (OpenCL and a text model's sequences) is a skipped row with the
    // reason: the other devices still run, and the table and CSV hold them all.
    void compareSkipsADeviceThatCannotRunTheModel()
    {
        if (!run({"devices"}).out.contains("opencl:0 "))
            QSKIP("no OpenCL device here");
        const QString csv = m_tmp.path() + "/text-compare.csv";
        const Result r = run({"compare", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm",
                              "--devices", "opencl:0,cpu:1", "--epochs", "1", "--max-batches", "2", "--batch", "16",
                              "--sequence-length", "32", "--csv", csv});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("skipped: layer 1 (embedding) works on sequences"), qPrintable(r.out));
        // The table, as the CSV, says what the skipped row was set to run with: 1 replica, batch 16, size 1.
        QVERIFY2(QRegularExpression(QStringLiteral("\nopencl:0 +1 +16 +1 +- ")).match(r.out).hasMatch(),
                 qPrintable(r.out));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].startsWith("opencl:0,") && lines[1].contains("works on sequences"));
        QVERIFY(lines[2].startsWith("cpu:1,") && lines[2].contains(",\"\",\"small-text-lstm\","));
        QVERIFY2(lines[2].endsWith(",32,bytes"), qPrintable(lines[2])); // the text's sequence length and vocabulary
        // Only the OpenCL device: nothing could set the model up, which ends it as train ends, with the
        // reason and exit code 3 (a model the device does not run), not 2.
        const Result only = run({"compare", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm",
                                 "--devices", "opencl:0", "--epochs", "1", "--max-batches", "1"});
        QCOMPARE(only.code, 3);
        QVERIFY2(only.err.contains("trainbench-cli compare: layer 1 (embedding) works on sequences"),
                 qPrintable(only.err));
        // What every row would refuse is refused before anything of the comparison is printed.
        for (const QStringList& images : {QStringList{"--size-multiplier", "2"}, QStringList{"--sweep", "size=1,2"}}) {
            const Result enlarged =
                run(QStringList{"compare", "--data", "/usr/share/common-licenses/GPL-3", "--model", "small-text-lstm",
                                "--devices", "cpu:1", "--epochs", "1", "--max-batches", "1"} +
                    images);
            QCOMPARE(enlarged.code, 2);
            QVERIFY2(enlarged.out.isEmpty(), qPrintable(enlarged.out));
            QVERIFY2(enlarged.err.contains("is a text: "), qPrintable(enlarged.err));
        }
    }

    // With the batch scaled by the replicas each device trains on its own batch, another run from the
    // same start: its weights are compared with the first row's at the same batch, not with cpu:1's.
    // The CSV and --json say what was compared (model, data, seed, limits), which the rows do not.
    void compareScaledBatchesAndWhatWasCompared()
    {
        const QString csv = m_tmp.path() + "/scaled.csv";
        const Result r =
            run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices", "cpu:1,cpu:2,cpu:1",
                 "--batch", "8", "--max-batches", "3", "--seed", "7", "--scale-batch", "--csv", csv});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("speed-up: against the first row that ran, cpu:1; max |dw| (the largest difference of "
                                "a weight): against the first row that ran at the same global batch (- where it is "
                                "that first row)\n"),
                 qPrintable(r.out));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].endsWith(",skipped,note,model,dataset,seed,max_batches,validation_limit,optimizer,"
                                  "learning_rate,sequence_length,vocabulary"));
        const auto field = [&](int row, const char* name) { return csvField(lines[0], lines[row], name); };
        QCOMPARE(field(1, "precision"), QString("fp32"));                           // as --json's device events say it
        QCOMPARE(field(2, "samples").toInt(), field(2, "epochs").toInt() * 3 * 16); // 3 batches of 16 an epoch
        QCOMPARE(field(2, "global_batch"), QString("16"));                          // cpu:2's: 8 per replica
        QCOMPARE(field(2, "max_abs_diff"), QString());    // the first at batch 16: none to differ from
        QCOMPARE(field(3, "max_abs_diff"), QString("0")); // cpu:1 again, against the first cpu:1
        QCOMPARE(field(1, "weights_sha256"), field(3, "weights_sha256"));
        QVERIFY(field(1, "weights_sha256") != field(2, "weights_sha256"));
        for (const QString& line : lines.mid(1))
            QVERIFY2(line.endsWith(",\"\",\"\",\"toy\",\"" + m_data + "\",7,3,0,adam,0.001,,"), qPrintable(line));
        const Result j =
            run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices", "cpu:1,cpu:2", "--batch",
                 "8", "--max-batches", "3", "--seed", "7", "--scale-batch", "--json", "--validation-limit", "20"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const QList<QJsonObject> events = jsonLines(j.out);
        QVERIFY(!events.isEmpty());
        const QJsonObject& start = events.front();
        QCOMPARE(start["event"].toString(), QString("start"));
        QCOMPARE(start["model"].toString(), QString("toy"));
        QCOMPARE(start["dataset"].toString(), m_data);
        QCOMPARE(start["seed"].toString(), QString("7"));
        QCOMPARE(start["max_batches"].toInt(), 3);
        QCOMPARE(start["validation_limit"].toInt(), 20);
        QCOMPARE(start["batch"].toInt(), 8);
        QVERIFY(start["scale_batch"].toBool());
        QCOMPARE(start["devices"].toArray().size(), 2);
        QVERIFY(!events.back().contains("max_abs_diff"));    // cpu:2, the first at its batch
        QCOMPARE(events[1]["max_abs_diff"].toDouble(), 0.0); // cpu:1, the first row
        // What each device trained, as the CSV's row says it.
        const int epochs = start["epochs"].toInt();
        QVERIFY(epochs > 0);
        QCOMPARE(events[1]["epochs"].toInt(), epochs);
        QCOMPARE(events[1]["samples"].toInt(), epochs * 3 * 8);      // 3 batches of 8 an epoch
        QCOMPARE(events.back()["samples"].toInt(), epochs * 3 * 16); // cpu:2's batch: 16
    }

    // Ctrl-C in the first device: nothing to compare, said so, and no CSV of a header alone (it printed an
    // empty table and "the rows above are the devices that finished").
    void compareStoppedBeforeAnyDeviceFinished()
    {
        const QString csv = m_tmp.path() + "/stopped-compare.csv";
        QProcess p;
        const QByteArray out = startUntil(p,
                                          {"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                                           "cpu:1,cpu:2", "--epochs", "1000", "--batch", "1", "--csv", csv},
                                          "[1/2] cpu:1");
        QVERIFY2(out.contains("[1/2] cpu:1"), out.constData());
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(fixtures::kHangGuardMs));
        QCOMPARE(p.exitCode(), 130);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("Stopped by the user before any device finished; nothing to compare"), qPrintable(err));
        QVERIFY(!QFile::exists(csv));
    }

    // SIGTERM (kill, a service manager's stop) stops a run as Ctrl-C does: between batches, the weights
    // saved, exit 130. The signal goes once the run has reported a batch, so it lands mid-run.
    void sigtermStopsAndSaves()
    {
        // A runs folder a shell would split (a space, a quote): the resume line quotes it.
        const QString w = m_tmp.path() + "/terminated.tbw", runs = m_tmp.path() + "/it's terminated";
        QProcess p;
        const QByteArray out = startUntil(p,
                                          {"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "2",
                                           "--batch", "1", "--runs-dir", runs, "--save", w, "--json"},
                                          "\"event\":\"batch\"");
        QVERIFY2(out.contains("\"event\":\"batch\""), out.constData());
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(fixtures::kHangGuardMs));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("Stopped by the user; the weights so far were saved to " + w + ".\n"), qPrintable(err));
        QVERIFY2(
            err.contains("Continue with: trainbench-cli train --resume '" + m_tmp.path() + "/it'\\''s terminated/"),
            qPrintable(err));
        // with the --save it was given: the run's settings do not keep it, and the file asked for would keep
        // the weights of the stop.
        QVERIFY2(err.contains(" --save " + w + "\n"), qPrintable(err));
        QVERIFY(QFile::exists(w));
        // --json's last line says so, as an error's would.
        const QList<QByteArray> events = (out + p.readAllStandardOutput()).trimmed().split('\n');
        const QJsonObject stopped = QJsonDocument::fromJson(events.last()).object();
        QCOMPARE(stopped["event"].toString(), QString("stopped"));
        QCOMPARE(stopped["exit_code"].toInt(), 130);
        QCOMPARE(stopped["saved"].toString(), w);
        QVERIFY(stopped["epoch"].toInt() >= 1 && stopped["step"].toInt() >= 0);
        QVERIFY(stopped["run_folder"].toString().startsWith(runs + "/"));
        // The history says where in its epoch the run stopped (`runs list` said "0/2 epochs" and nothing
        // of the steps; the window said "0 of 2 + 3/12 steps").
        const int step = stopped["step"].toInt();
        const QString list = run({"runs", "list", "--runs-dir", runs}).out;
        const QJsonObject listed =
            QJsonDocument::fromJson(run({"runs", "list", "--runs-dir", runs, "--json"}).out.toUtf8())
                .object()["runs"]
                .toArray()
                .first()
                .toObject();
        if (step > 0) {
            QVERIFY2(QRegularExpression(QStringLiteral(" stopped +%1/2 epochs \\+ %2/\\d+ steps ")
                                            .arg(stopped["epoch"].toInt() - 1)
                                            .arg(step))
                         .match(list)
                         .hasMatch(),
                     qPrintable(list));
            QCOMPARE(listed["partial_step"].toInt(), step);
            QCOMPARE(listed["partial_epoch"].toInt(), stopped["epoch"].toInt());
            const QString shown = run({"runs", "show", "latest", "--runs-dir", runs}).out;
            QVERIFY2(
                QRegularExpression(QStringLiteral("\n +%1 \\(%2/\\d+ steps, ").arg(stopped["epoch"].toInt()).arg(step))
                    .match(shown)
                    .hasMatch(),
                qPrintable(shown));
        } else {
            QVERIFY2(!list.contains(" steps "), qPrintable(list));
        }
        // Resumed (mid-epoch, most likely): the epoch's line comes before its progress, as in a fresh run.
        const QStringList folders = QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(folders.size(), 1);
        const Result r = run({"train", "--resume", runs + "/" + folders.first()});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n');
        const auto firstOf = [&](const QRegularExpression& re) {
            for (int i = 0; i < lines.size(); ++i)
                if (re.match(lines[i]).hasMatch())
                    return i;
            return -1;
        };
        const int epoch = firstOf(QRegularExpression("^Epoch [12]/2$"));
        const int progress = firstOf(QRegularExpression("^ *\\d+/\\d+ \\["));
        QVERIFY2(epoch >= 0 && progress > epoch, qPrintable(r.out));
    }

    // A run killed with SIGKILL: a second process that would resume it while it trains is refused (exit
    // code 5, naming the process); once it is gone, `runs list` and `runs show` call it interrupted
    // (not running forever) and its last checkpoint resumes it.
    void aRunIsTrainedByOneProcessAndAKilledOneIsInterrupted()
    {
        const QString runs = m_tmp.path() + "/killed-runs";
        QProcess p;
        // Step 2's line comes after step 1's checkpoint.
        const QByteArray out =
            startUntil(p,
                       {"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "2", "--batch", "1",
                        "--checkpoint-every", "1", "--threads", "1", "--runs-dir", runs, "--json"},
                       "\"step\":2,");
        QVERIFY2(out.contains("\"step\":2,"), out.constData());
        const QStringList folders = QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(folders.size(), 1);
        const QString folder = runs + "/" + folders.first();
        const Result twice = run({"train", "--resume", folder, "--threads", "1"});
        QCOMPARE(twice.code, 5);
        QVERIFY2(twice.err.contains(folder + " is being trained by process " + QString::number(p.processId()) + " on "),
                 qPrintable(twice.err));
        QCOMPARE(twice.out, QString());
        const QString listed = run({"runs", "list", "--runs-dir", runs, "--json"}).out;
        QVERIFY2(QJsonDocument::fromJson(listed.toUtf8())["runs"][0]["status"] == "running", qPrintable(listed));

        p.kill(); // SIGKILL: nothing records the run's end
        QVERIFY(p.waitForFinished(fixtures::kHangGuardMs));
        const QString after = run({"runs", "list", "--runs-dir", runs, "--json"}).out;
        QVERIFY2(QJsonDocument::fromJson(after.toUtf8())["runs"][0]["status"] == "interrupted", qPrintable(after));
        QVERIFY(run({"runs", "list", "--runs-dir", runs}).out.contains(" interrupted "));
        QVERIFY(QRegularExpression("\nStatus +interrupted\n")
                    .match(run({"runs", "show", "latest", "--runs-dir", runs}).out)
                    .hasMatch());
        QVERIFY2(QJsonDocument::fromJson(after.toUtf8())["runs"][0]["resumable"] == true, qPrintable(after));
        // The same run killed before its first checkpoint (its run.json alone, as after a kill in its
        // first epoch) cannot be resumed, and is not listed as one that can.
        const QString early = m_tmp.path() + "/killed-early/" + folders.first();
        QVERIFY(QDir().mkpath(early));
        QVERIFY(QFile::copy(folder + "/run.json", early + "/run.json"));
        const QString earlyJson = run({"runs", "list", "--runs-dir", m_tmp.path() + "/killed-early", "--json"}).out;
        QVERIFY2(QJsonDocument::fromJson(earlyJson.toUtf8())["runs"][0]["status"] == "interrupted",
                 qPrintable(earlyJson));
        QVERIFY2(QJsonDocument::fromJson(earlyJson.toUtf8())["runs"][0]["resumable"] == false, qPrintable(earlyJson));
        const QString earlyList = run({"runs", "list", "--runs-dir", m_tmp.path() + "/killed-early"}).out;
        QVERIFY2(earlyList.contains(" interrupted, no checkpoint (cannot resume) "), qPrintable(earlyList));
        // A text's settings are the run's too: they were taken and ignored.
        for (const QStringList& extra :
             {QStringList{"--sequence-length", "10"}, QStringList{"--vocabulary", "bytes"}}) {
            const Result refused = run(QStringList{"train", "--resume", folder} + extra);
            QCOMPARE(refused.code, 2);
            QVERIFY2(refused.err.contains(extra.first() + " cannot change them"), qPrintable(refused.err));
        }
        // Named as `runs show` names it: latest in --runs-dir.
        const Result resumed = run({"train", "--resume", "latest", "--runs-dir", runs, "--threads", "1"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        const QString done = run({"runs", "list", "--runs-dir", runs, "--json"}).out;
        QVERIFY2(QJsonDocument::fromJson(done.toUtf8())["runs"][0]["status"] == "completed", qPrintable(done));
    }

    // The lock that refuses a second trainer is the run folder's run.lock, whoever holds it (here the
    // test itself), before anything else is said of the run.
    void resumeWaitsForTheRunsLock()
    {
        const QString runs = m_tmp.path() + "/locked-runs";
        const Result first = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--epochs", "2",
                                  "--max-batches", "2", "--runs-dir", runs});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const QString folder = runs + "/" + QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).value(0);
        {
            const tb::RunLock held(folder.toStdString());
            const Result r = run({"train", "--resume", folder});
            QCOMPARE(r.code, 5);
            QVERIFY2(r.err.contains(folder + " is being trained by process " + QString::number(getpid()) + " on "),
                     qPrintable(r.err));
            QCOMPARE(run({"runs", "delete", folder}).code, 5);
        }
        // Released: the run, complete, has nothing to resume; it is left as it was (resuming it recorded
        // it again, on the resume's device, and wrote its weights again).
        QFile record(folder + "/run.json"), weights(folder + "/weights.tbw");
        QVERIFY(record.open(QIODevice::ReadOnly) && weights.open(QIODevice::ReadOnly));
        const QByteArray recorded = record.readAll(), saved = weights.readAll();
        record.close();
        weights.close();
        const Result r = run({"train", "--resume", folder, "--threads", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(folder + " is complete (it ended 20") &&
                     r.err.contains("): nothing to resume. Its weights are " + folder + "/weights.tbw"),
                 qPrintable(r.err));
        QVERIFY(record.open(QIODevice::ReadOnly) && weights.open(QIODevice::ReadOnly));
        QVERIFY(record.readAll() == recorded);
        QVERIFY(weights.readAll() == saved);
        // Its checkpoint gone, it is still complete: said so (it was "holds no checkpoint.tbw", exit code 5).
        QVERIFY(QFile::remove(folder + "/checkpoint.tbw"));
        const Result gone = run({"train", "--resume", folder, "--threads", "1"});
        QCOMPARE(gone.code, 2);
        QVERIFY2(gone.err.contains("): nothing to resume. Its weights are " + folder + "/weights.tbw"),
                 qPrintable(gone.err));
        QCOMPARE(run({"runs", "delete", folder}).code, 0);
    }

    // A checkpoint that cannot be written (a full disk) ends the run with the file error (exit code
    // 5), but --save still keeps the weights trained so far when its place can take them, and says
    // so; the run is then interrupted, not running.
    void aFailedCheckpointStillSaves()
    {
        const QString full = m_tmp.path() + "/full";
        const fixtures::SmallDisk disk(full.toStdString());
        if (!disk.skipReason().empty())
            QSKIP(disk.skipReason().c_str());
        // Its checkpoint (weights and Adam's two slots, 3.5 MB) does not fit; run.json does.
        const QString wide = m_tmp.path() + "/wide.json";
        fixtures::writeRaw(wide.toStdString(), R"({"name": "wide", "layers": [{"type": "Flatten"},
            {"type": "Dense", "units": 2000, "activation": "relu"},
            {"type": "Dense", "units": 3, "activation": "softmax"}]})");
        const QString saved = m_tmp.path() + "/kept.tbw";
        const QStringList train = {"train",    "--data",    m_data,    "--model",    wide,
                                   "--epochs", "2",         "--batch", "10",         "--max-batches",
                                   "2",        "--threads", "1",       "--runs-dir", full + "/runs"};
        const Result r = run(train + QStringList{"--save", saved});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("/checkpoint.tbw: No space left on device; nothing was written"), qPrintable(r.err));
        QVERIFY2(r.err.contains("Saved the weights so far to " + saved + "\n"), qPrintable(r.err));
        QVERIFY(QFile::exists(saved));
        const Result evaluated = run({"evaluate", "--data", m_data, "--weights", saved});
        QVERIFY2(evaluated.code == 0, qPrintable(evaluated.err));
        const QString listed = run({"runs", "list", "--runs-dir", full + "/runs", "--json"}).out;
        QVERIFY2(QJsonDocument::fromJson(listed.toUtf8())["runs"][0]["status"] == "interrupted", qPrintable(listed));
        // A --save on the full disk too: the run's error all the same, and why the weights were not kept.
        const Result nowhere = run(train + QStringList{"--save", full + "/kept.tbw"});
        QCOMPARE(nowhere.code, 5);
        QVERIFY2(nowhere.err.contains("/checkpoint.tbw: No space left on device; nothing was written"),
                 qPrintable(nowhere.err));
        QVERIFY2(nowhere.err.contains("The weights so far could not be saved to " + full + "/kept.tbw: cannot write " +
                                      full + "/kept.tbw"),
                 qPrintable(nowhere.err));
    }

    // A relative --data is recorded as the folder it named: `train --resume` from another directory
    // (the command the stop message prints) would otherwise look for it there.
    void relativeDataIsRecordedWhole()
    {
        const QString runs = m_tmp.path() + "/relative-runs", before = QDir::currentPath();
        QDir parent(m_tmp.path());
        QVERIFY(parent.cdUp());
        QVERIFY(QDir::setCurrent(parent.path()));
        const Result r = run({"train", "--data", QFileInfo(m_data).fileName() + "/", "--model", m_data + "/toy.json",
                              "--epochs", "2", "--max-batches", "1", "--runs-dir", runs});
        QVERIFY(QDir::setCurrent(before));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList folders = QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(folders.size(), 1);
        QFile record(runs + "/" + folders.first() + "/run.json");
        QVERIFY(record.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(record.readAll()).object()["dataset"].toString(),
                 QDir::cleanPath(QFileInfo(m_data).absoluteFilePath()));
    }

    // One corrupt label byte (200 in a 3-class set) makes 201 classes; the run says what that suggests.
    void classesWithoutImagesAreNoted()
    {
        const std::string dir = m_tmp.path().toStdString() + "/corrupt-label";
        QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
        fixtures::writeToyDataset(dir, 40, 20);
        std::fstream labels(dir + "/train-labels-idx1-ubyte", std::ios::in | std::ios::out | std::ios::binary);
        labels.seekp(8 + 5);
        labels.put(char(200));
        labels.close();
        const Result r = run({"train", "--data", QString::fromStdString(dir), "--model", m_data + "/toy.json",
                              "--max-batches", "1", "--no-run-folder"});
        QCOMPARE(r.code, 3); // the model's 3 units do not fit 201 classes; the note says why there are 201
        QVERIFY2(r.err.contains("Note: 197 of the 201 classes (as many as the largest training label, 200, says) have "
                                "no training image: 3, 4, 5, 6, 7, ... 199; a corrupt label file"),
                 qPrintable(r.err));
        QVERIFY(
            !run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--no-run-folder"})
                 .err.contains("no training image"));
    }

    void compareRejectsBadDevicesAndSweeps()
    {
        QCOMPARE(run({"compare", "--data", m_data, "--devices", "tpu:0"}).code, 2);
        // A thread count that is not one names the device and --devices' value, not only the number.
        for (const auto& [device, says] :
             {std::pair{"cpu:x", "device 'cpu:x': the thread count 'x' is not a number"},
              std::pair{"cpu:99999999999", "device 'cpu:99999999999': the thread count 99999999999 is far too large"},
              std::pair{"cpu:2000", "device 'cpu:2000': the thread count must be between 1 and 1024"},
              std::pair{"cpu:00000002000", "device 'cpu:00000002000': the thread count must be between 1 and 1024"},
              std::pair{"cpu:", "device 'cpu:': the thread count after the colon is missing"}, // not every core
              std::pair{"cpu:-1", "device 'cpu:-1': the thread count cannot be negative"},
              std::pair{"opencl:", "device 'opencl:': the OpenCL device index after the colon is missing"}}) {
            const Result bad = run({"compare", "--data", m_data, "--devices", device});
            QCOMPARE(bad.code, 2);
            QVERIFY2(bad.err.contains(says), qPrintable(bad.err));
        }
        // Every device skipped (bf16 runs on no CPU at the baseline level): nothing was compared.
        const Result none = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                                 "cpu:1@baseline+bf16", "--max-batches", "1"});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("no device could run it"), qPrintable(none.err));
        QVERIFY2(!none.out.contains("speed-up and max |dw|"), qPrintable(none.out)); // nothing to be against
        // A skipped first row is not the reference: the first row that ran is.
        const Result skippedFirst = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                                         "cpu:1@baseline+bf16,cpu:1", "--max-batches", "1"});
        QVERIFY2(skippedFirst.code == 0, qPrintable(skippedFirst.err));
        QVERIFY2(skippedFirst.out.endsWith("speed-up and max |dw| (the largest difference of a weight): against the "
                                           "first row that ran, cpu:1\n"),
                 qPrintable(skippedFirst.out));
        // A device with more threads than cores says below the table that it is no faster, as train's
        // header does; once for the device, however many rows it has.
        const int cores = tb::hardwareThreads();
        const QString many = QString("cpu:%1").arg(cores + 1);
        const Result oversubscribed = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices",
                                           "cpu:1," + many + "," + many, "--max-batches", "1"});
        QVERIFY2(oversubscribed.code == 0, qPrintable(oversubscribed.err));
        const QString note =
            QString("%1: %2 threads on %3 core%4: the same weights as on fewer threads, but the threads "
                    "take turns on the cores, so it trains no faster than cpu:%3\n")
                .arg(many)
                .arg(cores + 1)
                .arg(cores)
                .arg(cores == 1 ? "" : "s");
        QVERIFY2(oversubscribed.out.endsWith("against the first row that ran, cpu:1\n" + note),
                 qPrintable(oversubscribed.out));
        const Result r = run({"compare", "--data", m_data, "--sweep", "width=1,2"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("batch=32,64,128"));
        QCOMPARE(run({"compare", "--data", m_data, "--sweep", "size=0"}).code, 2);
        const Result both = run({"compare", "--data", m_data, "--sweep", "size=1,2", "--size-multiplier", "3"});
        QCOMPARE(both.code, 2);
        QVERIFY2(both.err.contains("leave out --size-multiplier"), qPrintable(both.err));
        QCOMPARE(run({"compare", "--data", m_data, "--sweep", "batch=16,32", "--batch", "8"}).code, 2);

        // A sweep value the model cannot take (a 16x16 kernel on the 12x12 images at size 1, not on
        // the 24x24 ones at size 2) is a skipped row with the reason; the other values' rows stay,
        // in the table and the CSV.
        const QString wide = m_data + "/wide-kernel.json", csv = m_data + "/sweep.csv";
        fixtures::writeRaw(wide.toStdString(), R"({"layers": [{"type": "Conv2D", "filters": 2, "kernel_size": 16},
            {"type": "Flatten"}, {"type": "Dense", "units": "classes", "activation": "softmax"}]})");
        const Result sweep = run({"compare", "--data", m_data, "--model", wide, "--devices", "cpu:1", "--max-batches",
                                  "1", "--sweep", "size=1,2", "--csv", csv});
        QCOMPARE(sweep.code, 0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].contains("does not fit its input"), qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(",2,") && !lines[2].contains("does not fit"), qPrintable(lines[2]));
        // Every value skipped: the rows, and the model's error as train gives it (exit code 3).
        const Result all = run({"compare", "--data", m_data, "--model", wide, "--devices", "cpu:1", "--max-batches",
                                "1", "--sweep", "size=1"});
        QCOMPARE(all.code, 3);
        QVERIFY2(all.out.contains("does not fit its input"), qPrintable(all.out));
        QVERIFY2(all.err.startsWith("trainbench-cli compare: ") && all.err.contains("does not fit its input"),
                 qPrintable(all.err));
    }

    // --help is made from the tables: every training option with its help, each command's options
    // with theirs; an option out of its limits is refused by name with the limits.
    void helpAndLimitsComeFromTheOptionTable()
    {
        Result r = run({"--help"});
        QCOMPARE(r.code, 0);
        for (const tb::TrainOption& o : tb::trainOptions()) {
            QVERIFY2(r.out.contains(QString::fromStdString("--" + o.name)), o.name.c_str());
            QVERIFY2(r.out.contains(QString::fromStdString(o.help.substr(0, 20))), o.help.c_str());
        }
        r = run({"train", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("usage: trainbench-cli train "));
        QVERIFY(r.out.contains(
            QString::fromStdString(tb::optionHelpLine("epochs", "N", tb::findTrainOption("epochs")->help))));
        QVERIFY(r.out.contains("--resume RUN"));
        r = run({"train", "--data", m_data, "--epochs", "0"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli train: --epochs must be between 1 and 100000 (got 0)\n"));
        r = run({"compare", "--data", m_data, "--size-multiplier", "17"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli compare: --size-multiplier must be between 1 and 16 (got 17)\n"));
        r = run({"evaluate", "--data", m_data, "--weights", "w.tbw", "--threads", "x"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli evaluate: --threads needs a whole number, not \"x\"\n"));
        r = run({"train", "--data", m_data, "--patience", "2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--patience needs --early-stopping"), qPrintable(r.err));
    }

    // The benchmark reads --threads, --batch, --isa and --device with the same table: a bad value is
    // a message naming the option and exit code 2, never an uncaught exception.
    void benchRefusesBadNumbers()
    {
        const QString bench = QStringLiteral(TRAINBENCH_BENCH);
        Result r = fixtures::runCli(bench, {"--threads", "x"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-bench: --threads needs a whole number, not \"x\"\n"));
        r = fixtures::runCli(bench, {"--batch", "0"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-bench: --batch must be between 1 and 65536 (got 0)\n"));
        r = fixtures::runCli(bench, {"--steps", "many"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-bench: --steps needs a whole number, not \"many\"\n"));
        r = fixtures::runCli(bench, {"--threads"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-bench: --threads needs a value\n"));
        r = fixtures::runCli(bench, {"--bogus"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("trainbench-bench: unknown option --bogus"));
        // A setting this machine cannot run is a usage error, as on the CLI (bf16 on no CPU at the
        // baseline level).
        r = fixtures::runCli(bench, {"--data", m_data, "--model", m_data + "/toy.json", "--device",
                                     "cpu:1@baseline+bf16", "--steps", "1", "--warmup", "0", "--repeats", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("trainbench-bench: ") && r.err.contains("bf16"), qPrintable(r.err));
        // A good command line still measures (a tiny run on the toy data).
        r = fixtures::runCli(bench, {"--data", m_data, "--model", m_data + "/toy.json", "--steps", "1", "--warmup", "0",
                                     "--repeats", "1", "--eval-images", "10", "--batch", "8", "--threads", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["threads"].toInt(), 2);
        QCOMPARE(j["batch"].toInt(), 8);
        QVERIFY(j["train_samples_per_sec"].toDouble() > 0);
    }

    void exitCodes()
    {
        Result r = run({"train", "--bogus"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli train: unknown option --bogus\n"));
        // A typo is answered with what it most likely meant, in one line (a command's, not above the
        // whole usage, which scrolled it away).
        r = run({"train", "--epoch", "1"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli train: unknown option --epoch; did you mean --epochs?\n"));
        r = run({"trian"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli: unknown command \"trian\"; did you mean train? (trainbench-cli --help "
                                "lists the commands)\n"));
        r = run({"frobnicate"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli: unknown command \"frobnicate\" (trainbench-cli --help lists the "
                                "commands)\n"));
        r = run({"train", "--epochs", "abc"});
        QCOMPARE(r.code, 2);
        // An option's name is not the value of the one before it (`report latest -o --json` wrote a
        // report named --json); written with = it is.
        r = run({"report", "latest", "-o", "--json"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli report: --out needs a value before --json (--out=--json gives it that "
                                "value)\n"));
        r = run({"evaluate", "--weights", "w.tbw", "--predictions", "--limit", "10"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--predictions needs a value before --limit"), qPrintable(r.err));
        r = run({"train", "--data", ""}); // not the folder "", which "does not exist"
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("trainbench-cli train: --data needs a value, not an empty one\n"));
        r = run({"train", "--save", "-"}); // weights are a file, never standard output
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--save -: the weights go to a file; give its name"), qPrintable(r.err));
        r = run({"frobnicate"});
        QCOMPARE(r.code, 2);
        // Missing, with no --model to say which: not called a folder (it may be a mistyped text's name).
        for (const QString command : {"train", "compare", "evaluate"}) {
            QStringList args = {command, "--data", m_tmp.path() + "/nowhere.txt"};
            if (command == "evaluate") // the weights are read after: they say which kind of data
                args << "--weights" << m_tmp.path() + "/w.tbw";
            r = run(args);
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains(m_tmp.path() + "/nowhere.txt does not exist: --data takes a folder of IDX "
                                                   "files, or for a text model a text file or a folder of texts"),
                     qPrintable(command + ": " + r.err));
        }
        // With --model, the model says which: an image model's folder.
        r = run({"train", "--data", m_tmp.path() + "/nowhere", "--model", "tpu-mnist-cnn"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("dataset folder " + m_tmp.path() + "/nowhere does not exist"), qPrintable(r.err));
        r = run({"summary", "--model", "no-such-preset"});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("neither a preset"));
        // A preset fits the data (12x12, 3 classes); a model file fixing 10 units does not.
        r = run({"train", "--data", m_data, "--model", "tpu-mnist-cnn", "--max-batches", "1"});
        QCOMPARE(r.code, 0);
        fixtures::writeRaw(
            m_tmp.path().toStdString() + "/ten.json",
            R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 10, "activation": "softmax"}]})");
        r = run({"train", "--data", m_data, "--model", m_tmp.path() + "/ten.json"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("the final Dense layer needs 3 units"), qPrintable(r.err));
        // A model safetensors cannot lay out is refused before it trains when --save asks for that format
        // (it trained to the end, then lost its weights); no run folder is left.
        fixtures::writeRaw(m_tmp.path().toStdString() + "/uneven.json",
                           R"({"layers": [{"type": "Embedding", "input_dim": 256, "output_dim": 8},
                                          {"type": "LSTM", "units": 8, "return_sequences": true},
                                          {"type": "LSTM", "units": 12, "return_sequences": true},
                                          {"type": "Dense", "units": 256, "activation": "softmax"}]})");
        const QString uneven = m_tmp.path() + "/uneven.safetensors", unevenRuns = m_tmp.path() + "/uneven-runs";
        r = run({"train", "--data", "/usr/share/common-licenses/GPL-3", "--model", m_tmp.path() + "/uneven.json",
                 "--sequence-length", "16", "--runs-dir", unevenRuns, "--save", uneven});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("stacked LSTM layers must have the same units") && !r.out.contains("Epoch"),
                 qPrintable(r.out + r.err));
        QVERIFY(!QFile::exists(uneven) && !QFileInfo::exists(unevenRuns));
        // SGD at 1e30: the first update leaves finite weights whose loss is NaN. They are no "last good
        // weights", and --save does not write them.
        const QString diverged = m_tmp.path() + "/diverged.tbw";
        r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--optimizer", "sgd", "--lr", "1e30",
                 "--batch", "20", "--no-run-folder", "--save", diverged});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains("diverged at epoch 1, step 2: the loss became NaN or infinite with the weights the "
                                "step before left, so no weights were kept"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(diverged));
        // With --json, the failure is an event too, the last line.
        r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--optimizer", "sgd", "--lr", "1e30",
                 "--batch", "20", "--no-run-folder", "--json"});
        QCOMPARE(r.code, 4);
        const QJsonObject failure = jsonLines(r.out).last();
        QCOMPARE(failure["event"].toString(), QStringLiteral("error"));
        QCOMPARE(failure["exit_code"].toInt(), 4);
        QVERIFY2(failure["message"].toString().startsWith("training diverged at epoch 1"), qPrintable(r.out));
        r = run({"evaluate", "--data", m_data, "--weights", m_tmp.path() + "/toy.json"});
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("not a Trainbench weights file"));
        // Truncated: the dataset's IDX file is a data error (3), a weights file a file error (5), as
        // docs/cli.md's exit codes say.
        const QString cut = m_tmp.path() + "/truncated";
        QVERIFY(QDir().mkpath(cut));
        fixtures::writeToyDataset(cut.toStdString(), 200, 50, 12, 3, false);
        QFile idx(cut + "/t10k-images-idx3-ubyte");
        QVERIFY(idx.open(QIODevice::ReadWrite) && idx.resize(idx.size() - 100));
        idx.close();
        r = run({"train", "--data", cut, "--model", m_data + "/toy.json", "--max-batches", "1", "--no-run-folder"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("t10k-images-idx3-ubyte"), qPrintable(r.err));
        const QString whole = m_tmp.path() + "/whole.tbw", half = m_tmp.path() + "/half.tbw";
        QCOMPARE(run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--epochs", "1",
                      "--no-run-folder", "--save", whole})
                     .code,
                 0);
        QVERIFY(QFile::copy(whole, half));
        QFile tbw(half);
        QVERIFY(tbw.open(QIODevice::ReadWrite) && tbw.resize(tbw.size() / 2));
        tbw.close();
        r = run({"evaluate", "--data", m_data, "--weights", half});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("corrupt or truncated"), qPrintable(r.err));
        // A file the command would write after its work is checked before it: nothing trains to be lost.
        r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--save",
                 m_tmp.path() + "/no/dir/w.tbw"});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("--save " + m_tmp.path() + "/no/dir/w.tbw: cannot write it: the folder " +
                                m_tmp.path() + "/no/dir does not exist"),
                 qPrintable(r.err));
        QVERIFY2(!r.out.contains("Epoch 1/"), qPrintable(r.out));
        // A folder no file can be made in, whatever its permissions say (root may write any folder's,
        // not in /proc): tried with the write's own temporary file.
        r = run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--save",
                 "/proc/w.tbw"});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("--save /proc/w.tbw: cannot write it: "), qPrintable(r.err));
        QVERIFY2(!r.out.contains("Epoch 1/"), qPrintable(r.out));
        r = run({"compare", "--data", m_data, "--model", m_data + "/toy.json", "--devices", "cpu:1", "--csv",
                 m_tmp.path() + "/"});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("cannot write it: it is a folder; give the name of a file in it"), qPrintable(r.err));
        QVERIFY2(!r.out.contains("[1/1]"), qPrintable(r.out));
        // An export whose name says one format and --format another is refused.
        const QString w = m_tmp.path() + "/for-export.tbw";
        QCOMPARE(run({"train", "--data", m_data, "--model", m_data + "/toy.json", "--max-batches", "1", "--epochs", "1",
                      "--no-run-folder", "--save", w})
                     .code,
                 0);
        r = run({"export", "--weights", w, "--format", "safetensors", "--out", m_tmp.path() + "/x.onnx"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("x.onnx says onnx by its extension, but --format says safetensors"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_tmp.path() + "/x.onnx"));
        r = run({"export", "--weights", w, "--format", "onnx", "--out", m_tmp.path() + "/x.tbw"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("x.tbw says tbw by its extension, but --format says onnx"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_tmp.path() + "/x.tbw"));
        // An --out whose name says no format, without --format, is refused, not written as .tbw; with
        // --format, the format it names is written under that name.
        for (const QString& name : {QStringLiteral("noext"), QStringLiteral("weights.pt"), QStringLiteral("dir.d/w")}) {
            const QString out = m_tmp.path() + "/" + name;
            r = run({"export", "--weights", w, "--out", out});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--out " + out +
                                    ": its name says no format; export writes ONNX (.onnx), "
                                    "safetensors (.safetensors) or Trainbench weights (.tbw)"),
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        r = run({"export", "--weights", w, "--format", "onnx", "--out", m_tmp.path() + "/noext"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("(onnx)"));
        QFile onnx(m_tmp.path() + "/noext");
        QVERIFY(onnx.open(QIODevice::ReadOnly));
        QVERIFY(!onnx.readAll().startsWith("TBWGHT01"));
        // train's and evaluate's --save as well: before any training, nothing written.
        const QString pt = m_tmp.path() + "/trained.pt";
        r = run({"train", "--data", m_data, "--epochs", "1", "--max-batches", "1", "--no-run-folder", "--save", pt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--save " + pt + ": its name says no format"), qPrintable(r.err));
        QVERIFY(!r.out.contains("Epoch 1/1"));
        QVERIFY(!QFile::exists(pt));
        r = run({"evaluate", "--data", m_data, "--weights", w, "--precise-bn", "1", "--save", pt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--save " + pt + ": its name says no format"), qPrintable(r.err));
        QVERIFY(!QFile::exists(pt));
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
