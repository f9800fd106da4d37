// Text datasets, the text presets, training a character model through the training session, and
// writing with it. Texts are Debian's own licences (/usr/share/common-licenses) or written here.
#include "fixtures.hpp"

#include "core/errors.hpp"
#include "data/text_dataset.hpp"
#include "io/onnx_export.hpp"
#include "io/safetensors.hpp"
#include "io/torch_layout.hpp"
#include "io/weights_file.hpp"
#include "model/network.hpp"
#include "predict/text_generator.hpp"
#include "report/run_report.hpp"
#include "train/checkpoint.hpp"
#include "train/cpu_executor.hpp"
#include "train/run_history.hpp"
#include "train/session.hpp"
#include "train/test_record.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>

using namespace tb;

namespace {
const char* kGpl3 = "/usr/share/common-licenses/GPL-3";

// A small model for the tests: trains on a licence in seconds.
const char* kTinyModel = R"({"name": "tiny-text", "sequence_length": 32, "layers": [
    {"type": "Embedding", "input_dim": 256, "output_dim": 16},
    {"type": "LSTM", "units": 48, "return_sequences": true},
    {"type": "Dense", "units": "classes", "activation": "softmax"}]})";

template <typename E> void expectError(const std::function<void()>& f, const std::string& part)
{
    try {
        f();
    } catch (const E& e) {
        QVERIFY2(std::string(e.what()).find(part) != std::string::npos, e.what());
        return;
    }
    QFAIL(("no error; expected one saying: " + part).c_str());
}

TrainConfig textConfig(int threads, int epochs, int maxBatches, int batch = 32)
{
    TrainConfig c;
    c.epochs = epochs;
    c.batchSize = batch;
    c.maxBatches = maxBatches;
    c.device.threads = threads;
    c.seed = 11;
    c.optimizer.kind = OptimizerKind::RMSprop;
    c.optimizer.learningRate = 0.01f;
    return c;
}
} // namespace

class TstText : public QObject {
    Q_OBJECT

private slots:
    // Windows of T ids, labelled with the next id at every step; the last part of the text validates.
    void splitsByPositionIntoSequences()
    {
        std::string text;
        for (int i = 0; i < 100; ++i)
            text += char('a' + i % 26);
        TextOptions o;
        o.sequenceLength = 4;
        o.validationFraction = 0.2;
        const Dataset d = textDataset(text, "letters", o);
        QVERIFY(d.isText());
        QCOMPARE(d.numClasses, 256);
        QCOMPARE(d.train.count, (80 - 1) / 4);
        QCOMPARE(d.test.count, (20 - 1) / 4);
        QCOMPARE(d.train.steps, 4);
        QCOMPARE(int(d.train.labels.size()), d.train.count * 4);
        for (int i = 0; i < d.train.count * 4; ++i) {
            QCOMPARE(int(d.train.pixels[size_t(i)]), int(uint8_t(text[size_t(i)])));
            QCOMPARE(int(d.train.labels[size_t(i)]), int(uint8_t(text[size_t(i) + 1])));
        }
        QCOMPARE(int(d.test.pixels[0]), int(uint8_t(text[80]))); // validation starts at 80%
        QCOMPARE(inputShapeOf(d).keras(), std::string("(None, 4)"));
    }

    void clearErrors()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        fixtures::writeRaw(dir + "/empty.txt", "");
        fixtures::writeRaw(dir + "/binary.txt", std::string("abc\0def", 7));
        fixtures::writeRaw(dir + "/short.txt", "to be or not to be");
        fixtures::writeRaw(dir + "/latin1.txt", "caf\xe9 au lait, encore un caf\xe9");
        expectError<DataError>([&] { loadTextDataset(dir + "/empty.txt"); }, "is empty");
        expectError<DataError>([&] { loadTextDataset(dir + "/binary.txt"); },
                               "looks binary, not text (a zero byte at offset 3)");
        // Binary data with no zero byte: compressed, or control characters no text has.
        std::string noZero;
        for (int i = 0; i < 4000; ++i)
            noZero += char(1 + (i * 7919) % 255); // every byte value but 0, spread
        fixtures::writeRaw(dir + "/random.bin", noZero);
        expectError<DataError>([&] { loadTextDataset(dir + "/random.bin"); },
                               "random.bin looks binary, not text (411 of its 4000 bytes are control characters)");
        fixtures::writeRaw(dir + "/text.txt.gz", "\x1f\x8b\x08\x08 rest of a gzip file");
        expectError<DataError>([&] { loadTextDataset(dir + "/text.txt.gz"); },
                               "text.txt.gz is gzip-compressed, not text: decompress it first (gunzip -k)");
        // UTF-16 says so (its zero bytes said "binary"); a device or a pipe is refused before it is read
        // (/dev/zero was read until memory ran out); one symbol repeated leaves nothing to predict.
        fixtures::writeRaw(dir + "/utf16.txt", std::string("\xff\xfeh\0i\0", 6));
        expectError<DataError>([&] { loadTextDataset(dir + "/utf16.txt"); },
                               "utf16.txt is UTF-16 or UTF-32 (it starts with a byte-order mark)");
        expectError<DataError>([&] { loadTextDataset("/dev/zero"); },
                               "/dev/zero is not a regular file (a device, pipe or socket)");
        fixtures::writeRaw(dir + "/one.txt", std::string(500, 'a'));
        expectError<DataError>(
            [&] { loadTextDataset(dir + "/one.txt"); },
            "one.txt holds one symbol only (\"a\" repeated): there is nothing for a model to predict");
        TextOptions evaluating; // a model evaluated on such a text: it is what it is
        evaluating.forTraining = false;
        evaluating.sequenceLength = 8;
        QVERIFY(loadTextDataset(dir + "/one.txt", evaluating).test.count > 0);
        // Text's own control characters (tabs, form feeds, carriage returns, escapes) are text.
        std::string controlled;
        for (int i = 0; i < 300; ++i)
            controlled += "col\tcol\r\n\f\x1b[1mbold\x1b[0m ";
        fixtures::writeRaw(dir + "/controlled.txt", controlled);
        QVERIFY(loadTextDataset(dir + "/controlled.txt").train.count > 0);
        expectError<DataError>([&] { loadTextDataset(dir + "/none.txt"); }, "does not exist");
        expectError<DataError>([&] { loadTextDataset(dir + "/short.txt"); }, "shorter than one sequence of 100");
        // The least length the message gives is the least that gives each side one sequence and its labels
        // (it said 650, where 646 trains); a model's weights fix the sequence length, so only the text can change.
        TextOptions t64;
        t64.sequenceLength = 64;
        std::string letters;
        for (int i = 0; i < 646; ++i)
            letters += char('a' + i % 7);
        QCOMPARE(textDataset(letters, "letters", t64).test.count, 1);
        expectError<DataError>([&] { textDataset(letters.substr(0, 645), "letters", t64); },
                               "the text letters holds 645 bytes, shorter than one sequence of 64 on each side of the "
                               "training/validation split (at least 646 needed); use a longer text or a shorter "
                               "sequence length");
        t64.forTraining = false;
        expectError<DataError>([&] { textDataset(letters.substr(0, 645), "letters", t64); },
                               "(at least 646 needed); use a longer text (the model reads sequences of 64)");
        // Sequences of 1, the shortest, cannot be shortened.
        TextOptions t1;
        t1.sequenceLength = 1;
        expectError<DataError>([&] { textDataset("abc", "abc", t1); },
                               "(at least 16 needed); use a longer text (the model reads sequences of 1)");
        // A checkpoint of another text of the same length says the text differs (a text's labels are its
        // symbols, one step on), not that labels do.
        std::string edited = letters;
        edited[10] = 'z';
        t64.forTraining = true;
        expectError<DataError>(
            [&] {
                requireSameDataset(fingerprintOf(textDataset(letters, "a", t64)), textDataset(edited, "b", t64), "c");
            },
            "c was made on another dataset than b: the text differs, although its sequence counts and vocabulary size "
            "are the same");
        TextOptions chars;
        chars.vocabulary = TextVocabularyKind::Characters;
        chars.sequenceLength = 2;
        expectError<DataError>([&] { loadTextDataset(dir + "/latin1.txt", chars); }, "is not valid UTF-8 (at byte 3)");
        TextOptions bytes;
        bytes.sequenceLength = 2;
        QCOMPARE(loadTextDataset(dir + "/latin1.txt", bytes).numClasses, 256); // bytes read any text
        // Well-formed UTF-8 only: no overlong form, no surrogate, nothing past U+10FFFF, each refused where
        // it starts; the first and last code points of each length pass.
        for (const char* bad : {"ab\xed\xa0\x80", "ab\xed\xbf\xbf", "ab\xf4\x90\x80\x80", "ab\xe0\x80\xaf",
                                "ab\xe0\x9f\xbf", "ab\xf0\x8f\xbf\xbf", "ab\xc1\xbf", "ab\xf5\x80\x80\x80"})
            QCOMPARE(firstInvalidUtf8(bad), size_t(2));
        for (const char* good : {"\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
                                 "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"})
            QCOMPARE(firstInvalidUtf8(good), std::string::npos);
        std::string surrogate;
        for (int i = 0; i < 100; ++i)
            surrogate += "word \xed\xa0\x80 ";
        fixtures::writeRaw(dir + "/surrogate.txt", surrogate);
        expectError<DataError>([&] { loadTextDataset(dir + "/surrogate.txt", chars); },
                               "is not valid UTF-8 (at byte 5)");
        const QString unreadable = tmp.path() + "/locked.txt";
        fixtures::writeRaw(unreadable.toStdString(), "some text that nobody may read");
        QFile::setPermissions(unreadable, QFileDevice::Permissions());
        if (std::ifstream(unreadable.toStdString()).good())
            QSKIP("running as root: a file without permissions is still readable");
        expectError<DataError>([&] { loadTextDataset(unreadable.toStdString(), bytes); }, "cannot read the text file");
    }

    // The distinct characters, sorted; class names hold them as hex and give them back.
    void characterVocabulary()
    {
        const std::string text = "héllo wörld, hello world ";
        TextOptions o;
        o.vocabulary = TextVocabularyKind::Characters;
        o.sequenceLength = 3;
        o.validationFraction = 0.3;
        const Dataset d = textDataset(text, "greeting", o);
        const TextVocabulary v = vocabularyOf(d);
        QCOMPARE(v.kind, TextVocabularyKind::Characters);
        QCOMPARE(v.size(), 11); // space , d e h l o r w é ö
        QCOMPARE(v.symbols.front(), std::string(" "));
        QCOMPARE(v.symbols.back(), std::string("ö"));
        QCOMPARE(d.classNames.back(), std::string("c3b6"));
        std::string back;
        for (uint8_t id : v.encode("wörld"))
            back += v.decode(id);
        QCOMPARE(back, std::string("wörld"));
        expectError<DataError>([&] { v.encode("x"); }, "not in the model's character-level vocabulary");
        // The error says where the character starts (in bytes, not characters: é takes two) and its bytes,
        // and names the text; a character that does not print is given by its bytes alone.
        expectError<DataError>([&] { v.encode("héllo €"); }, "the text's character \"€\" at byte offset 7 (bytes "
                                                             "0xe2 0x82 0xac) is not in the model's character-level");
        expectError<DataError>([&] { v.encode("wö\nd", "the prompt"); },
                               "the prompt's character at byte offset 3 (byte 0x0a) is not in the model's");
        // Bytes that are not UTF-8 are said to be that, not a character the vocabulary lacks.
        expectError<DataError>(
            [&] { v.encode("w\xff", "the prompt"); },
            "the prompt is not valid UTF-8 at byte offset 1 (byte 0xff); the model's character-level");
        // Beyond 256 distinct characters, the error names the text and says what to use instead.
        std::string many;
        for (char32_t c = 0x4e00; c < 0x4e00 + 300; ++c) { // CJK ideographs, three UTF-8 bytes each
            many += char(0xe0 | (c >> 12));
            many += char(0x80 | ((c >> 6) & 0x3f));
            many += char(0x80 | (c & 0x3f));
        }
        expectError<DataError>([&] { textDataset(many, "ideographs.txt", o); },
                               "the text ideographs.txt has 300 distinct characters; a character-level "
                               "vocabulary holds at most 256 (use the byte-level one)");
        QCOMPARE(TextVocabulary::fromClassNames(TextVocabulary::bytes().classNames()).kind, TextVocabularyKind::Bytes);
        // The image size multiplier is refused for a text, as the window refuses it (it said the network was
        // built for other inputs than "the images").
        DatasetOptions doubled;
        doubled.sizeMultiplier = 2;
        expectError<ConfigError>([&] { withOptions(textDataset(text, "greeting", o), doubled); },
                                 "the image size multiplier is for images, and greeting is a text: leave it at 1");
    }

    void folderOfTexts()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        fixtures::writeRaw(dir + "/b.txt", std::string(300, 'b'));
        fixtures::writeRaw(dir + "/a.txt", std::string(300, 'a'));
        fixtures::writeRaw(dir + "/.hidden", std::string("\0\0", 2));
        QVERIFY(isTextDataPath(dir));
        QCOMPARE(readText(dir, false), std::string(300, 'a') + std::string(300, 'b'));
        // A character a model lacks is named in its own file, at its offset there.
        fixtures::writeRaw(dir + "/c.txt", std::string(10, 'a') + "z");
        TextOptions o;
        o.sequenceLength = 8;
        o.vocabulary = TextVocabularyKind::Characters;
        o.modelCharacters = TextVocabulary::characters("ab", "");
        expectError<DataError>([&] { loadTextDataset(dir, o); },
                               "the text " + dir + "/c.txt's character \"z\" at byte offset 10");
    }

    // A text's evaluation keeps each symbol's prediction and its probability, not its vocabulary's
    // (EvalKeeps::Predictions): the same predictions as with every probability kept, each confidence the
    // predicted symbol's probability, on two workers with shards smaller than the split.
    void predictionsKeepTheWinnersProbability()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        Network net(parseModelSpec(kTinyModel, "tiny"), inputShapeOf(data), data.numClasses);
        CpuExecutor exec(net, 2, 4);
        const EvalResult all = exec.evaluate(data.test, 1, 0, EvalKeeps::Probabilities);
        const EvalResult kept = exec.evaluate(data.test, 1, 0, EvalKeeps::Predictions);
        const size_t n = size_t(all.samples);
        QVERIFY(n > 1000);
        QVERIFY(kept.probs.empty());
        QCOMPARE(kept.predicted, all.predicted);
        QCOMPARE(kept.confidence, all.confidence);
        QCOMPARE(kept.loss, all.loss);
        for (size_t i = 0; i < n; ++i)
            QCOMPARE(kept.confidence[i], all.probs[i * size_t(data.numClasses) + all.predicted[i]]);
        QVERIFY(exec.evaluate(data.test, 1, 0, EvalKeeps::Metrics).predicted.empty());
    }

    void shakespearePresetIsTheNotebooks()
    {
        const ModelSpec spec = loadModelSpec("shakespeare-lstm");
        QVERIFY(spec.isText());
        const Network net(spec, Shape::tokenIds(spec.sequenceLength), 256);
        QCOMPARE(net.paramCount(), int64_t(4460800));
        const std::string s = net.summary();
        for (const char* want : {"embedding (Embedding)", "(None, 100, 512)", "131,072", "lstm (LSTM)", "lstm_1 (LSTM)",
                                 "2,099,200", "(None, 100, 256)", "131,328", "Total params: 4,460,800"})
            QVERIFY2(s.find(want) != std::string::npos, (std::string(want) + " not in\n" + s).c_str());
        // It reads bytes: a vocabulary of characters does not fit its 256 outputs, and the message says
        // what does.
        expectError<ModelError>([&] { Network(spec, Shape::tokenIds(spec.sequenceLength), 51); },
                                "the model's output (None, 100, 256) gives 256 symbols, and the vocabulary has 51: "
                                "the final Dense layer needs 51 units (\"units\": \"classes\" sizes it to the "
                                "vocabulary); a model of 256 outputs reads bytes: train it with the byte-level "
                                "vocabulary");
        // Image data cannot feed it, nor text an image model.
        expectError<ModelError>([&] { Network(spec, Shape::image(28, 28, 1), 256); }, "needs token ids");
        expectError<ModelError>([&] { Network(loadModelSpec("keras-mnist-cnn"), Shape::tokenIds(100), 256); },
                                "a text model starts with an Embedding");
    }

    // The done-when run, small: a tiny LSTM on the GPL's text brings the validation loss well below
    // the text's unigram entropy (what a model knowing only symbol frequencies reaches).
    void learnsALicenceBelowItsUnigramEntropy()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        const double entropy = unigramEntropy(data.test.labels, data.numClasses);
        QVERIFY2(entropy > 2.5 && entropy < 3.5, qPrintable(QString::number(entropy)));      // English: about 4.3 bits
        TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, textConfig(2, 3, 0, 8)); // ~370 steps
        s.run();
        const EvalResult v = s.evaluateTest();
        qInfo("unigram entropy %.4f nats (%.3f bits), validation loss %.4f nats (%.3f bits per character), "
              "accuracy %.3f",
              entropy, bitsPerSymbol(entropy), v.loss, bitsPerSymbol(v.loss), v.accuracy);
        QVERIFY2(v.loss < 0.8 * entropy,
                 qPrintable(QString("validation loss %1 vs entropy %2").arg(v.loss).arg(entropy)));
        QCOMPARE(v.samples, data.test.count * 32); // counted per character
    }

    // A model that predicts one label per sequence does not fit a text (ModelError: exit code 3, as a
    // final Dense of other units); it was a ConfigError, the code of a bad option.
    void modelWithoutReturnSequencesDoesNotFit()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        const char* lastStepOnly = R"({"name": "last-step", "sequence_length": 32, "layers": [
            {"type": "Embedding", "input_dim": 256, "output_dim": 8}, {"type": "LSTM", "units": 8},
            {"type": "Dense", "units": "classes", "activation": "softmax"}]})";
        expectError<ModelError>([&] { TrainingSession(parseModelSpec(lastStepOnly, "m"), data, textConfig(1, 1, 1)); },
                                "its last LSTM needs \"return_sequences\": true");
    }

    void sameWeightsOnOneAndTwoThreads()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        std::string sha[2];
        for (int t = 1; t <= 2; ++t) {
            TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, textConfig(t, 1, 6));
            s.run();
            sha[t - 1] = s.weightsSha256();
        }
        QCOMPARE(sha[1], sha[0]);
    }

    // A text run stopped mid-epoch and resumed from its checkpoint (on another thread count) ends with
    // the weights of the run that was never stopped; the run folder records it as for images.
    void stoppedRunResumesBitIdentical()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        const TrainConfig c = textConfig(1, 2, 6);
        std::string expected;
        {
            TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, c);
            s.run();
            expected = s.weightsSha256();
        }
        QTemporaryDir tmp;
        std::atomic<bool> stop{false};
        struct StopAt : TrainObserver {
            std::atomic<bool>* flag;
            void batchFinished(const BatchProgress& p) override
            {
                if (p.epoch == 2 && p.step == 2)
                    flag->store(true);
            }
        } at;
        at.flag = &stop;
        {
            TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, c);
            s.enableCheckpoints(RunFolder::create(tmp.path().toStdString(), "tiny"));
            QCOMPARE(s.run(&at, &stop), TrainStatus::Cancelled);
        }
        const QStringList runs = QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        DeviceSpec two;
        two.threads = 2;
        auto resumed =
            TrainingSession::resume(RunFolder::open((tmp.path() + "/" + runs.first()).toStdString()), data, two);
        QCOMPARE(resumed->position().step, 2);
        QCOMPARE(resumed->run(), TrainStatus::Completed);
        QCOMPARE(resumed->weightsSha256(), expected);
    }

    // A text run's records count symbols, as `evaluate` does: run.json's misclassified, evaluation.json
    // (its unit, no pictures of symbols) and the report (the most frequent mistakes, no matrix).
    void runRecordsCountSymbols()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        QTemporaryDir tmp;
        TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, textConfig(2, 1, 4));
        s.createRunFolder(tmp.path().toStdString());
        s.finish(s.run(), FinishOptions{});
        const RunSummary run = readRun(s.runFolder()->path);
        QVERIFY2(!run.damaged, run.damage.c_str());
        QVERIFY(run.test.has_value());
        QCOMPARE(run.test->samples, data.test.count * 32);
        QCOMPARE(run.test->misclassified, int(std::lround((1.0 - run.test->accuracy) * run.test->samples)));
        std::string why;
        const std::optional<TestRecord> record = readTestRecord(run, why);
        QVERIFY2(record.has_value(), why.c_str());
        QVERIFY(record->symbols);
        QCOMPARE(record->misclassifiedCount, run.test->misclassified);
        QVERIFY(record->misclassified.empty());
        int64_t counted = 0;
        for (int64_t n : record->confusion)
            counted += n;
        QCOMPARE(counted, int64_t(run.test->samples));
        // The unit survives the JSON (and a record without one is of images).
        nlohmann::ordered_json j = testRecordJson(*record);
        QVERIFY(parseTestRecord(j).symbols);
        j.erase("unit");
        QVERIFY(!parseTestRecord(j).symbols);
        const QString html = QString::fromStdString(runReportHtml(readReportInput(run.path)));
        QVERIFY(html.contains(QStringLiteral("%1 of %2 predicted symbols of the validation text are wrong")
                                  .arg(run.test->misclassified)
                                  .arg(run.test->samples)));
        QVERIFY(html.contains(QStringLiteral("<th>Symbols/s</th>"))); // a text's samples/s count symbols
        QVERIFY(run.isText());
        QVERIFY(html.contains(QStringLiteral("Dataset sequences")) && !html.contains(QStringLiteral("Dataset images")));
        // A text has no test set: its held-out end is named so, in the report as in `runs show`.
        QVERIFY(html.contains(QStringLiteral(" held out (the text&#39;s last part), of ")));
        QVERIFY(html.contains(QStringLiteral("the text&#39;s last part, held out")));
        QVERIFY(!html.contains(QStringLiteral("test set")));
        QVERIFY(!html.contains(QStringLiteral("test images")));
        QVERIFY(!html.contains(QStringLiteral("data:image/png")));
    }

    // Generation: the same seed writes the same text (also after a save and load), temperature 0 is
    // the greedy choice, the reported probabilities are the model's.
    void generatesDeterministically()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        TrainingSession s(parseModelSpec(kTinyModel, "tiny"), data, textConfig(2, 1, 20));
        s.run();
        QTemporaryDir tmp;
        const std::string path = tmp.path().toStdString() + "/tiny.tbw";
        s.save(path);
        const WeightsFile w = loadWeights(path);
        // A text model's weights meet images, and an image model's a text: said as such (the window said
        // the model was trained on 28x28 images but the text held 64x1 images).
        const std::string images = tmp.path().toStdString() + "/images";
        QVERIFY(QDir().mkpath(QString::fromStdString(images)));
        fixtures::writeToyDataset(images, 20, 10);
        expectError<DataError>([&] { requireWeightsFit(loadDataset(images), w); },
                               "the weights hold a text model (tiny-text) and " + images +
                                   " holds images: evaluate them on a text");
        WeightsFile imageModel = w;
        imageModel.spec = parseModelSpec(fixtures::toyModelJson(), "toy");
        expectError<DataError>([&] { requireWeightsFit(data, imageModel); },
                               std::string("the weights hold an image model (") + imageModel.spec.name + ") and " +
                                   kGpl3 + " is a text: evaluate them on a folder of IDX images");
        const Network loaded = w.buildNetwork();
        TextGenerator a(s.network(), vocabularyOf(data)), b(loaded, TextVocabulary::fromClassNames(w.classNames));
        GenerateOptions g;
        g.prompt = "This License ";
        g.length = 80;
        g.seed = 5;
        g.streams = 3;
        std::vector<float> probs;
        const auto first = a.generate(g, [&](const GeneratedSymbol& sym) { probs.push_back(sym.probability); });
        QCOMPARE(int(first.size()), 3);
        QCOMPARE(int(first[0].size()), 80);
        QCOMPARE(b.generate(g), first);
        QVERIFY(first[0] != first[1]); // each stream draws its own
        g.seed = 6;
        QVERIFY(a.generate(g) != first);
        for (float p : probs)
            QVERIFY(p > 0.0f && p <= 1.0f);
        // Greedy: every symbol is the most likely one after the text so far.
        g.temperature = 0.0;
        g.streams = 1;
        g.length = 10;
        const std::string greedy = a.generate(g).front();
        const std::vector<uint8_t> ids = vocabularyOf(data).encode(g.prompt + greedy);
        const std::vector<float> p = a.probabilities(ids);
        for (size_t k = 0; k < greedy.size(); ++k) {
            const size_t at = g.prompt.size() - 1 + k; // the distribution that chose greedy[k]
            const float* row = p.data() + at * 256;
            QCOMPARE(int(std::max_element(row, row + 256) - row), int(uint8_t(greedy[k])));
        }
        // A stop asked for while the prompt is read ends it there (a long prompt takes a while): no
        // symbol, and the rows of the prompt's symbols read before it. One asked for after the third
        // symbol leaves three, the greedy text's first.
        int asked = 0, drawn = 0;
        const auto stopAt = [&](int call) { return [&asked, call] { return ++asked == call; }; };
        const auto count = [&](const GeneratedSymbol&) { ++drawn; };
        QCOMPARE(a.generate(g, count, stopAt(3)), std::vector<std::string>(1));
        QCOMPARE(asked, 3);
        QCOMPARE(drawn, 0);
        asked = 0;
        QCOMPARE(a.probabilities(ids, stopAt(3)), std::vector<float>(p.begin(), p.begin() + 2 * 256));
        asked = 0;
        const int promptSteps = int(g.prompt.size());
        QCOMPARE(a.generate(g, count, stopAt(promptSteps + 3)).front(), greedy.substr(0, 3));
        QCOMPARE(drawn, 3);
        // Asked nothing after the last symbol: a stop then comes after the end, which is whole.
        asked = 0;
        QCOMPARE(a.generate(g, {}, stopAt(promptSteps + g.length)).front(), greedy);
        QCOMPARE(asked, promptSteps + g.length - 1);
    }

    // The generator asks every layer whether it can run step by step before it writes anything, and
    // says which layer cannot and why.
    void generatorRefusesWhatCannotStep()
    {
        TextOptions o;
        o.sequenceLength = 32;
        const Dataset data = loadTextDataset(kGpl3, o);
        auto generatorFor = [&](const char* layers) {
            const std::string json = std::string(R"({"name": "m", "sequence_length": 32, "layers": [)") + layers + "]}";
            Network net(parseModelSpec(json, "m"), Shape::tokenIds(32), data.numClasses);
            net.initialize(1);
            TextGenerator g(net, vocabularyOf(data));
        };
        expectError<ModelError>(
            [&] {
                generatorFor(R"({"type": "Embedding", "input_dim": 256, "output_dim": 8},
                    {"type": "LSTM", "units": 8},
                    {"type": "Dense", "units": "classes", "activation": "softmax"})");
            },
            "layer 2 (lstm) needs \"return_sequences\": true to write one symbol per step");
        expectError<ModelError>(
            [&] {
                generatorFor(R"({"type": "Embedding", "input_dim": 256, "output_dim": 8},
                    {"type": "LSTM", "units": 8, "return_sequences": true},
                    {"type": "Flatten"},
                    {"type": "Dense", "units": "classes", "activation": "softmax"})");
            },
            "layer 3 (flatten) cannot generate text step by step");
        // Dropout is the identity in inference; the last softmax is the generator's own.
        generatorFor(R"({"type": "Embedding", "input_dim": 256, "output_dim": 8},
            {"type": "LSTM", "units": 8, "return_sequences": true}, {"type": "Dropout", "rate": 0.2},
            {"type": "Dense", "units": "classes", "activation": "softmax"})");
    }

    // A text model's weights file keeps its (T) input; safetensors holds PyTorch's names and comes
    // back with the same weights; the ONNX export writes (the real checks: tests/interop).
    void textWeightsFileAndExports()
    {
        Network net(parseModelSpec(kTinyModel, "tiny"), Shape::tokenIds(32), 256);
        net.initialize(4);
        WeightsFile w;
        w.spec = net.spec();
        w.input = net.inputShape();
        QTemporaryDir tmp;
        w.params = net.params();
        w.classNames = TextVocabulary::bytes().classNames();
        const std::string path = tmp.path().toStdString() + "/w.tbw";
        saveWeights(path, w);
        QCOMPARE(loadWeights(path).input.keras(), std::string("(None, 32)"));
        const std::string st = tmp.path().toStdString() + "/w.safetensors";
        exportSafetensors(st, w);
        const WeightsFile back = loadSafetensors(st, nullptr);
        QVERIFY(back.params == w.params);
        QCOMPARE(back.input.keras(), std::string("(None, 32)"));
        std::vector<std::string> names;
        for (const TorchTensor& t : torchLayout(net))
            names.push_back(t.name);
        QCOMPARE(names, (std::vector<std::string>{"embedding.weight", "lstm.weight_ih_l0", "lstm.weight_hh_l0",
                                                  "lstm.bias_ih_l0", "lstm.bias_hh_l0", "dense.weight", "dense.bias"}));
        exportOnnx(tmp.path().toStdString() + "/w.onnx", w);
        QVERIFY(QFileInfo(tmp.path() + "/w.onnx").size() > int64_t(net.paramCount()) * 4);
    }
};

QTEST_GUILESS_MAIN(TstText)
#include "tst_text.moc"
