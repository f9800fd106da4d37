// trainbench-bench: measures one (model, threads) row and prints it as a JSON object:
// training samples/s (median of repeats after warm-up), seconds per 59904-sample epoch (a text
// model: per epoch of its text),
// evaluation samples/s, peak RSS, and with --profile the time per layer, forward and backward.
// bench/compare.py runs the rows and PyTorch side by side. With a text model and --data TEXT (a text
// file): training and generation tokens/s (--streams symbols side by side, --generate per stream),
// and the recurrent products' GFLOP/s (the LSTM's h R, measured alone on one thread at the training
// shard's shape) beside one core's measured FMA peak; bench/pytorch_lstm_bench.py is the PyTorch side.
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "data/text_dataset.hpp"
#include "environment.hpp"
#include "kernels/kernels.hpp"
#include "layers/lstm.hpp"
#include "model/network.hpp"
#include "predict/text_generator.hpp"
#include "train/session.hpp"
#include "train/train_options.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/resource.h>

using Clock = std::chrono::steady_clock;

namespace {
struct BenchOption {
    const char* name;
    const char* value; // "" for a switch
    const char* help;
};
// The benchmark's own options; --threads, --batch, --isa, --device and --precision are the
// training options' (train/train_options.hpp): read and checked as trainbench-cli reads them.
const BenchOption kOwn[] = {
    {"model", "M", "a preset or a model file (tpu-mnist-cnn)"},
    {"data", "DIR", "the dataset; for a text model a text file"},
    {"steps", "N", "training steps per repeat, 1 to 1000000 (60)"},
    {"warmup", "N", "steps before measuring, 0 to 1000000 (5)"},
    {"repeats", "N", "repeats, the median reported, 1 to 1000 (3)"},
    {"eval-images", "N", "test images per evaluation repeat, 1 to 1000000 (2048)"},
    {"generate", "N", "text models: symbols generated per stream, 1 to 1000000 (200)"},
    {"streams", "K", "text models: streams generated side by side, 1 to 1024 (1)"},
    {"profile", "", "the time per layer, forward and backward"},
};
const char* const kTraining[] = {"threads", "batch", "isa", "device", "precision"};

std::string benchUsage()
{
    std::string u = "usage: trainbench-bench [options]\n";
    for (const BenchOption& o : kOwn)
        u += tb::optionHelpLine(o.name, o.value, o.help);
    for (const char* name : kTraining) {
        const tb::TrainOption* o = tb::findTrainOption(name);
        std::string help = o->help;
        if (const auto every = help.rfind("(every core)"); std::string(name) == "threads" && every != std::string::npos)
            help.replace(every, std::string::npos, "(1 here; training's default is every core)");
        u += tb::optionHelpLine(o->name, o->value, help);
    }
    return u;
}

// One core's measured FMA peak at the dispatch level's width, in GFLOP/s: twelve independent
// accumulator chains (enough to cover the FMA latency on every core we know) in registers. The
// chains start from different run-time values: chains that start equal and take the same updates
// are one chain to the compiler, and GCC merges them (a loop of one FMA, measured at twice the
// core's peak on the development VM). The baseline level has no FMA: a multiply and an add count as one.
#define TB_PEAK_LOOP(SET1, STEP)                                                                                       \
    decltype(SET1(0.0f)) a[12];                                                                                        \
    for (int c = 0; c < 12; ++c)                                                                                       \
        a[c] = SET1(seed + 0.37f * float(c));                                                                          \
    const auto x = SET1(0.9999f), y = SET1(seed * 1e-4f);                                                              \
    for (long i = 0; i < n; ++i)                                                                                       \
        _Pragma("GCC unroll 12") for (int c = 0; c < 12; ++c) a[c] = STEP;                                             \
    double s = 0;                                                                                                      \
    for (int c = 0; c < 12; ++c)                                                                                       \
        s += double(a[c][0]);                                                                                          \
    return s
[[gnu::target("sse4.2"), gnu::noinline]] double peakBaseline(float seed, long n)
{
    TB_PEAK_LOOP(_mm_set1_ps, _mm_add_ps(_mm_mul_ps(a[c], x), y));
}
} // namespace

// Run only where the level is the one dispatched: the AVX code stays in the per-level namespaces
// (tests/check_isa_leaks.sh).
namespace tb::isa_avx2 {
[[gnu::target("avx2,fma"), gnu::noinline]] double peakAvx2(float seed, long n)
{
    TB_PEAK_LOOP(_mm256_set1_ps, _mm256_fmadd_ps(a[c], x, y));
}
} // namespace tb::isa_avx2
namespace tb::isa_avx512 {
[[gnu::target("avx512f"), gnu::noinline]] double peakAvx512(float seed, long n)
{
    TB_PEAK_LOOP(_mm512_set1_ps, _mm512_fmadd_ps(a[c], x, y));
}
} // namespace tb::isa_avx512
#undef TB_PEAK_LOOP

namespace {

// The best of five timed runs of about 0.1 s each.
double fmaPeakGflops(tb::Isa isa, float seed)
{
    const int lanes = isa == tb::Isa::Avx512 ? 16 : isa == tb::Isa::Avx2 ? 8 : 4;
    const long n = 10000000;
    double best = 0, sink = 0;
    for (int r = 0; r < 5; ++r) {
        const auto t0 = Clock::now();
        sink += isa == tb::Isa::Avx512 ? tb::isa_avx512::peakAvx512(seed, n)
                : isa == tb::Isa::Avx2 ? tb::isa_avx2::peakAvx2(seed, n)
                                       : peakBaseline(seed, n);
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        best = std::max(best, 12.0 * lanes * 2 * double(n) / s / 1e9);
    }
    if (sink == 12345.678) // keeps the loops' results alive
        std::puts("");
    return best;
}

const BenchOption* ownOption(const std::string& name)
{
    for (const BenchOption& o : kOwn)
        if (name == o.name)
            return &o;
    return nullptr;
}
} // namespace

int main(int argc, char** argv)
{
    std::map<std::string, std::string> own, training;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs(benchUsage().c_str(), stdout);
            return 0;
        }
        const std::string name = arg.rfind("--", 0) == 0 ? arg.substr(2) : "";
        const BenchOption* mine = ownOption(name);
        const bool isTraining = std::find(std::begin(kTraining), std::end(kTraining), name) != std::end(kTraining);
        if (!mine && !isTraining) {
            std::fprintf(stderr, "trainbench-bench: unknown option %s\n\n%s", arg.c_str(), benchUsage().c_str());
            return 2;
        }
        std::string value;
        if (isTraining || *mine->value) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "trainbench-bench: --%s needs a value\n", name.c_str());
                return 2;
            }
            value = argv[++i];
        }
        (isTraining ? training : own)[name] = value;
    }
    const auto text = [&](const char* name, const std::string& def) {
        const auto it = own.find(name);
        return it == own.end() ? def : it->second;
    };
    const auto whole = [&](const char* name, int def, int lo, int hi) {
        const auto it = own.find(name);
        return it == own.end() ? def : int(tb::parseWholeOption(name, it->second, lo, hi));
    };
    const std::string model = text("model", "tpu-mnist-cnn"), data = text("data", tb::defaultDatasetDir());
    const bool profile = own.count("profile") > 0;
    int steps = 0, warmup = 0, repeats = 0, evalImages = 0, generate = 0, streams = 0;
    // The same step as every training run (Trainer::trainBatch): forward, backward and the checked
    // optimizer update, Adam with Keras' defaults; one thread unless told.
    tb::TrainSettings settings;
    settings.config.device.threads = 1;
    settings.config.seed = 1;
    try {
        steps = whole("steps", 60, 1, 1000000);
        warmup = whole("warmup", 5, 0, 1000000);
        repeats = whole("repeats", 3, 1, 1000);
        evalImages = whole("eval-images", 2048, 1, 1000000);
        generate = whole("generate", 200, 1, 1000000);
        streams = whole("streams", 1, 1, 1024);
        tb::applyTrainOptions(settings, training);
    } catch (const tb::ConfigError& e) { // a number that does not parse, or out of its limits
        std::fprintf(stderr, "trainbench-bench: %s\n", e.what());
        return 2;
    }
    const int threads = settings.config.device.threads, batch = settings.config.batchSize;
    try {
        tb::env::applyToEngine(); // TRAINBENCH_ISA and the OpenCL settings
        const tb::ModelSpec spec = tb::loadModelSpec(model);
        tb::TextOptions textOptions;
        textOptions.sequenceLength = spec.sequenceLength > 0 ? spec.sequenceLength : 100;
        tb::TrainConfig config = settings.config;
        config.kernelCacheDir = tb::env::kernelCacheDir();
        if (spec.isText()) { // the notebook's optimizer
            config.optimizer.kind = tb::OptimizerKind::RMSprop;
            config.optimizer.learningRate = 0.01f;
        }
        // The session keeps the dataset: moved in, not copied, as the CLI's train does.
        tb::TrainingSession session(
            spec, spec.isText() ? tb::loadTextDataset(data, textOptions) : tb::loadDataset(data), config);
        const tb::Dataset& d = session.data();
        const int tokens = d.train.steps; // per sample
        const tb::RunInfo info = session.info();
        const tb::Network& net = session.network();
        const std::vector<int> order = tb::shuffledOrder(d.train.count, 1, 0);
        int cursor = 0;
        const int L = net.layerCount();
        std::vector<double> fwd(size_t(L), 0.0), bwd(size_t(L), 0.0);
        auto step = [&](bool record) {
            if (cursor + batch > d.train.count)
                cursor = 0;
            if (session.trainBatch(order.data() + cursor, batch).diverged != tb::Divergence::None)
                throw std::runtime_error("training diverged");
            cursor += batch;
            if (!record)
                return;
            const std::vector<double> forward = session.forwardSeconds(), backward = session.backwardSeconds();
            if (!forward.empty()) // only the CPU measures layers
                for (int l = 0; l < L; ++l) {
                    fwd[size_t(l)] += forward[size_t(l)];
                    bwd[size_t(l)] += backward[size_t(l)];
                }
        };
        for (int i = 0; i < warmup; ++i)
            step(false);
        std::vector<double> rates;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = Clock::now();
            for (int i = 0; i < steps; ++i)
                step(true);
            const double s = std::chrono::duration<double>(Clock::now() - t0).count();
            rates.push_back(double(steps) * batch / s);
        }
        std::sort(rates.begin(), rates.end());
        const double train = rates[rates.size() / 2];
        session.evaluateTest(false, 256); // warm-up
        std::vector<double> evalRates;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = Clock::now();
            session.evaluateTest(false, evalImages);
            evalRates.push_back(std::min(evalImages, d.test.count) /
                                std::chrono::duration<double>(Clock::now() - t0).count());
        }
        std::sort(evalRates.begin(), evalRates.end());
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        nlohmann::ordered_json j;
        j["framework"] = "trainbench";
        j["model"] = model;
        j["threads"] = threads;
        j["batch"] = batch;
        j["train_samples_per_sec"] = train;
        // The notebooks' epoch for an image model (468 batches of 128: the table's PyTorch column uses
        // it too); a text model's is its own text's training sequences.
        j["seconds_per_epoch"] = (spec.isText() ? double(d.train.count) : 59904.0) / train;
        j["eval_samples_per_sec"] = evalRates[evalRates.size() / 2];
        if (spec.isText()) {
            j["sequence_length"] = tokens;
            j["train_tokens_per_sec"] = train * tokens;
            tb::TextGenerator gen(net, tb::vocabularyOf(d), tb::cpuKernels(info.device));
            tb::GenerateOptions g;
            g.length = generate;
            g.streams = streams;
            std::vector<double> genRates;
            for (int r = 0; r < repeats; ++r) {
                const auto t0 = Clock::now();
                gen.generate(g);
                genRates.push_back(double(generate) * streams /
                                   std::chrono::duration<double>(Clock::now() - t0).count());
            }
            std::sort(genRates.begin(), genRates.end());
            j["generate_tokens_per_sec"] = genRates[genRates.size() / 2];
            j["streams"] = streams;
            // The recurrent product of the first LSTM, z_t += h_{t-1} R, as a training shard's step
            // runs it: R packed once (Lstm::beginPass), h and z rows a whole sequence apart.
            for (int l = 0; l < L; ++l)
                if (auto* lstm = dynamic_cast<const tb::Lstm*>(&net.layer(l))) {
                    const int H = lstm->units(), G = 4 * H, n = config.shardSize, reps = 200;
                    const int64_t hRow = int64_t(tokens) * H, zRow = int64_t(tokens) * G;
                    std::vector<float> h(size_t(n * hRow), 0.5f), R(size_t(H) * G, 0.01f), z(size_t(n * zRow), 0.0f);
                    const tb::Kernels& k = tb::cpuKernels(info.device);
                    std::vector<float> packed(size_t(tb::kernel::packedBFloats(H, G)));
                    k.packB(H, G, R.data(), G, false, packed.data());
                    k.gemmPacked(n, G, H, h.data(), hRow, 1, packed.data(), z.data(), zRow, true);
                    const auto t0 = Clock::now();
                    for (int r = 0; r < reps; ++r) // a different step each time, as the recurrence
                        k.gemmPacked(n, G, H, h.data() + int64_t(r % tokens) * H, hRow, 1, packed.data(),
                                     z.data() + int64_t(r % tokens) * G, zRow, true);
                    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
                    j["recurrent_gemm_shape"] = std::to_string(n) + "x" + std::to_string(H) + " * " +
                                                std::to_string(H) + "x" + std::to_string(G);
                    j["recurrent_gemm_gflops_one_thread"] = 2.0 * n * H * G * reps / sec / 1e9;
                    j["fma_peak_gflops_one_thread"] = fmaPeakGflops(*info.device.isa, float(argc) * 0.5f);
                    break;
                }
        }
        j["peak_rss_mb"] = double(ru.ru_maxrss) / 1024.0;
        j["device"] = info.device.id();
        if (info.device.isa)
            j["isa"] = tb::isaName(*info.device.isa);
        j["kernels"] = info.kernels;
        j["precision"] = tb::precisionName(info.device.precision);
        if (profile) {
            nlohmann::ordered_json layers = nlohmann::ordered_json::array();
            const double n = double(steps) * repeats;
            for (int l = 0; l < L; ++l) {
                nlohmann::ordered_json o;
                o["layer"] = net.layer(l).name();
                o["forward_ms"] = 1000.0 * fwd[size_t(l)] / n;
                o["backward_ms"] = 1000.0 * bwd[size_t(l)] / n;
                layers.push_back(o);
            }
            j["profile"] = layers;
        }
        std::printf("%s\n", tb::jsonText(j).c_str());
    } catch (const tb::ConfigError& e) {
        // A setting this machine cannot run (bf16 here, TRAINBENCH_ISA): a usage error, as on the CLI.
        std::fprintf(stderr, "trainbench-bench: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainbench-bench: %s\n", e.what());
        return 3;
    }
    return 0;
}
