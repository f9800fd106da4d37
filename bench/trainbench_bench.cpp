// trainbench-bench: measures one (model, threads) row and prints it as a JSON object:
// training samples/s (median of repeats after warm-up), seconds per 59904-sample epoch,
// evaluation samples/s, peak RSS, and with --profile the time per layer, forward and backward.
// bench/compare.py runs the rows and PyTorch side by side. With a text model and --data TEXT (a text
// file): training and generation tokens/s (--streams symbols side by side, --generate per stream),
// and the recurrent products' GFLOP/s (the LSTM's h R, measured alone on one thread at the training
// shard's shape; bench/pytorch_lstm_bench.py is the PyTorch side).
#include "core/json_text.hpp"
#include "data/dataset.hpp"
#include "data/text_dataset.hpp"
#include "environment.hpp"
#include "kernels/kernels.hpp"
#include "layers/lstm.hpp"
#include "model/network.hpp"
#include "predict/text_generator.hpp"
#include "train/session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <sys/resource.h>

using Clock = std::chrono::steady_clock;

int main(int argc, char** argv)
{
    std::string model = "tpu-mnist-cnn", data = tb::defaultDatasetDir();
    int threads = 1, batch = 128, steps = 60, warmup = 5, repeats = 3, evalImages = 2048;
    int generate = 200, streams = 1;
    bool profile = false;
    std::string isa, device;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--model")
            model = next();
        else if (a == "--data")
            data = next();
        else if (a == "--threads")
            threads = std::stoi(next());
        else if (a == "--batch")
            batch = std::stoi(next());
        else if (a == "--steps")
            steps = std::stoi(next());
        else if (a == "--warmup")
            warmup = std::stoi(next());
        else if (a == "--repeats")
            repeats = std::stoi(next());
        else if (a == "--eval-images")
            evalImages = std::stoi(next());
        else if (a == "--generate")
            generate = std::stoi(next());
        else if (a == "--streams")
            streams = std::stoi(next());
        else if (a == "--profile")
            profile = true;
        else if (a == "--isa")
            isa = next();
        else if (a == "--device") // "opencl:0": replaces --threads and --isa
            device = next();
        else {
            std::fprintf(
                stderr,
                "usage: trainbench-bench [--model M] [--data DIR] [--threads T] [--batch B] "
                "[--steps N] [--warmup N] [--repeats N] [--eval-images N] [--isa LEVEL] [--device SPEC] [--profile]\n"
                "       text models: --data TEXT [--generate N] [--streams K]\n");
            return 2;
        }
    }
    try {
        tb::env::applyToEngine(); // TRAINBENCH_ISA and the OpenCL settings
        const tb::ModelSpec spec = tb::loadModelSpec(model);
        tb::TextOptions textOptions;
        textOptions.sequenceLength = spec.sequenceLength > 0 ? spec.sequenceLength : 100;
        const tb::Dataset d = spec.isText() ? tb::loadTextDataset(data, textOptions) : tb::loadDataset(data);
        const int tokens = d.train.steps; // per sample
        // The same step as every training run (Trainer::trainBatch): forward, backward and the
        // checked optimizer update, Adam with Keras' defaults.
        tb::TrainConfig config;
        config.device.threads = threads;
        config.batchSize = batch;
        config.seed = 1;
        if (!isa.empty())
            config.device.isa = tb::parseIsa(isa);
        if (!device.empty())
            config.device = tb::parseDeviceSpec(device);
        config.kernelCacheDir = tb::env::kernelCacheDir();
        if (spec.isText()) { // the notebook's optimizer
            config.optimizer.kind = tb::OptimizerKind::RMSprop;
            config.optimizer.learningRate = 0.01f;
        }
        tb::TrainingSession session(spec, d, config);
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
        j["seconds_per_epoch"] = 59904.0 / train;
        j["eval_samples_per_sec"] = evalRates[evalRates.size() / 2];
        if (spec.isText()) {
            j["sequence_length"] = tokens;
            j["train_tokens_per_sec"] = train * tokens;
            tb::TextGenerator gen(net, tb::vocabularyOf(d),
                                  info.device.isa ? tb::kernelsFor(*info.device.isa) : tb::defaultKernels());
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
            // The recurrent product of the first LSTM, z_t += h_{t-1} R, at the training shard's shape.
            for (int l = 0; l < L; ++l)
                if (auto* lstm = dynamic_cast<const tb::Lstm*>(&net.layer(l))) {
                    const int H = lstm->units(), n = config.shardSize, reps = 200;
                    std::vector<float> h(size_t(n) * H, 0.5f), R(size_t(H) * 4 * H, 0.01f), z(size_t(n) * 4 * H, 0.0f);
                    const tb::Kernels& k = tb::kernelsFor(*info.device.isa);
                    k.gemm(false, false, n, 4 * H, H, h.data(), H, R.data(), 4 * H, z.data(), 4 * H, true);
                    const auto t0 = Clock::now();
                    for (int r = 0; r < reps; ++r)
                        k.gemm(false, false, n, 4 * H, H, h.data(), H, R.data(), 4 * H, z.data(), 4 * H, true);
                    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
                    j["recurrent_gemm_shape"] = std::to_string(n) + "x" + std::to_string(H) + " * " +
                                                std::to_string(H) + "x" + std::to_string(4 * H);
                    j["recurrent_gemm_gflops_one_thread"] = 2.0 * n * H * 4.0 * H * reps / sec / 1e9;
                    break;
                }
        }
        j["peak_rss_mb"] = double(ru.ru_maxrss) / 1024.0;
        j["device"] = info.device.id();
        if (info.device.isa)
            j["isa"] = tb::isaName(*info.device.isa);
        j["kernels"] = info.kernels;
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
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainbench-bench: %s\n", e.what());
        return 3;
    }
    return 0;
}
