// Training: bit-identical weights on 1 and N threads and on N ranks (threads standing in for MPI's
// processes), seeds that matter, optimizer rules, NaN
// handling, the weights file, and learning on real Fashion-MNIST images.
#include "fixtures.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "data/dataset.hpp"
#include "io/weights_file.hpp"
#include "kernels/isa.hpp"
#include "kernels/kernels.hpp"
#include "layers/conv2d.hpp"
#include "model/model_spec.hpp"
#include "mpi/communicator.hpp"
#include "train/cpu_executor.hpp"
#include "train/session.hpp"
#include "train/trainer.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <barrier>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

using namespace tb;

namespace {
Network toyNetwork()
{
    return Network(parseModelSpec(fixtures::toyModelJson(), "toy"), Shape::image(12, 12, 1), 3);
}

struct Run {
    std::string sha;
    std::vector<EpochRecord> history;
};

// The ranks of an MPI run as threads of this process: the Communicator's collectives through shared
// memory, so that the executor's distributed path runs here and under the sanitizers, without
// mpirun (tests/mpi_training.sh runs the real one).
struct ThreadHub {
    explicit ThreadHub(int n) : ranks(n), sync(n), inbox(static_cast<size_t>(n)) {}
    struct Inbox {
        std::mutex m;
        std::condition_variable cv;
        std::deque<std::vector<float>> messages;
    };
    int ranks;
    std::barrier<> sync;
    std::vector<double> doubles;
    std::vector<uint64_t> words;
    std::vector<float> floats;
    std::vector<Inbox> inbox; // (ranks) the messages to each rank, in order
};

class ThreadCommunicator final : public Communicator {
public:
    ThreadCommunicator(std::shared_ptr<ThreadHub> hub, int rank) : m_hub(std::move(hub)), m_rank(rank) {}
    int rank() const override { return m_rank; }
    int size() const override { return m_hub->ranks; }
    void allgatherv(const double* mine, double* all, const std::vector<int>& counts,
                    const std::vector<int>& displs) override
    {
        const int total = std::accumulate(counts.begin(), counts.end(), 0);
        gather(m_hub->doubles, mine, counts[size_t(m_rank)], displs[size_t(m_rank)], all, total);
    }
    void allgather(const uint64_t* mine, int n, uint64_t* all) override
    {
        gather(m_hub->words, mine, n, n * m_rank, all, n * size());
    }
    bool anyRank(bool mine) override
    {
        std::vector<uint64_t> all(static_cast<size_t>(m_hub->ranks));
        const uint64_t word = mine ? 1 : 0;
        allgather(&word, 1, all.data());
        return std::find(all.begin(), all.end(), uint64_t(1)) != all.end();
    }
    void receiveFromPrevious(float* data, int64_t n, int) override
    {
        ThreadHub::Inbox& box = m_hub->inbox[size_t(m_rank)];
        std::unique_lock lock(box.m);
        box.cv.wait(lock, [&] { return !box.messages.empty(); });
        if (int64_t(box.messages.front().size()) != n) // a test thread: no QCOMPARE here
            throw std::logic_error("rank " + std::to_string(m_rank) + " received " +
                                   std::to_string(box.messages.front().size()) + " values, not " + std::to_string(n));
        std::copy(box.messages.front().begin(), box.messages.front().end(), data);
        box.messages.pop_front();
    }
    void sendToNext(const float* data, int64_t n, int) override
    {
        ThreadHub::Inbox& box = m_hub->inbox[size_t(m_rank) + 1];
        {
            std::lock_guard lock(box.m);
            box.messages.emplace_back(data, data + n);
        }
        box.cv.notify_one();
    }
    void finishSends() override {}
    void broadcastFromLast(float* data, int64_t n) override
    {
        const bool last = m_rank == size() - 1;
        m_hub->sync.arrive_and_wait();
        if (last)
            m_hub->floats.assign(data, data + n);
        m_hub->sync.arrive_and_wait();
        if (!last)
            std::copy(m_hub->floats.begin(), m_hub->floats.end(), data);
        m_hub->sync.arrive_and_wait();
    }
    uint64_t bytesCommunicated() const override { return 0; }
    void setEndNote(std::string note) override { notes.push_back(std::move(note)); }

    std::vector<std::string> notes; // every setEndNote, in order

private:
    template <class T> void gather(std::vector<T>& shared, const T* mine, int n, int at, T* all, int total)
    {
        m_hub->sync.arrive_and_wait();
        if (m_rank == 0)
            shared.assign(size_t(total), T{});
        m_hub->sync.arrive_and_wait();
        std::copy(mine, mine + n, shared.begin() + at);
        m_hub->sync.arrive_and_wait();
        std::copy(shared.begin(), shared.end(), all);
        m_hub->sync.arrive_and_wait();
    }
    std::shared_ptr<ThreadHub> m_hub;
    int m_rank;
};

Network networkOf(const Dataset& d, const std::string& json)
{
    return Network(parseModelSpec(json, "toy"), Shape::image(d.inputHeight(), d.inputWidth(), 1), d.numClasses);
}

// A few batches of 32 on 2 threads.
TrainConfig briefTraining(int batches, uint64_t seed)
{
    TrainConfig cfg;
    cfg.batchSize = 32;
    cfg.maxBatches = batches;
    cfg.device.threads = 2;
    cfg.seed = seed;
    return cfg;
}

Run trainToy(const Dataset& d, int threads, uint64_t seed, OptimizerKind opt = OptimizerKind::Adam, int epochs = 2,
             std::shared_ptr<Communicator> comm = nullptr, int batch = 50,
             const std::string& json = fixtures::toyModelJson())
{
    Network net = networkOf(d, json);
    net.initialize(seed);
    TrainConfig cfg;
    cfg.epochs = epochs;
    cfg.batchSize = batch; // 50: 3 shards of 16 and a partial one; the last batch is partial too
    cfg.device.threads = threads;
    cfg.communicator = std::move(comm);
    cfg.seed = seed;
    cfg.optimizer.kind = opt;
    cfg.optimizer.learningRate = defaultLearningRate(opt);
    cfg.optimizer.momentum = opt == OptimizerKind::SGD ? 0.9f : 0.0f;
    Trainer t(net, d, cfg);
    t.run();
    return {net.weightsSha256(), t.history()};
}
// Sets the stop flag (as Ctrl-C or the window's Stop do) after the batch `when` picks; counts the
// batches and epochs it hears of.
struct StopWhen : TrainObserver {
    std::atomic<bool>* flag;
    std::function<bool(const BatchProgress&)> when;
    int batches = 0, epochs = 0;
    StopWhen(std::atomic<bool>* f, std::function<bool(const BatchProgress&)> w) : flag(f), when(std::move(w)) {}
    void batchFinished(const BatchProgress& p) override
    {
        ++batches;
        if (when(p))
            flag->store(true);
    }
    void epochFinished(const EpochRecord&, const EvalResult&) override { ++epochs; }
};

// What two ranks' runs, side by side on one hub, refused (ConfigError's words; empty where none).
template <typename Train> std::array<std::string, 2> twoRanksRefusals(Train train)
{
    auto hub = std::make_shared<ThreadHub>(2);
    std::array<std::string, 2> errors;
    std::vector<std::thread> ranks;
    for (int r = 0; r < 2; ++r)
        ranks.emplace_back([&, r] {
            try {
                train(r, std::make_shared<ThreadCommunicator>(hub, r));
            } catch (const ConfigError& e) {
                errors[size_t(r)] = e.what();
            }
        });
    for (std::thread& t : ranks)
        t.join();
    return errors;
}
} // namespace

class TstTraining : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    Dataset m_toy;

private slots:
    void initTestCase()
    {
        const std::string why = fixtures::isaUnavailable();
        if (!why.empty())
            QSKIP(why.c_str());
        qInfo("kernels: %s", tb::describeKernels(tb::defaultKernels()).c_str());
        fixtures::writeToyDataset(m_tmp.path().toStdString(), 230, 60, 12, 3);
        m_toy = loadDataset(m_tmp.path().toStdString());
    }

    void sameSeedSameWeightsOnAnyThreadCount_data()
    {
        QTest::addColumn<int>("optimizer");
        QTest::newRow("adam") << int(OptimizerKind::Adam);
        QTest::newRow("sgd") << int(OptimizerKind::SGD);
        QTest::newRow("rmsprop") << int(OptimizerKind::RMSprop);
    }
    void sameSeedSameWeightsOnAnyThreadCount()
    {
        QFETCH(int, optimizer);
        const auto opt = OptimizerKind(optimizer);
        const Run one = trainToy(m_toy, 1, 42, opt);
        const Run two = trainToy(m_toy, 2, 42, opt);
        const Run three = trainToy(m_toy, 3, 42, opt);
        QCOMPARE(two.sha, one.sha);
        QCOMPARE(three.sha, one.sha);
        QCOMPARE(two.history[1].valLoss, one.history[1].valLoss);
        const Run other = trainToy(m_toy, 2, 43, opt);
        QVERIFY(other.sha != one.sha);
    }

    // Winograd's convolutions (fixtures::winogradModelJson), whose kernels are transformed before
    // each pass in blocks of rows that the threads share: the same weights on 1, 2 and 3 threads.
    // Under TSan too (scripts/hardening.sh), for the blocks' writes.
    void winogradSameWeightsOnAnyThreadCount()
    {
        const std::string json = fixtures::winogradModelJson();
        const Network net = networkOf(m_toy, json);
        for (int i = 1; i <= 3; ++i)
            QVERIFY2(dynamic_cast<const Conv2D&>(net.layer(i)).usesWinograd(), net.layer(i).name().c_str());
        const Run one = trainToy(m_toy, 1, 42, OptimizerKind::Adam, 1, nullptr, 50, json);
        QCOMPARE(trainToy(m_toy, 2, 42, OptimizerKind::Adam, 1, nullptr, 50, json).sha, one.sha);
        QCOMPARE(trainToy(m_toy, 3, 42, OptimizerKind::Adam, 1, nullptr, 50, json).sha, one.sha);
        QVERIFY(std::isfinite(one.history.back().loss));
    }

    // Each rank a thread with its own network, the ranks' shards summed in the single process's
    // order: the same weights on every rank as on one process; 5 ranks leave rank 0 without a shard
    // of the 4 in a batch of 50. Ranks may run different thread counts (nodes of different sizes):
    // the messages between them do not depend on a rank's threads.
    void ranksGiveTheWeightsOfOneProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("threads");
        QTest::newRow("2 ranks") << 2 << 1;
        QTest::newRow("3 ranks x 2 threads") << 3 << 2;
        QTest::newRow("5 ranks") << 5 << 1;
        QTest::newRow("3 ranks x 1, 2 and 3 threads") << 3 << 0; // 0: rank r runs r + 1 threads
    }
    // A Dense of 576 inputs: its kernel gradient is 6 tasks, which ranks pass on in groups.
    static std::string wideDenseJson()
    {
        return R"({"layers": [{"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "relu"},
            {"type": "Flatten"}, {"type": "Dense", "units": 16, "activation": "relu"},
            {"type": "Dense", "units": 3, "activation": "softmax"}]})";
    }
    void ranksGiveTheWeightsOfOneProcess()
    {
        QFETCH(int, ranks);
        QFETCH(int, threads);
        const std::string json = threads > 0 ? fixtures::toyModelJson() : wideDenseJson();
        const Run one = trainToy(m_toy, 1, 42, OptimizerKind::Adam, 2, nullptr, 50, json);
        auto hub = std::make_shared<ThreadHub>(ranks);
        std::vector<Run> runs(static_cast<size_t>(ranks));
        std::vector<std::string> errors(static_cast<size_t>(ranks));
        std::vector<std::thread> rankThreads;
        for (int r = 0; r < ranks; ++r)
            rankThreads.emplace_back([&, r] {
                try {
                    runs[size_t(r)] = trainToy(m_toy, threads > 0 ? threads : r + 1, 42, OptimizerKind::Adam, 2,
                                               std::make_shared<ThreadCommunicator>(hub, r), 50, json);
                } catch (const std::exception& e) {
                    errors[size_t(r)] = e.what();
                }
            });
        for (std::thread& t : rankThreads)
            t.join();
        for (int r = 0; r < ranks; ++r) {
            QCOMPARE(errors[size_t(r)], std::string());
            QCOMPARE(runs[size_t(r)].sha, one.sha);
            QCOMPARE(runs[size_t(r)].history[1].valLoss, one.history[1].valLoss);
        }
    }

    // A rank whose batch differs is named on every rank before anything is trained.
    void rankWithOtherSettingsIsNamed()
    {
        const auto errors = twoRanksRefusals([&](int r, std::shared_ptr<Communicator> comm) {
            trainToy(m_toy, 1, 42, OptimizerKind::Adam, 1, std::move(comm), r == 0 ? 50 : 40);
        });
        for (const std::string& e : errors)
            QVERIFY2(e.find("MPI rank 1's batch size differs from rank 0's") != std::string::npos, e.c_str());
    }

    // Images that differ on one rank are named, in plural words ("differ", not "differs").
    void rankWithOtherImagesIsNamed()
    {
        Dataset other = m_toy;
        other.train.pixels[7] ^= 0x20;
        other.pixelsHash.clear();
        const auto errors = twoRanksRefusals([&](int r, std::shared_ptr<Communicator> comm) {
            trainToy(r == 0 ? m_toy : other, 1, 42, OptimizerKind::Adam, 1, std::move(comm));
        });
        for (const std::string& e : errors)
            QVERIFY2(e.find("MPI rank 1's training images differ from rank 0's") != std::string::npos, e.c_str());
    }

    // Ranks of different thread counts are each named in the run's header (and run.json's "kernels"),
    // not all as rank 0's device.
    void ranksOfOtherThreadCountsAreEachNamed()
    {
        auto hub = std::make_shared<ThreadHub>(3);
        std::string described[3];
        std::vector<std::thread> rankThreads;
        for (int r = 0; r < 3; ++r)
            rankThreads.emplace_back([&, r] {
                TrainConfig cfg;
                cfg.epochs = 1;
                cfg.batchSize = 50;
                cfg.device.threads = r == 1 ? 1 : 2;
                cfg.communicator = std::make_shared<ThreadCommunicator>(hub, r);
                TrainingSession s(parseModelSpec(fixtures::toyModelJson(), "toy"), m_toy, cfg);
                described[r] = s.info().kernels;
            });
        for (std::thread& t : rankThreads)
            t.join();
        const QRegularExpression each("MPI: 3 ranks: cpu:2@\\w+ \\(ranks 0, 2\\), cpu:1@\\w+ \\(rank 1\\)$");
        for (const std::string& d : described)
            QVERIFY2(each.match(QString::fromStdString(d)).hasMatch(), d.c_str());
        const std::vector<std::string> same = {"cpu:1@avx2", "cpu:1@avx2"};
        auto one = std::make_shared<ThreadCommunicator>(std::make_shared<ThreadHub>(2), 0);
        QCOMPARE(describeCommunicator(one.get(), same), std::string("MPI: 2 ranks \xc3\x97 cpu:1@avx2"));
    }

    // The watchdog's message (Communicator::setEndNote) claims only a checkpoint rank 0 has written:
    // none before the first, then its path and place, on every rank (another rank, which cannot see
    // rank 0's writes, says "or later": rank 0 may be writing a newer one); none without a run folder.
    void theWatchdogNamesOnlyACheckpointThatExists()
    {
        for (const bool folder : {true, false}) {
            auto hub = std::make_shared<ThreadHub>(2);
            std::vector<std::string> notes[2];
            std::string path;
            std::vector<std::thread> rankThreads;
            for (int r = 0; r < 2; ++r)
                rankThreads.emplace_back([&, r] {
                    TrainConfig cfg;
                    cfg.epochs = 1;
                    cfg.batchSize = 50; // 5 steps
                    cfg.device.threads = 1;
                    auto comm = std::make_shared<ThreadCommunicator>(hub, r);
                    cfg.communicator = comm;
                    TrainingSession s(parseModelSpec(fixtures::toyModelJson(), "toy"), m_toy, cfg);
                    if (r == 0 && folder) {
                        s.enableCheckpoints(RunFolder::create(m_tmp.path().toStdString() + "/watchdog", "toy"), 2);
                        path = s.runFolder()->path;
                    }
                    s.run();
                    notes[r] = comm->notes;
                });
            for (std::thread& t : rankThreads)
                t.join();
            for (int r = 0; r < 2; ++r) {
                const std::vector<std::string>& n = notes[r];
                QVERIFY(!n.empty());
                if (!folder) {
                    QCOMPARE(n.size(), size_t(1));
                    QVERIFY2(n[0].find("no run folder") != std::string::npos, n[0].c_str());
                    continue;
                }
                QCOMPARE(n[0], "The run wrote no checkpoint yet (in " + path + "): it cannot be resumed.");
                const std::string whose = r == 0 ? "The run's last checkpoint, " : "Rank 0's last checkpoint, ";
                const std::string second =
                    whose + path + "/checkpoint.tbw (at epoch 1, step 2" + (r == 0 ? "" : " or later") +
                    "), is intact: trainbench-cli train --resume " + path + " continues from it.";
                QVERIFY2(n.size() >= 2 && n[1] == second, (n.size() >= 2 ? n[1] : n[0]).c_str());
                // Rank 0 names its last; rank 1 the last it knows rank 0 finished (step 4: the epoch's end
                // was never followed by a step that needed rank 0).
                const std::string last = r == 0 ? "(at the end of epoch 1)" : "(at epoch 1, step 4 or later)";
                QVERIFY2(n.back().find(last) != std::string::npos, n.back().c_str());
            }
        }
    }

    // A stop asked of one rank alone (a signal to one process of mpirun's job) stops every rank after
    // the same step, between batches or in an epoch's validation: a rank that stopped alone would leave
    // the others waiting for its gradient. Going on from there gives every rank the weights of one
    // process that was never stopped.
    void aStopAskedOfOneRankStopsEveryRank_data()
    {
        QTest::addColumn<bool>("inValidation");
        QTest::newRow("between batches") << false;
        QTest::newRow("in the validation") << true;
    }
    void aStopAskedOfOneRankStopsEveryRank()
    {
        QFETCH(bool, inValidation);
        constexpr int ranks = 3, asked = 1;
        const Run one = trainToy(m_toy, 1, 42, OptimizerKind::Adam);
        auto hub = std::make_shared<ThreadHub>(ranks);
        std::vector<TrainStatus> stopped(ranks), resumed(ranks);
        std::vector<RunPosition> at(ranks);
        std::vector<int> steps(ranks);
        std::vector<std::string> shas(ranks), errors(ranks);
        std::vector<std::thread> rankThreads;
        for (int r = 0; r < ranks; ++r)
            rankThreads.emplace_back([&, r] {
                try {
                    Network net = networkOf(m_toy, fixtures::toyModelJson());
                    net.initialize(42);
                    TrainConfig cfg; // trainToy's
                    cfg.epochs = 2;
                    cfg.batchSize = 50;
                    cfg.device.threads = 1;
                    cfg.communicator = std::make_shared<ThreadCommunicator>(hub, r);
                    cfg.seed = 42;
                    cfg.optimizer.kind = OptimizerKind::Adam;
                    cfg.optimizer.learningRate = defaultLearningRate(OptimizerKind::Adam);
                    Trainer t(net, m_toy, cfg);
                    std::atomic<bool> stop{false};
                    StopWhen c(&stop, [&](const BatchProgress& p) {
                        return r == asked && p.epoch == 1 && p.step == (inValidation ? p.steps : 2);
                    });
                    stopped[size_t(r)] = t.run(&c, &stop);
                    at[size_t(r)] = t.position();
                    steps[size_t(r)] = t.stepsPerEpoch();
                    stop = false;
                    resumed[size_t(r)] = t.run(&c, &stop);
                    t.syncToHost();
                    shas[size_t(r)] = net.weightsSha256();
                } catch (const std::exception& e) {
                    errors[size_t(r)] = e.what();
                }
            });
        for (std::thread& t : rankThreads)
            t.join();
        for (size_t r = 0; r < size_t(ranks); ++r) {
            QCOMPARE(errors[r], std::string());
            QCOMPARE(stopped[r], TrainStatus::Cancelled);
            QCOMPARE(at[r].epoch, 0);
            QCOMPARE(at[r].step, inValidation ? steps[r] : 2);
            QCOMPARE(resumed[r], TrainStatus::Completed);
            QCOMPARE(shas[r], one.sha);
        }
    }

    void toyModelLearns()
    {
        const Run r = trainToy(m_toy, 2, 1, OptimizerKind::Adam, 20);
        QVERIFY2(r.history.back().loss < 0.6 * r.history.front().loss,
                 qPrintable(QString("loss %1 -> %2").arg(r.history.front().loss).arg(r.history.back().loss)));
        QVERIFY(r.history.back().accuracy > 0.8);
    }

    void shuffleIsAPermutationKeyedBySeedAndEpoch()
    {
        const auto a = shuffledOrder(1000, 3, 0);
        auto sorted = a;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(sorted[size_t(i)], i);
        QVERIFY(a != shuffledOrder(1000, 3, 1));
        QVERIFY(a != shuffledOrder(1000, 4, 0));
        QCOMPARE(a, shuffledOrder(1000, 3, 0));
    }

    void optimizerRules()
    {
        // Adam, first step: m = 0.1 g, v = 0.001 g^2, lr_t = lr * sqrt(0.001) / 0.1.
        OptimizerConfig c;
        Optimizer adam(c, 1);
        float p = 1.0f;
        const float g = 0.5f;
        adam.step(&p, &g);
        const double lrT = 1e-3 * std::sqrt(1 - 0.999) / (1 - 0.9);
        const double expected = 1.0 - lrT * 0.05 / (std::sqrt(0.001 * 0.25) + 1e-7);
        QVERIFY(std::fabs(p - expected) < 1e-7);
        // SGD with momentum 0.9: v1 = -lr g, v2 = 0.9 v1 - lr g.
        c.kind = OptimizerKind::SGD;
        c.learningRate = 0.1f;
        c.momentum = 0.9f;
        Optimizer sgd(c, 1);
        p = 0.0f;
        sgd.step(&p, &g);
        sgd.step(&p, &g);
        QVERIFY(std::fabs(p - (-0.05f + (-0.045f - 0.05f))) < 1e-6f);
        c.nesterov = true;
        Optimizer nag(c, 1);
        p = 0.0f;
        nag.step(&p, &g); // v = -0.05; p += 0.9 v - lr g
        QVERIFY(std::fabs(p - (0.9f * -0.05f - 0.05f)) < 1e-6f);
        c = OptimizerConfig();
        c.kind = OptimizerKind::RMSprop;
        Optimizer rms(c, 1);
        p = 0.0f;
        rms.step(&p, &g); // ms = 0.1 g^2
        QVERIFY(std::fabs(p - float(-1e-3 * 0.5 / (std::sqrt(0.1 * 0.25) + 1e-7))) < 1e-7f);
    }

    // The trainer updates parameters in parallel chunks, out of place: that equals one in-place step,
    // and an abandoned step leaves the optimizer as it was.
    void optimizerUpdateInPiecesEqualsOneStep()
    {
        for (OptimizerKind kind : {OptimizerKind::Adam, OptimizerKind::SGD, OptimizerKind::RMSprop}) {
            OptimizerConfig oc;
            oc.kind = kind;
            oc.learningRate = 0.01f;
            oc.nesterov = true;
            oc.momentum = 0.9f;
            Optimizer whole(oc, 7), pieces(oc, 7);
            std::vector<float> p1 = {1, -2, 3, 0.5f, -0.25f, 4, 0}, p2 = p1;
            const std::vector<float> g = {0.1f, -0.3f, 2, 0, 1e-3f, -5, 0.7f};
            for (int t = 0; t < 3; ++t) {
                whole.step(p1.data(), g.data());
                std::vector<float> out(7);
                pieces.beginStep();
                pieces.update(p2.data(), g.data(), out.data(), 4, 7);
                pieces.update(p2.data(), g.data(), out.data(), 0, 4);
                pieces.commitStep();
                p2 = out;
            }
            QCOMPARE(p2, p1);
            QCOMPARE(pieces.slotBuffer(), whole.slotBuffer());
            QCOMPARE(pieces.iterations(), whole.iterations());
            const std::vector<float> before = pieces.slotBuffer();
            std::vector<float> out(7);
            pieces.beginStep();
            pieces.update(p2.data(), g.data(), out.data(), 0, 7);
            pieces.abandonStep();
            QCOMPARE(pieces.slotBuffer(), before);
            QCOMPARE(pieces.iterations(), whole.iterations());
        }
    }

    // A batch too large for memory is refused before the optimizer allocates its moments (Adam's are
    // twice the weights, 400 MB here): the old code zeroed them first, which for a large model took
    // gigabytes and many seconds before the refusal.
    void aBatchTooLargeIsRefusedBeforeTheOptimizerAllocates()
    {
        Network net = networkOf(m_toy, R"({"layers": [{"type": "Flatten"}, {"type": "Dense", "units": 350000},
            {"type": "Dense", "units": 3, "activation": "softmax"}]})");
        TrainConfig cfg;
        cfg.batchSize = 65536;
        cfg.device.threads = 1;
        if (CpuExecutor::trainingBytes(net, cfg.batchSize, 1) <= physicalMemoryBytes())
            QSKIP("this machine could hold the batch");
        if (fixtures::peakResidentBytes(true) < 0)
            QSKIP("the system does not say the process's peak memory (/proc/self/clear_refs, VmHWM)");
        const int64_t before = fixtures::peakResidentBytes(true);
        QVERIFY_THROWS_EXCEPTION(ConfigError, (void)Trainer(net, m_toy, cfg));
        const int64_t grew = fixtures::peakResidentBytes() - before;
        QVERIFY2(grew < 100 << 20, qPrintable(QString("the peak memory grew by %1 MB").arg(grew >> 20)));
    }

    // A step whose update overflows leaves weights, BatchNorm statistics and optimizer state as
    // they were, to the bit.
    void divergedBatchIsNotApplied()
    {
        Network net = toyNetwork();
        net.initialize(1);
        TrainConfig cfg;
        cfg.batchSize = 32;
        cfg.optimizer.kind = OptimizerKind::RMSprop;
        cfg.optimizer.learningRate = 1e-3f;
        Trainer good(net, m_toy, cfg);
        std::vector<int> first(32);
        std::iota(first.begin(), first.end(), 0);
        QCOMPARE(int(good.trainBatch(first.data(), 32).diverged), int(Trainer::Divergence::None));
        cfg.optimizer.learningRate = 3e38f; // lr * g / sqrt(ms) overflows wherever g is not tiny
        Trainer t(net, m_toy, cfg);
        t.backend().setOptimizerState(good.backend().optimizerState()); // a non-zero state to keep
        const std::vector<float> params = net.params(), state = net.state();
        const std::vector<float> optimizerState = t.backend().optimizerState().slotBuffer;
        const BatchResult r = t.trainBatch(first.data(), 32);
        QCOMPARE(int(r.diverged), int(Trainer::Divergence::Weights));
        QCOMPARE(net.params(), params);
        QCOMPARE(net.state(), state);
        QCOMPARE(t.backend().optimizerState().slotBuffer, optimizerState);
        QCOMPARE(t.backend().iterations(), int64_t(1)); // the good state's step, no more
    }

    // A loss that is not a number comes from weights the step before left (finite, but far too large):
    // those are not "good weights", and the error says none were kept, so that no front end saves them. A gradient or
    // an update that is not a number is not applied, and the weights before it are kept.
    void divergenceKeepsOnlyGoodWeights()
    {
        Network net = toyNetwork();
        net.initialize(1);
        std::fill(net.params().begin(), net.params().end(), 1e38f);
        TrainConfig cfg;
        cfg.batchSize = 32;
        Trainer t(net, m_toy, cfg);
        try {
            t.run();
            QFAIL("the run did not diverge");
        } catch (const DivergedError& e) {
            QVERIFY(!e.weightsKept());
            QCOMPARE(int(e.id()), int(MessageId::TrainingDivergedNoWeights));
            QVERIFY2(std::string(e.what()).find("no weights were kept") != std::string::npos, e.what());
        }
        Network good = toyNetwork();
        good.initialize(1);
        cfg.optimizer.kind = OptimizerKind::RMSprop;
        cfg.optimizer.learningRate = 3e38f; // the first update overflows (lr * g / sqrt(ms), ms's first step)
        Trainer u(good, m_toy, cfg);
        try {
            u.run();
            QFAIL("the run did not diverge");
        } catch (const DivergedError& e) {
            QVERIFY2(e.weightsKept(), e.what());
            QCOMPARE(int(e.id()), int(MessageId::TrainingDiverged));
        }
        QCOMPARE(good.params(), [] {
            Network fresh = toyNetwork();
            fresh.initialize(1);
            return fresh.params();
        }());
    }

    void cancellationStopsBetweenBatches()
    {
        Network net = toyNetwork();
        TrainConfig cfg;
        cfg.batchSize = 10;
        Trainer t(net, m_toy, cfg);
        std::atomic<bool> stop{false};
        StopWhen c(&stop, [](const BatchProgress& p) { return p.step == 2; });
        QCOMPARE(t.run(&c, &stop), TrainStatus::Cancelled);
        QCOMPARE(c.batches, 2);
    }

    // A stop during an epoch's validation ends it there (Ctrl-C waited for the whole test set): the
    // position stays at the epoch's last step, nothing reports the epoch, and going on validates it
    // first and ends with the weights and history (the rates of a schedule included) of a run never
    // stopped. With a validation flag of its own that stays clear (the window's Stop, which tests the
    // stopped weights anyway), the validation ends and the run stops before the next epoch.
    void cancellationStopsTheValidation()
    {
        TrainConfig cfg;
        cfg.batchSize = 10;
        cfg.epochs = 2;
        cfg.seed = 4;
        cfg.schedule.kind = ScheduleKind::Cosine; // each step's rate differs
        Network whole = toyNetwork();
        whole.initialize(4);
        Trainer uninterrupted(whole, m_toy, cfg);
        QCOMPARE(uninterrupted.run(), TrainStatus::Completed);

        Network net = toyNetwork();
        net.initialize(4);
        Trainer t(net, m_toy, cfg);
        std::atomic<bool> stop{false};
        // After the epoch's last step: the validation sees it.
        StopWhen c(&stop, [](const BatchProgress& p) { return p.epoch == 1 && p.step == p.steps; });
        QCOMPARE(t.run(&c, &stop), TrainStatus::Cancelled);
        QCOMPARE(c.epochs, 0);
        QCOMPARE(t.position().epoch, 0);
        QCOMPARE(t.position().step, t.stepsPerEpoch());
        QVERIFY(t.position().inValidation(t.stepsPerEpoch()));
        QVERIFY(t.history().empty());
        stop = false;
        QCOMPARE(t.run(&c, &stop), TrainStatus::Completed);
        QCOMPARE(c.epochs, 2);
        t.syncToHost();
        uninterrupted.syncToHost();
        QCOMPARE(net.weightsSha256(), whole.weightsSha256());
        QCOMPARE(t.history().size(), uninterrupted.history().size());
        for (size_t e = 0; e < t.history().size(); ++e) {
            QCOMPARE(t.history()[e].valLoss, uninterrupted.history()[e].valLoss);
            QCOMPARE(t.history()[e].loss, uninterrupted.history()[e].loss);
            QCOMPARE(t.history()[e].learningRate, uninterrupted.history()[e].learningRate);
        }

        Network kept = toyNetwork();
        kept.initialize(4);
        Trainer w(kept, m_toy, cfg);
        std::atomic<bool> windowStop{false}, closing{false};
        StopWhen s(&windowStop, [](const BatchProgress& p) { return p.epoch == 1 && p.step == p.steps; });
        QCOMPARE(w.run(&s, &windowStop, &closing), TrainStatus::Cancelled);
        QCOMPARE(s.epochs, 1);
        QCOMPARE(w.position().epoch, 1);
        QCOMPARE(w.position().step, 0);
        QVERIFY(w.testResultStands(false)); // the validation on the test set is the stopped weights' test
        // The evaluation itself: a set flag stops it before its first batch, and it says so.
        CpuExecutor e(net, 2);
        stop = true;
        QVERIFY(e.evaluate(m_toy.test, 1, 0, EvalKeeps::Metrics, &stop).cancelled);
        stop = false;
        const EvalResult full = e.evaluate(m_toy.test, 1, 0, EvalKeeps::Metrics, &stop);
        QVERIFY(!full.cancelled);
        QCOMPARE(full.loss, t.evaluate().loss);
    }

    void weightsFileRoundTripAndCorruption()
    {
        Network net = toyNetwork();
        net.initialize(9);
        TrainConfig cfg;
        cfg.epochs = 1;
        cfg.batchSize = 40;
        cfg.seed = 9;
        Trainer t(net, m_toy, cfg);
        t.run();
        const WeightsFile w = t.weightsFile();
        const std::string path = m_tmp.path().toStdString() + "/toy.tbw";
        saveWeights(path, w);
        const WeightsFile back = loadWeights(path);
        const Network again = back.buildNetwork();
        QCOMPARE(again.weightsSha256(), net.weightsSha256());
        QCOMPARE(back.optimizerIterations, t.backend().iterations());
        QCOMPARE(back.optimizerSlots, t.backend().optimizerState().slotBuffer);
        QCOMPARE(back.history.size(), size_t(1));
        QCOMPARE(back.train.seed, uint64_t(9));
        // Evaluating the loaded network gives the same numbers.
        CpuExecutor e1(const_cast<Network&>(again), 1);
        QCOMPARE(e1.evaluate(m_toy.test, 1).loss, t.evaluate().loss);

        std::string bytes = readWholeFile(path);
        bytes[bytes.size() / 2] ^= 0x40;
        writeFileAtomically(path + ".bad", bytes);
        QVERIFY_THROWS_EXCEPTION(IoError, loadWeights(path + ".bad"));
        writeFileAtomically(path + ".short", readWholeFile(path).substr(0, 100));
        QVERIFY_THROWS_EXCEPTION(IoError, loadWeights(path + ".short"));
    }

    // One forward pass: the test result a run reports (its last validation and its final test
    // evaluation) equals, to the bit, an evaluation of its saved weights in a fresh process-like
    // setting (new network from the file, another thread count), for both presets.
    void testResultEqualsEvaluationOfSavedWeights_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("tpu-mnist-cnn") << "tpu-mnist-cnn";
        QTest::newRow("colab-fashion-cnn") << "colab-fashion-cnn";
    }
    void testResultEqualsEvaluationOfSavedWeights()
    {
        QFETCH(QString, preset);
        const std::string dir = m_tmp.path().toStdString() + "/digits28";
        QDir().mkpath(QString::fromStdString(dir));
        fixtures::writeToyDataset(dir, 96, 70, 28, 10);
        const Dataset d = loadDataset(dir);
        Network net(loadModelSpec(preset.toStdString()), Shape::image(28, 28, 1), d.numClasses);
        net.initialize(5);
        Trainer t(net, d, briefTraining(2, 5));
        QCOMPARE(t.run(), TrainStatus::Completed);
        const EvalResult reported = t.evaluate();
        QCOMPARE(t.history().back().valLoss, reported.loss);
        QCOMPARE(t.history().back().valAccuracy, reported.accuracy);
        const std::string path = m_tmp.path().toStdString() + "/" + preset.toStdString() + ".tbw";
        saveWeights(path, t.weightsFile());
        Network loaded = loadWeights(path).buildNetwork();
        CpuExecutor other(loaded, 1);
        const EvalResult again = other.evaluate(d.test, 1, 0, EvalKeeps::Probabilities);
        QCOMPARE(again.loss, reported.loss);
        QCOMPARE(again.accuracy, reported.accuracy);
    }

    // --validation-limit: each epoch validates the first N samples of its validation set (the test
    // set, or the held-out end of the training set), and the test at the end takes the whole test set.
    void validationLimitValidatesTheFirstSamplesOnly_data()
    {
        QTest::addColumn<double>("split");
        QTest::addColumn<int>("validated"); // samples each epoch
        QTest::newRow("test set") << 0.0 << 25;
        QTest::newRow("held-out train") << 0.2 << 25;
        QTest::newRow("limit past the held-out samples") << 0.04 << 9; // 230 x 0.96 = 220.8: 221 train, 9 held out
    }
    void validationLimitValidatesTheFirstSamplesOnly()
    {
        QFETCH(double, split);
        QFETCH(int, validated);
        Network net = toyNetwork();
        net.initialize(3);
        TrainConfig cfg = briefTraining(2, 3);
        cfg.epochs = 2;
        cfg.validationLimit = 25;
        DatasetOptions held;
        held.validationSplit = split;
        const Dataset data = withOptions(m_toy, held);
        struct Validations : TrainObserver {
            std::vector<EvalResult> seen;
            void epochFinished(const EpochRecord&, const EvalResult& validation) override
            {
                seen.push_back(validation);
            }
        } validations;
        Trainer t(net, data, cfg);
        QCOMPARE(t.run(&validations), TrainStatus::Completed);
        QCOMPARE(validations.seen.size(), size_t(2));
        for (const EvalResult& v : validations.seen)
            QCOMPARE(v.samples, validated);
        // The last epoch's validation is that of the first 25 samples of its split, by the final weights.
        Network trained = t.weightsFile().buildNetwork();
        CpuExecutor alone(trained, 1);
        const EvalResult first = alone.evaluate(split > 0 ? data.validation : data.test, 1, 25, EvalKeeps::Metrics);
        QCOMPARE(first.samples, validated);
        QCOMPARE(validations.seen.back().loss, first.loss);
        QCOMPARE(validations.seen.back().accuracy, first.accuracy);
        // The test at the end takes the whole test set.
        const EvalResult test = t.evaluate();
        QCOMPARE(test.samples, m_toy.test.count);
        QVERIFY(test.loss != validations.seen.back().loss);
    }

    // Evaluation folds a BatchNorm into the convolution before it (CpuExecutor::evaluate): the
    // same probabilities, to the bit, as a twin whose linear Activation between the two keeps them
    // apart. Convolutions of both kinds (im2col; Winograd 5x5 and 6x6 stride 2, folded), with and
    // without a fused ReLU, trained moving statistics, on 1 and 2 threads, in FP32 and with the bf16
    // reference's products.
    void evaluationFoldsBatchNormIntoTheConvolution()
    {
        auto json = [](const char* between) {
            return std::string(R"({"name": "fold", "input_scale": 0.00392156862745098, "layers": [
              {"type": "Conv2D", "filters": 8, "kernel_size": 3, "padding": "same", "activation": "elu"},)") +
                   between + R"(
              {"type": "BatchNormalization"}, {"type": "ReLU"},
              {"type": "Conv2D", "filters": 16, "kernel_size": 5, "padding": "same", "use_bias": false},)" +
                   between + R"(
              {"type": "BatchNormalization", "scale": false},
              {"type": "Conv2D", "filters": 16, "kernel_size": 6, "strides": 2, "padding": "same"},)" +
                   between + R"(
              {"type": "BatchNormalization"}, {"type": "ReLU"},
              {"type": "Flatten"},
              {"type": "Dense", "units": 3, "activation": "softmax"}]})";
        };
        Network folded = networkOf(m_toy, json(""));
        Network apart = networkOf(m_toy, json(R"({"type": "Activation", "activation": "linear"},)"));
        QVERIFY(!dynamic_cast<const Conv2D&>(folded.layer(0)).usesWinograd());
        QVERIFY(dynamic_cast<const Conv2D&>(folded.layer(3)).usesWinograd());
        QCOMPARE(dynamic_cast<const Conv2D&>(folded.layer(5)).winogradFold(), 2);
        // A few steps of training give the BatchNorms moving statistics of their own.
        Trainer t(folded, m_toy, briefTraining(6, 9));
        QCOMPARE(t.run(), TrainStatus::Completed);
        QCOMPARE(apart.params().size(), folded.params().size());
        QCOMPARE(apart.state().size(), folded.state().size());
        apart.params() = folded.params();
        apart.state() = folded.state();
        for (const Kernels* k : {&defaultKernels(), &bf16ReferenceKernels(defaultIsa())})
            for (int threads : {1, 2}) {
                CpuExecutor a(folded, threads, 16, *k), b(apart, threads, 16, *k);
                const EvalResult ra = a.evaluate(m_toy.test, 1, 0, EvalKeeps::Probabilities),
                                 rb = b.evaluate(m_toy.test, 1, 0, EvalKeeps::Probabilities);
                QCOMPARE(ra.probs.size(), rb.probs.size());
                QVERIFY(std::memcmp(ra.probs.data(), rb.probs.data(), ra.probs.size() * sizeof(float)) == 0);
                QCOMPARE(ra.loss, rb.loss);
            }
    }

    // The levels agree: AVX2 and AVX-512 fuse the same multiply-adds, so their weights are
    // identical; the baseline rounds each product before adding it, so it drifts, within the
    // tolerance docs/accelerators.md states (after 40 steps of a preset: loss within 1% relative, the same
    // prediction on at least 97% of the test images; tests/e2e_levels.sh checks the accuracy on
    // the full Fashion-MNIST).
    void levelsAgree()
    {
        const std::vector<Isa> levels = supportedIsas();
        if (levels.size() < 2)
            QSKIP("this CPU runs one level only");
        // It trains at every level itself, whatever TRAINBENCH_ISA says: once is enough, in the
        // baseline's instance of this program (under ASan it took 33 s in each).
        if (const QByteArray level = qgetenv("TRAINBENCH_ISA"); !level.isEmpty() && level != "baseline")
            QSKIP("levelsAgree runs in tst_training_baseline");
        const std::string dir = m_tmp.path().toStdString() + "/levels28";
        QDir().mkpath(QString::fromStdString(dir));
        fixtures::writeToyDataset(dir, 640, 200, 28, 10, false, 3);
        const Dataset d = loadDataset(dir);
        struct Result {
            std::string sha;
            EvalResult test;
        };
        auto train = [&](Isa isa) {
            Network net(loadModelSpec("tpu-mnist-cnn"), Shape::image(28, 28, 1), d.numClasses);
            net.initialize(8);
            TrainConfig cfg;
            cfg.epochs = 2;
            cfg.batchSize = 32;
            cfg.device.threads = 2;
            cfg.seed = 8;
            cfg.device.isa = isa;
            Trainer t(net, d, cfg);
            t.run();
            return Result{net.weightsSha256(), t.evaluate(0, true)};
        };
        std::vector<Result> results;
        for (Isa isa : levels)
            results.push_back(train(isa));
        if (isaSupported(Isa::Avx512))
            QCOMPARE(results[2].sha, results[1].sha);
        const Result &base = results[0], &best = results.back();
        int same = 0;
        for (size_t i = 0; i < base.test.predicted.size(); ++i)
            same += base.test.predicted[i] == best.test.predicted[i] ? 1 : 0;
        const double agreement = double(same) / double(base.test.predicted.size());
        const double lossDiff = std::fabs(base.test.loss - best.test.loss) / best.test.loss;
        qInfo("baseline vs %s: test loss %.6f vs %.6f (%.2e relative), predictions agree on %.1f%%",
              isaName(levels.back()), base.test.loss, best.test.loss, lossDiff, 100.0 * agreement);
        QVERIFY2(base.sha != best.sha, "the baseline rounds differently: identical weights would mean one level ran");
        QVERIFY(lossDiff < 0.01);
        QVERIFY(agreement >= 0.97);
    }

    void atomicWriteFailureLeavesNothing()
    {
        const QString dir = m_tmp.path() + "/readonly";
        QDir().mkpath(dir);
        const std::string target = dir.toStdString() + "/w.tbw";
        writeFileAtomically(target, "old");
        QVERIFY_THROWS_EXCEPTION(IoError, writeFileAtomically(dir.toStdString() + "/missing/w.tbw", "x"));
        QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{"w.tbw"});
        QCOMPARE(readWholeFile(target), std::string("old"));
    }

    void learnsRealFashionMnist()
    {
        const std::string dir = defaultDatasetDir();
        if (!QFile::exists(QString::fromStdString(dir + "/train-images-idx3-ubyte.gz")))
            QFAIL(
                "Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist); the test command installs it");
        Dataset d = loadDataset(dir);
        d.train.count = 4096; // a few thousand real images
        Network net(loadModelSpec("tpu-mnist-cnn"), Shape::image(28, 28, 1), 10);
        net.initialize(200);
        TrainConfig cfg;
        cfg.epochs = 1;
        cfg.batchSize = 64;
        cfg.device.threads = 2;
        cfg.seed = 200;
        cfg.maxBatches = 40;
        cfg.validationLimit = 500;
        struct Losses : TrainObserver {
            std::vector<double> batch;
            double correct = 0; // the batches' accuracies times their sizes (64: 40 full batches)
            void batchFinished(const BatchProgress& p) override
            {
                batch.push_back(p.batchLoss);
                correct += p.batchAccuracy * 64;
            }
        } losses;
        Trainer t(net, d, cfg);
        t.run(&losses);
        QCOMPARE(losses.batch.size(), size_t(40));
        double last = 0;
        for (size_t i = 30; i < 40; ++i)
            last += losses.batch[i] / 10;
        QVERIFY2(last < 0.5 * losses.batch.front(),
                 qPrintable(QString("first %1, last ten %2").arg(losses.batch.front()).arg(last)));
        QVERIFY2(t.history().back().accuracy > 0.55, qPrintable(QString::number(t.history().back().accuracy)));
        // Each batch's own accuracy: together, the epoch's.
        QCOMPARE(std::lround(losses.correct), std::lround(t.history().back().accuracy * 40 * 64));
    }
};

QTEST_GUILESS_MAIN(TstTraining)
#include "tst_training.moc"
