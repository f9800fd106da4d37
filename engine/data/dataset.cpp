#include "data/dataset.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "data/idx.hpp"
#include "data/text_dataset.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <utility>

namespace tb {

namespace {
bool fileExists(const std::string& p)
{
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Why no file for `part` could be used although something by one of its names is there (a folder,
// a symbolic link loop, a dangling link, a device), or empty when nothing is there.
std::string whyNotAFile(const std::string& dir, const std::string& part)
{
    const std::string kind = part.find("images") != std::string::npos ? "idx3-ubyte" : "idx1-ubyte";
    for (const char* sep : {"-", "."})
        for (const char* ext : {"", ".gz"}) {
            const std::string name = part + sep + kind + ext, p = dir + "/" + name;
            struct stat st {};
            if (::lstat(p.c_str(), &st) != 0)
                continue;
            if (::stat(p.c_str(), &st) != 0)
                return name + " in " + dir + " cannot be opened: " + std::strerror(errno);
            if (S_ISDIR(st.st_mode))
                return name + " in " + dir + " is a folder, not an IDX file";
            return name + " in " + dir + " is not a regular file";
        }
    return {};
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Where an IDX file of `part` ("train-images") may be, in the order findIdxFile takes them: "-" or
// "." before the kind, raw then .gz.
std::vector<std::string> idxSpellings(const std::string& dir, const std::string& part)
{
    const std::string kind = part.find("images") != std::string::npos ? "idx3-ubyte" : "idx1-ubyte";
    std::vector<std::string> paths;
    for (const char* sep : {"-", "."})
        for (const char* ext : {"", ".gz"})
            paths.push_back(dir + "/" + part + sep + kind + ext);
    return paths;
}

std::string fileName(const std::string& path)
{
    return path.substr(path.find_last_of('/') + 1);
}

// The IDX file `path` (findIdxFile's choice), checked against any other spelling of it in the folder
// ("-" or "." before the kind, raw or .gz, as unpacking with gunzip -k leaves): the same data is
// fine, different data would make the choice silently decide what trains.
IdxArray readIdxAlone(const std::string& dir, const std::string& part, const std::string& path, int dims)
{
    IdxArray a = readIdx(path, dims);
    for (const std::string& other : idxSpellings(dir, part)) {
        if (other == path || !fileExists(other))
            continue;
        const IdxArray b = readIdx(other, dims);
        if (b.dims != a.dims || b.bytes != a.bytes)
            throw DataError(fileName(path) + " and " + fileName(other) + " in " + dir +
                            " hold different data: keep the one you mean to train on");
    }
    return a;
}

ImageSplit loadSplit(const std::string& dir, const std::string& prefix)
{
    ImageSplit s;
    s.imagesFile = findIdxFile(dir, prefix + "-images");
    s.labelsFile = findIdxFile(dir, prefix + "-labels");
    for (const char* part : {"-images", "-labels"})
        if ((part[1] == 'i' ? s.imagesFile : s.labelsFile).empty()) {
            const std::string why = whyNotAFile(dir, prefix + part);
            if (!why.empty())
                throw DataError(why);
        }
    if (s.imagesFile.empty())
        throw DataError(MessageId::DatasetFileMissing, {prefix + "-images-idx3-ubyte[.gz]", dir},
                        "no " + prefix + "-images-idx3-ubyte[.gz] file in " + dir);
    if (s.labelsFile.empty())
        throw DataError(MessageId::DatasetFileMissing, {prefix + "-labels-idx1-ubyte[.gz]", dir},
                        "no " + prefix + "-labels-idx1-ubyte[.gz] file in " + dir);
    IdxArray images = readIdxAlone(dir, prefix + "-images", s.imagesFile, 3);
    IdxArray labels = readIdxAlone(dir, prefix + "-labels", s.labelsFile, 1);
    const auto name = fileName;
    if (images.dims[0] != labels.dims[0])
        throw DataError(
            MessageId::DatasetCountMismatch,
            {name(s.labelsFile), std::to_string(labels.dims[0]), name(s.imagesFile), std::to_string(images.dims[0])},
            name(s.labelsFile) + " holds " + std::to_string(labels.dims[0]) + " labels but " + name(s.imagesFile) +
                " holds " + std::to_string(images.dims[0]) + " images");
    if (images.dims[1] > 4096 || images.dims[2] > 4096)
        throw DataError(name(s.imagesFile) + ": images of " + std::to_string(images.dims[1]) + "x" +
                        std::to_string(images.dims[2]) + " pixels are larger than Trainbench supports (4096x4096)");
    s.count = images.dims[0];
    s.height = images.dims[1];
    s.width = images.dims[2];
    s.pixels = std::move(images.bytes);
    s.labels = std::move(labels.bytes);
    return s;
}

void truncateSplit(ImageSplit& s, int multiple)
{
    const int keep = s.count - s.count % multiple;
    s.count = keep;
    s.pixels.resize(size_t(keep) * s.height * s.width);
    s.labels.resize(size_t(keep) * size_t(s.steps));
}

// Fashion-MNIST's test split by its labels (SHA-256 of the 10,000 label bytes): a copy in a folder
// named otherwise ("~/data/fm") still gets its class names, not digits.
bool isFashionMnistTest(const ImageSplit& test)
{
    return test.count == 10000 && test.steps == 1 &&
           sha256Hex(std::string(test.labels.begin(), test.labels.end())) ==
               "3d0e6c6ea990b53b6f8f500a41cac93881d981b315f84578b7d915342ade01e9";
}

} // namespace

std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    std::string out = std::filesystem::absolute(path, ec).lexically_normal().string();
    if (ec || out.empty())
        return path;
    return withoutTrailingSlashes(out);
}

const char* defaultDatasetDir()
{
    return "/usr/share/datasets/fashion-mnist";
}

const std::vector<std::string>& fashionMnistClassNames()
{
    static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return names;
}

std::string findIdxFile(const std::string& dir, const std::string& part)
{
    for (const std::string& p : idxSpellings(dir, part))
        if (fileExists(p))
            return p;
    return {};
}

Dataset loadDataset(const std::string& dirIn, const DatasetOptions& options)
{
    const std::string dir = withoutTrailingSlashes(dirIn);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) {
        if (const int err = errno; err != ENOENT) // a loop of symbolic links, a folder on the way not searchable
            throw DataError("cannot read the dataset folder " + dir + ": " + std::strerror(err));
        throw DataError(MessageId::DatasetFolderMissing, {dir}, "dataset folder " + dir + " does not exist");
    }
    if (!S_ISDIR(st.st_mode))
        throw DataError(dir + " is a file; choose the folder that holds the IDX files (a text trains a text model, "
                              "such as small-text-lstm)");
    if (options.sizeMultiplier < 1 || options.sizeMultiplier > 16)
        throw ConfigError("the image size multiplier must be between 1 and 16 (got " +
                          std::to_string(options.sizeMultiplier) + ")");

    Dataset d;
    d.directory = absolutePath(dir);
    if (options.testSplitOnly) {
        d.test = loadSplit(dir, "t10k");
        d.train.height = d.test.height;
        d.train.width = d.test.width;
    } else {
        d.train = loadSplit(dir, "train");
        d.test = loadSplit(dir, "t10k");
    }
    if (d.train.height != d.test.height || d.train.width != d.test.width)
        throw DataError("train images are " + std::to_string(d.train.height) + "x" + std::to_string(d.train.width) +
                        " but test images are " + std::to_string(d.test.height) + "x" + std::to_string(d.test.width));

    int maxTrain = 0, maxTest = 0;
    for (uint8_t l : d.train.labels)
        maxTrain = std::max<int>(maxTrain, l);
    for (uint8_t l : d.test.labels)
        maxTest = std::max<int>(maxTest, l);
    if (options.testSplitOnly) {
        // The training labels alone (60 KB for MNIST, not the images): the classes a model trained here
        // knows, which the test split may lack some of. Without a readable file, the test labels say.
        if (const std::string labels = findIdxFile(dir, "train-labels"); !labels.empty()) {
            try {
                for (uint8_t l : readIdx(labels, 1).bytes)
                    maxTrain = std::max<int>(maxTrain, l);
            } catch (const DataError&) {
                maxTrain = 0;
            }
        }
    }
    const char* labelsPart = options.testSplitOnly && maxTest >= maxTrain ? "t10k-labels" : "train-labels";
    d.numClasses = (options.testSplitOnly ? std::max(maxTest, maxTrain) : maxTrain) + 1;
    if (d.numClasses < 2)
        throw DataError(std::string(labelsPart) + " holds a single class (0); a classifier needs at least two");

    const std::string classesFile = dir + "/classes.txt";
    if (fileExists(classesFile)) {
        std::ifstream in(classesFile);
        std::string line;
        // Labels are single bytes: more than 256 names is a mistake, and reading stops there.
        for (int number = 1; d.classNames.size() <= 256 && std::getline(in, line); ++number) {
            while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
                line.pop_back();
            // The names go into weights files, reports and JSON, which hold UTF-8.
            if (const size_t bad = firstInvalidUtf8(line); bad != std::string::npos)
                throw DataError("classes.txt line " + std::to_string(number) + " is not valid UTF-8 (at byte " +
                                std::to_string(bad) + "): save it as UTF-8");
            if (!line.empty())
                d.classNames.push_back(line);
        }
        if (d.classNames.size() > 256)
            throw DataError("classes.txt names more than 256 classes; labels are single bytes, so 256 is the most");
        if (int(d.classNames.size()) < d.numClasses)
            throw DataError("classes.txt names " + std::to_string(d.classNames.size()) + " classes but " + labelsPart +
                            " uses labels up to " + std::to_string(d.numClasses - 1));
        d.numClasses = int(d.classNames.size());
        d.classNamesSource = "classes.txt";
    } else if (d.numClasses == 10 &&
               (lower(std::filesystem::path(absolutePath(dir)).filename().string()).find("fashion") !=
                    std::string::npos || // the folder's own name
                isFashionMnistTest(d.test))) {
        d.classNames = fashionMnistClassNames();
        d.classNamesSource = "Fashion-MNIST";
    } else if (d.numClasses == 10) {
        for (int i = 0; i < 10; ++i)
            d.classNames.push_back(std::to_string(i));
        d.classNamesSource = "MNIST digits";
    } else {
        for (int i = 0; i < d.numClasses; ++i)
            d.classNames.push_back("class " + std::to_string(i));
        d.classNamesSource = "generic";
    }
    if (maxTest >= d.numClasses)
        throw DataError("t10k-labels uses label " + std::to_string(maxTest) +
                        " but the training labels only cover 0.." + std::to_string(d.numClasses - 1));

    d.pixelsHash = pixelsHashOf(d);
    return withOptions(std::move(d), options);
}

uint64_t pixelsHashStep(uint64_t h, const std::vector<uint8_t>& pixels)
{
    // Eight bytes a step, multiplied and folded: a chain a few cycles long per word, so a dataset of
    // tens of megabytes hashes in milliseconds, where SHA-256 would take a good part of a second.
    auto add = [&h](uint64_t word) {
        h = (h ^ word) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    };
    const size_t n = pixels.size(), whole = n / 8 * 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t word;
        std::memcpy(&word, pixels.data() + i, 8);
        add(word);
    }
    uint64_t tail = 0;
    if (n > whole)
        std::memcpy(&tail, pixels.data() + whole, n - whole);
    add(tail);
    add(n); // where one split ends and the next begins
    return h;
}

std::string pixelsHashOf(const Dataset& d)
{
    const uint64_t h = pixelsHashStep(pixelsHashStep(0x6a09e667f3bcc908ull, d.train.pixels), d.test.pixels);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

void requireSizeMultiplierFits(const Dataset& d, int multiplier)
{
    if (multiplier < 1 || multiplier > 16)
        throw ConfigError("the image size multiplier must be between 1 and 16 (got " + std::to_string(multiplier) +
                          ")");
    if (d.isText() && multiplier != 1)
        throw ConfigError("the image size multiplier is for images, and " + d.directory +
                          " is a text: leave it at 1 for a text model");
}

Dataset withOptions(Dataset d, const DatasetOptions& options)
{
    requireSizeMultiplierFits(d, options.sizeMultiplier);
    if (options.validationSplit != 0) {
        if (!(options.validationSplit > 0 && options.validationSplit < 1))
            throw ConfigError("the validation split must be a fraction between 0 and 1 (exclusive)");
        // Keras' validation_split: the last samples, before any shuffling.
        const int keep = int(std::lround(double(d.train.count) * (1.0 - options.validationSplit)));
        if (keep < 1 || keep >= d.train.count) {
            char fraction[32];
            std::snprintf(fraction, sizeof fraction, "%g", options.validationSplit);
            throw DataError(std::string("a validation split of ") + fraction + " leaves none of the " +
                            std::to_string(d.train.count) + " training " + (d.isText() ? "sequences" : "images") +
                            (keep < 1 ? " to train on" : " to validate on"));
        }
        ImageSplit& v = d.validation;
        v = d.train;
        v.count = d.train.count - keep;
        v.pixels.assign(d.train.pixels.begin() + int64_t(keep) * d.train.imageBytes(), d.train.pixels.end());
        v.labels.assign(d.train.labels.begin() + int64_t(keep) * d.train.steps, d.train.labels.end());
        d.train.count = keep;
        d.train.pixels.resize(size_t(keep) * size_t(d.train.imageBytes()));
        d.train.labels.resize(size_t(keep) * size_t(d.train.steps));
        d.pixelsHash.clear(); // of the splits as loaded, not as cut
    }
    if (options.dropRemainderBatch > 0) {
        for (const auto& [split, what] : {std::pair{&d.train, "training"}, std::pair{&d.test, "test"}})
            if (split->count < options.dropRemainderBatch)
                throw DataError(std::string("cannot drop the remainder: the ") + what + " split holds " +
                                std::to_string(split->count) + " " + (d.isText() ? "sequences" : "images") +
                                ", fewer than one batch of " + std::to_string(options.dropRemainderBatch));
        truncateSplit(d.train, options.dropRemainderBatch);
        truncateSplit(d.test, options.dropRemainderBatch);
        d.pixelsHash.clear();
    }
    d.sizeMultiplier = options.sizeMultiplier;
    return d;
}

Shape inputShapeOf(const Dataset& d)
{
    return d.isText() ? Shape::tokenIds(d.inputHeight()) : Shape::image(d.inputHeight(), d.inputWidth(), 1);
}

void imageToFloat(const ImageSplit& split, int index, int mult, float scale, float* dst)
{
    const uint8_t* src = split.image(index);
    const int h = split.height, w = split.width;
    if (mult == 1) {
        for (int i = 0; i < h * w; ++i)
            dst[i] = float(src[i]) * scale;
        return;
    }
    const int W = w * mult;
    for (int y = 0; y < h; ++y) {
        float* row = dst + size_t(y) * mult * W;
        for (int x = 0; x < w; ++x) {
            const float v = float(src[y * w + x]) * scale;
            for (int k = 0; k < mult; ++k)
                row[x * mult + k] = v;
        }
        for (int k = 1; k < mult; ++k)
            std::copy(row, row + W, row + size_t(k) * W);
    }
}

} // namespace tb
