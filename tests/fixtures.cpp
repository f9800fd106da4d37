#include "fixtures.hpp"

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "environment.hpp"
#include "kernels/isa.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"
#include "train/cpu_executor.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <sys/mount.h>
#include <unistd.h>
#include <zlib.h>

namespace fixtures {

int64_t peakResidentBytes(bool reset)
{
    if (reset) {
        std::ofstream clear("/proc/self/clear_refs");
        if (!(clear << "5" << std::flush))
            return -1;
    }
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) // "VmHWM:     13620 kB"
            return std::stoll(line.substr(6)) * 1024;
    return -1;
}

void writeRaw(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write fixture " + path);
}

void writeIdx(const std::string& path, const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data, bool gz,
              const std::vector<uint8_t>& magicOverride)
{
    std::string bytes;
    if (magicOverride.empty()) {
        bytes += char(0);
        bytes += char(0);
        bytes += char(8);
        bytes += char(dims.size());
    } else {
        bytes.append(magicOverride.begin(), magicOverride.end());
    }
    for (uint32_t d : dims)
        for (int s = 24; s >= 0; s -= 8)
            bytes += char((d >> s) & 0xff);
    bytes.append(data.begin(), data.end());
    if (!gz) {
        writeRaw(path, bytes);
        return;
    }
    gzFile f = gzopen(path.c_str(), "wb");
    if (!f || gzwrite(f, bytes.data(), unsigned(bytes.size())) != int(bytes.size()) || gzclose(f) != Z_OK)
        throw std::runtime_error("cannot write fixture " + path);
}

namespace {
// Class bars on a background of pixels in [backgroundLo, backgroundLo + backgroundSpan).
void writeBarDataset(const std::string& dir, int trainCount, int testCount, int side, int classes, bool gz,
                     uint64_t seed, int backgroundLo, int backgroundSpan)
{
    tb::Rng rng(seed);
    auto make = [&](const std::string& prefix, int count) {
        std::vector<uint8_t> pixels(static_cast<size_t>(count) * side * side), labels(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) {
            const int label = int(rng.below(uint64_t(classes)));
            labels[size_t(i)] = uint8_t(label);
            uint8_t* img = pixels.data() + size_t(i) * side * side;
            for (int p = 0; p < side * side; ++p)
                img[p] = uint8_t(backgroundLo + int(rng.below(uint64_t(backgroundSpan))));
            // A vertical bar whose column depends on the class, a little jitter.
            const int col = (label * side) / classes + int(rng.below(2));
            for (int y = 1; y < side - 1; ++y)
                img[y * side + std::min(col, side - 1)] = uint8_t(200 + rng.below(55));
        }
        const std::string ext = gz ? ".gz" : "";
        writeIdx(dir + "/" + prefix + "-images-idx3-ubyte" + ext, {uint32_t(count), uint32_t(side), uint32_t(side)},
                 pixels, gz);
        writeIdx(dir + "/" + prefix + "-labels-idx1-ubyte" + ext, {uint32_t(count)}, labels, gz);
    };
    make("train", trainCount);
    make("t10k", testCount);
}
} // namespace

void writeToyDataset(const std::string& dir, int trainCount, int testCount, int side, int classes, bool gz,
                     uint64_t seed)
{
    writeBarDataset(dir, trainCount, testCount, side, classes, gz, seed, 0, 60);
}

void writeBrightToyDataset(const std::string& dir, int trainCount, int testCount, uint64_t seed)
{
    writeBarDataset(dir, trainCount, testCount, 12, 3, false, seed, 150, 50);
}

std::vector<float> randomMatrix(size_t n, uint64_t seed)
{
    tb::Rng r(seed);
    std::vector<float> v(n);
    for (auto& x : v)
        x = 2.0f * r.uniform() - 1.0f;
    return v;
}

std::string winogradModelJson()
{
    return R"({"name": "winograd", "input_scale": 0.00392156862745098, "layers": [
      {"type": "Conv2D", "filters": 8, "kernel_size": 3, "padding": "same", "activation": "relu"},
      {"type": "Conv2D", "filters": 16, "kernel_size": 5, "padding": "same", "activation": "relu"},
      {"type": "Conv2D", "filters": 16, "kernel_size": 3, "padding": "same", "activation": "relu"},
      {"type": "Conv2D", "filters": 24, "kernel_size": 6, "strides": 2, "padding": "same", "use_bias": false},
      {"type": "Flatten"},
      {"type": "Dense", "units": 3, "activation": "softmax"}]})";
}

std::string toyModelJson()
{
    return R"({"name": "toy", "input_scale": 0.00392156862745098, "layers": [
      {"type": "BatchNormalization"},
      {"type": "Conv2D", "filters": 4, "kernel_size": 3, "padding": "same", "activation": "elu"},
      {"type": "MaxPooling2D", "pool_size": 2},
      {"type": "Dropout", "rate": 0.25},
      {"type": "Conv2D", "filters": 6, "kernel_size": 3, "strides": 2, "padding": "same", "use_bias": false},
      {"type": "BatchNormalization", "scale": false},
      {"type": "ReLU"},
      {"type": "Flatten"},
      {"type": "Dense", "units": 16, "activation": "relu"},
      {"type": "Dropout", "rate": 0.3},
      {"type": "Dense", "units": 3, "activation": "softmax"}]})";
}

std::string isaUnavailable()
{
    try {
        tb::env::applyToEngine(); // TRAINBENCH_ISA, as CTest sets it for each level
        return {};
    } catch (const tb::ConfigError& e) {
        return e.what();
    }
}

Step trainingStep(const tb::Dataset& d, const tb::Kernels& kernels, int threads, const std::string& json)
{
    tb::Network net(tb::parseModelSpec(json, "model"), tb::Shape::image(d.inputHeight(), d.inputWidth(), 1),
                    d.numClasses);
    net.initialize(7);
    tb::CpuExecutor exec(net, threads, 16, kernels);
    std::vector<int> indices(40);
    std::iota(indices.begin(), indices.end(), 0);
    const tb::StepResult r = exec.trainStep(d.train, 1, indices.data(), int(indices.size()), 99);
    return {exec.gradient(), r.lossSum};
}

SmallDisk::SmallDisk(const std::string& dir) : m_dir(dir)
{
    if (geteuid() != 0) {
        m_skipReason = "mounting a small tmpfs needs root";
        return;
    }
    std::filesystem::create_directories(dir);
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=1m") != 0)
        m_skipReason = std::string("cannot mount a tmpfs here (") + std::strerror(errno) + ")";
}

SmallDisk::~SmallDisk()
{
    if (m_skipReason.empty())
        ::umount2(m_dir.c_str(), MNT_DETACH);
}

} // namespace fixtures
