// An image-classification dataset read from a folder of IDX files: the train and test splits,
// kept as uint8 pixels (converted to float batch by batch), and the class names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

struct ImageSplit {
    int count = 0;
    int height = 0;
    int width = 0;
    std::vector<uint8_t> pixels; // (count, height, width)
    std::vector<uint8_t> labels; // (count)
    std::string imagesFile;      // paths actually read
    std::string labelsFile;

    const uint8_t* image(int i) const { return pixels.data() + size_t(i) * height * width; }
    int64_t imageBytes() const { return int64_t(height) * width; }
};

struct DatasetOptions {
    int dropRemainderBatch = 0; // > 0: truncate both splits to a multiple of this batch size
    int sizeMultiplier = 1;     // scale images by this integer factor (nearest neighbour)
    double validationSplit = 0; // in (0, 1): the last fraction of train becomes `validation`
};

struct Dataset {
    std::string directory;
    ImageSplit train;
    ImageSplit test;
    ImageSplit validation; // held out of the training images (empty unless asked for)
    int numClasses = 0;
    std::vector<std::string> classNames;
    std::string classNamesSource; // "classes.txt", "Fashion-MNIST", "MNIST digits" or "generic"
    int sizeMultiplier = 1;

    int inputHeight() const { return train.height * sizeMultiplier; }
    int inputWidth() const { return train.width * sizeMultiplier; }
};

// Finds the four IDX files in `dir` (raw or .gz, "-idx3-ubyte" or ".idx3-ubyte") and reads them.
// Throws DataError naming the file and the problem.
Dataset loadDataset(const std::string& dir, const DatasetOptions& options = {});

// `d` with the options applied (splits truncated to a multiple of the batch, size multiplier set).
Dataset withOptions(Dataset d, const DatasetOptions& options);

// Which file would be read for a split part; empty if none is present.
// part is "train-images", "train-labels", "t10k-images" or "t10k-labels".
std::string findIdxFile(const std::string& dir, const std::string& part);

// Keras' class names for the two datasets the tutorials use.
const std::vector<std::string>& fashionMnistClassNames();

// The folder the CLI and the window use when none is given.
const char* defaultDatasetDir();

// Writes pixels of sample `index` into `dst` (height*mult x width*mult floats), scaled by `scale`.
void imageToFloat(const ImageSplit& split, int index, int sizeMultiplier, float scale, float* dst);

} // namespace tb
