// IDX reading: valid raw and gzip files, every malformed case with its message, dataset options.
#include "fixtures.hpp"

#include "core/errors.hpp"
#include "data/dataset.hpp"
#include "data/idx.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <zlib.h>

using fixtures::writeIdx;

class TstIdx : public QObject {
    Q_OBJECT

    std::string dir(QTemporaryDir& t) { return t.path().toStdString(); }

    // Expects loadDataset(dir) to throw DataError whose message contains every fragment.
    void expectError(const std::string& d, std::initializer_list<const char*> fragments,
                     const tb::DatasetOptions& options = {})
    {
        try {
            tb::loadDataset(d, options);
            QFAIL("expected a DataError");
        } catch (const tb::DataError& e) {
            const QString msg = QString::fromStdString(e.what());
            for (const char* f : fragments)
                QVERIFY2(msg.contains(QString::fromUtf8(f)), qPrintable("message was: " + msg));
        }
    }

private slots:
    // The images' hash is kept in checkpoints (pixels_hash): its value may not change from one version to
    // the next, or every checkpoint written before would be refused as "of other images".
    void pixelsHashIsStable()
    {
        tb::Dataset d;
        for (int i = 0; i < 20; ++i)
            d.train.pixels.push_back(uint8_t(i));
        d.test.pixels = {200, 201, 202};
        QCOMPARE(tb::pixelsHashOf(d), std::string("80ad77db43fa70d2"));
        d.test.pixels[2] = 203;
        QVERIFY(tb::pixelsHashOf(d) != "80ad77db43fa70d2");
    }

    void readsRawAndGzip_data()
    {
        QTest::addColumn<bool>("gz");
        QTest::newRow("raw") << false;
        QTest::newRow("gz") << true;
    }
    void readsRawAndGzip()
    {
        QFETCH(bool, gz);
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 50, 20, 12, 3, gz);
        const tb::Dataset d = tb::loadDataset(dir(t));
        QCOMPARE(d.train.count, 50);
        QCOMPARE(d.test.count, 20);
        QCOMPARE(d.train.height, 12);
        QCOMPARE(d.numClasses, 3);
        QCOMPARE(d.train.pixels.size(), size_t(50 * 144));
        QCOMPARE(d.classNames.size(), size_t(3));
        QCOMPARE(QString::fromStdString(d.classNames[0]), QString("class 0"));
    }

    void readsExactBytesAndNonSquareImages()
    {
        QTemporaryDir t;
        std::vector<uint8_t> px(2 * 3 * 5);
        for (size_t i = 0; i < px.size(); ++i)
            px[i] = uint8_t(i * 7);
        writeIdx(dir(t) + "/train-images.idx3-ubyte", {2, 3, 5}, px); // dotted spelling
        writeIdx(dir(t) + "/train-labels.idx1-ubyte", {2}, {0, 1});
        writeIdx(dir(t) + "/t10k-images-idx3-ubyte", {1, 3, 5}, std::vector<uint8_t>(15, 9));
        writeIdx(dir(t) + "/t10k-labels-idx1-ubyte", {1}, {1});
        const tb::Dataset d = tb::loadDataset(dir(t));
        QCOMPARE(d.train.height, 3);
        QCOMPARE(d.train.width, 5);
        QCOMPARE(int(d.train.image(1)[0]), 15 * 7 % 256);
        QCOMPARE(d.numClasses, 2);
    }

    void knownClassNamesAndClassesTxt()
    {
        QTemporaryDir t;
        const std::string fashion = dir(t) + "/fashion-mnist";
        QDir().mkpath(QString::fromStdString(fashion));
        fixtures::writeToyDataset(fashion, 40, 10, 8, 10);
        tb::Dataset d = tb::loadDataset(fashion);
        QCOMPARE(QString::fromStdString(d.classNames[9]), QString("Ankle boot"));
        const std::string digits = dir(t) + "/digits";
        QDir().mkpath(QString::fromStdString(digits));
        fixtures::writeToyDataset(digits, 40, 10, 8, 10);
        d = tb::loadDataset(digits);
        QCOMPARE(QString::fromStdString(d.classNames[3]), QString("3"));
        // The folder's own name says Fashion-MNIST, not a folder above it.
        const std::string inside = fashion + "/digits";
        QDir().mkpath(QString::fromStdString(inside));
        fixtures::writeToyDataset(inside, 40, 10, 8, 10);
        QCOMPARE(QString::fromStdString(tb::loadDataset(inside).classNames[3]), QString("3"));
        fixtures::writeRaw(digits + "/classes.txt", "zero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n");
        d = tb::loadDataset(digits);
        QCOMPARE(QString::fromStdString(d.classNames[2]), QString("two"));
        QCOMPARE(QString::fromStdString(d.classNamesSource), QString("classes.txt"));
        fixtures::writeRaw(digits + "/classes.txt", "a\nb\n");
        expectError(digits, {"classes.txt names 2 classes"});
        // Names go into weights files, reports and JSON: UTF-8 only (Latin-1 "é" is byte 0xe9).
        fixtures::writeRaw(digits + "/classes.txt", "zero\none\ntwo\nthr\xe9\nfour\nfive\nsix\nseven\neight\nnine\n");
        expectError(digits, {"classes.txt line 4 is not valid UTF-8 (at byte 3): save it as UTF-8"});
    }

    void badMagic()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/train-images-idx3-ubyte", {10, 12, 12}, std::vector<uint8_t>(1440), false,
                 {0x1f, 0x8b, 8, 3});
        expectError(dir(t), {"train-images-idx3-ubyte: not an IDX file but a gzip-compressed one: name it "
                             "train-images-idx3-ubyte.gz, or decompress it (gunzip)"});
        writeIdx(dir(t) + "/train-images-idx3-ubyte", {10, 12, 12}, std::vector<uint8_t>(1440), false, {1, 2, 8, 3});
        expectError(dir(t), {"train-images-idx3-ubyte", "bad magic number 1,2,8,3"});
    }

    void wrongDataType()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/train-images-idx3-ubyte", {10, 12, 12}, std::vector<uint8_t>(1440), false, {0, 0, 0x0d, 3});
        expectError(dir(t), {"train-images-idx3-ubyte", "data type 0x0d"});
    }

    void wrongDimensionCount()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/train-labels-idx1-ubyte", {10, 1}, std::vector<uint8_t>(10));
        expectError(dir(t), {"train-labels-idx1-ubyte", "has 2 dimensions; expected 1"});
    }

    void truncatedRaw()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/t10k-images-idx3-ubyte", {5, 12, 12}, std::vector<uint8_t>(5 * 144 - 100));
        expectError(dir(t), {"t10k-images-idx3-ubyte", "truncated", "720", "620"});
    }

    void overlongRaw()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/t10k-images-idx3-ubyte", {5, 12, 12}, std::vector<uint8_t>(5 * 144 + 3));
        expectError(dir(t), {"t10k-images-idx3-ubyte", "longer than its header", "3 extra bytes"});
    }

    void truncatedGzip()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5, 12, 3, true);
        writeIdx(dir(t) + "/train-images-idx3-ubyte.gz", {10, 12, 12}, std::vector<uint8_t>(1000), true);
        expectError(dir(t), {"train-images-idx3-ubyte.gz", "truncated", "1440", "1000"});
    }

    void overlongGzip()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5, 12, 3, true);
        writeIdx(dir(t) + "/train-labels-idx1-ubyte.gz", {10}, std::vector<uint8_t>(11), true);
        expectError(dir(t), {"train-labels-idx1-ubyte.gz", "longer than its header"});
    }

    void corruptGzip()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5, 12, 3, true);
        const std::string p = dir(t) + "/train-images-idx3-ubyte.gz";
        QFile f(QString::fromStdString(p));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        for (int i = 20; i < bytes.size() - 10; i += 3)
            bytes[i] = char(bytes[i] ^ 0x5a);
        fixtures::writeRaw(p, bytes.toStdString());
        expectError(dir(t), {"train-images-idx3-ubyte.gz"});
    }

    // What follows the gzip data: more gzip members read on as one stream (gzip -d does the same),
    // anything else is refused; gzread, used before, ignored it. A .gz file that is not gzip reads as it is.
    void afterTheGzipData()
    {
        QTemporaryDir t;
        std::vector<uint8_t> px(4 * 12 * 12);
        for (size_t i = 0; i < px.size(); ++i)
            px[i] = uint8_t(i * 13);
        const std::string p = dir(t) + "/x-idx3-ubyte.gz";
        writeIdx(p, {4, 12, 12}, px, true);
        QCOMPARE(tb::readIdx(p, 3).bytes, px);
        const QString qp = QString::fromStdString(p);
        QFile f(qp);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray whole = f.readAll();
        f.close();
        fixtures::writeRaw(p, (whole + "not gzip\n").toStdString());
        try {
            tb::readIdx(p, 3);
            QFAIL("trailing bytes were accepted");
        } catch (const tb::DataError& e) {
            QVERIFY2(QString(e.what()).contains("x-idx3-ubyte.gz: has bytes after the end of its gzip data that are "
                                                "not gzip data"),
                     e.what());
        }
        // The header and the first pixels in one member, the rest in a second.
        std::string head;
        for (uint8_t b : {0, 0, 8, 3, 0, 0, 0, 4, 0, 0, 0, 12, 0, 0, 0, 12})
            head += char(b);
        const size_t half = px.size() / 2;
        gzFile g = gzopen(p.c_str(), "wb");
        QVERIFY(g && gzwrite(g, head.data(), unsigned(head.size())) > 0 && gzwrite(g, px.data(), unsigned(half)) > 0);
        QCOMPARE(gzclose(g), Z_OK);
        g = gzopen(p.c_str(), "ab"); // appends a second member
        QVERIFY(g && gzwrite(g, px.data() + half, unsigned(px.size() - half)) > 0);
        QCOMPARE(gzclose(g), Z_OK);
        QCOMPARE(tb::readIdx(p, 3).bytes, px);
        // Raw IDX bytes under a .gz name (a browser that inflated the download and kept the name).
        writeIdx(p, {4, 12, 12}, px, false);
        QCOMPARE(tb::readIdx(p, 3).bytes, px);
    }

    void countMismatch()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/train-labels-idx1-ubyte", {9}, std::vector<uint8_t>(9));
        expectError(dir(t), {"holds 9 labels but", "holds 10 images"});
    }

    void trainTestSizeMismatch()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        writeIdx(dir(t) + "/t10k-images-idx3-ubyte", {5, 10, 10}, std::vector<uint8_t>(500));
        expectError(dir(t), {"train images are 12x12 but test images are 10x10"});
    }

    void testLabelOutOfRange()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 30, 5, 12, 3);
        writeIdx(dir(t) + "/t10k-labels-idx1-ubyte", {5}, {0, 1, 7, 2, 1});
        expectError(dir(t), {"t10k-labels uses label 7", "0..2"});
    }

    // Reading the test split alone (evaluating weights), the classes are the training labels' (not the
    // images'): a test split without one of them still has them all, so the weights trained here fit.
    // Without a readable training labels file, the test labels say.
    void testSplitAloneTakesTheTrainingClasses()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 40, 5, 8, 10);
        writeIdx(dir(t) + "/t10k-labels-idx1-ubyte", {5}, {0, 1, 8, 2, 1}); // no 9
        tb::DatasetOptions testOnly;
        testOnly.testSplitOnly = true;
        tb::Dataset d = tb::loadDataset(dir(t), testOnly);
        QCOMPARE(d.numClasses, 10);
        QCOMPARE(QString::fromStdString(d.classNames[9]), QString("9"));
        QCOMPARE(d.train.count, 0);
        writeIdx(dir(t) + "/train-images-idx3-ubyte", {40, 8, 8}, std::vector<uint8_t>(10)); // truncated: unread
        QCOMPARE(tb::loadDataset(dir(t), testOnly).numClasses, 10);
        writeIdx(dir(t) + "/train-labels-idx1-ubyte", {40}, std::vector<uint8_t>(3)); // truncated
        QCOMPARE(tb::loadDataset(dir(t), testOnly).numClasses, 9);
        QFile::remove(QString::fromStdString(dir(t) + "/train-labels-idx1-ubyte"));
        QCOMPARE(tb::loadDataset(dir(t), testOnly).numClasses, 9);
    }

    void absurdSizeRefusedBeforeAllocating()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        // 4 billion images declared, a few bytes present.
        writeIdx(dir(t) + "/train-images-idx3-ubyte", {4000000000u, 1000, 1000}, std::vector<uint8_t>(16));
        expectError(dir(t), {"dimension 1 is absurd"});
        writeIdx(dir(t) + "/train-images-idx3-ubyte.gz", {100000, 4000, 4000}, std::vector<uint8_t>(16), true);
        QFile::remove(QString::fromStdString(dir(t) + "/train-images-idx3-ubyte"));
        expectError(dir(t), {"train-images-idx3-ubyte.gz", "more than this machine can hold"});
    }

    void sizeLimitForTesting()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 10, 5);
        tb::setIdxSizeLimitForTesting(1000);
        expectError(dir(t), {"declares 1440 bytes", "more than this machine can hold"});
        tb::setIdxSizeLimitForTesting(0);
    }

    void missingFilesAndFolder()
    {
        QTemporaryDir t;
        expectError(dir(t) + "/nope", {"does not exist"});
        expectError(dir(t), {"no train-images-idx3-ubyte"});
        fixtures::writeRaw(dir(t) + "/train-images-idx3-ubyte", "ab");
        fixtures::writeIdx(dir(t) + "/train-labels-idx1-ubyte", {1}, {0});
        expectError(dir(t), {"too short"});
    }

    void dropRemainderAndSizeMultiplier()
    {
        QTemporaryDir t;
        fixtures::writeToyDataset(dir(t), 70, 45, 6);
        tb::DatasetOptions o;
        o.dropRemainderBatch = 32;
        o.sizeMultiplier = 3;
        const tb::Dataset d = tb::loadDataset(dir(t), o);
        QCOMPARE(d.train.count, 64);
        QCOMPARE(d.test.count, 32);
        QCOMPARE(d.inputHeight(), 18);
        std::vector<float> img(18 * 18);
        tb::imageToFloat(d.train, 0, 3, 1.0f, img.data());
        const uint8_t* src = d.train.image(0);
        QCOMPARE(img[0], float(src[0]));
        QCOMPARE(img[2 * 18 + 2], float(src[0]));
        QCOMPARE(img[3 * 18 + 5], float(src[1 * 6 + 1]));
        // A batch larger than a split: which split, how many images.
        o.dropRemainderBatch = 50;
        expectError(dir(t), {"cannot drop the remainder: the test split holds 45 images, fewer than one batch of 50"},
                    o);
    }
};

QTEST_GUILESS_MAIN(TstIdx)
#include "tst_idx.moc"
