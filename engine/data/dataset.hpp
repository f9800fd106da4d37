// An image-classification dataset read from a folder of IDX files: the train and test splits,
// kept as uint8 pixels (converted to float batch by batch), and the class names. A text dataset
// (data/text_dataset.hpp) uses the same splits: each sample is a sequence of T token ids (an
// "image" of T x 1) with T labels, the next token at every step.
#pragma once

#include "core/shape.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

struct ImageSplit {
    int count = 0;
    int height = 0;
    int width = 0;
    std::vector<uint8_t> pixels; // (count, height, width)
    std::vector<uint8_t> labels; // (count, steps)
    int steps = 1;               // labels per sample: 1 for images, the sequence length for text
    std::string imagesFile;      // paths actually read
    std::string labelsFile;

    const uint8_t* image(int i) const { return pixels.data() + size_t(i) * height * width; }
    int64_t imageBytes() const { return int64_t(height) * width; }
};

struct DatasetOptions {
    int dropRemainderBatch = 0; // > 0: truncate both splits to a multiple of this batch size
    int sizeMultiplier = 1;     // scale images by this integer factor (nearest neighbour)
    double validationSplit = 0; // in (0, 1): the last fraction of train becomes `validation`
    // Only the test split is read (evaluating trained weights needs no training image, and a damaged
    // train file should not stop it): `train` is left empty but for the test images' size, and the
    // classes are those of the training labels file (a test split may lack one), or where it cannot
    // be read, the test labels'.
    bool testSplitOnly = false;
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
    // pixelsHashOf(*this) as loaded, computed once by the loaders (a checkpoint's fingerprint holds it);
    // empty where the splits were built otherwise, or cut by options after.
    std::string pixelsHash;
    // A text dataset: the vocabulary kind ("bytes" or "characters"), empty for images.
    std::string textVocabulary;
    std::string textSample; // the beginning of the text, for display (valid UTF-8)
    int64_t textBytes = 0;  // the whole text's length in bytes

    bool isText() const { return !textVocabulary.empty(); }
    int inputHeight() const { return train.height * sizeMultiplier; }
    int inputWidth() const { return train.width * sizeMultiplier; }
};

// A 64-bit hash, as 16 hex digits, of the train then the test split's pixels (a text's symbol ids):
// whether two datasets of the same counts and labels hold the same images. Not cryptographic; a few
// milliseconds for Fashion-MNIST's 55 MB.
std::string pixelsHashOf(const Dataset& d);
// pixelsHashOf's step: `h` with one split's pixels (and their count) folded in, eight bytes at a time.
uint64_t pixelsHashStep(uint64_t h, const std::vector<uint8_t>& pixels);

// Finds the four IDX files in `dir` (raw or .gz, "-idx3-ubyte" or ".idx3-ubyte") and reads them.
// Throws DataError naming the file and the problem.
Dataset loadDataset(const std::string& dir, const DatasetOptions& options = {});

// `d` with the options applied (splits truncated to a multiple of the batch, size multiplier set).
Dataset withOptions(Dataset d, const DatasetOptions& options);
// ConfigError where an image size multiplier cannot apply to `d`: outside 1 to 16, or other than 1 for
// a text.
void requireSizeMultiplierFits(const Dataset& d, int multiplier);

// Which file would be read for a split part; empty if none is present.
// part is "train-images", "train-labels", "t10k-images" or "t10k-labels".
std::string findIdxFile(const std::string& dir, const std::string& part);

// Keras' class names for the two datasets the tutorials use.
const std::vector<std::string>& fashionMnistClassNames();

// `path` made absolute and normal ("ds" → "/home/me/ds"), as runs and weights record a dataset: a
// relative path would name another folder when a run is resumed from elsewhere.
std::string absolutePath(const std::string& path);

// The folder the CLI and the window use when none is given.
const char* defaultDatasetDir();

// The input a network is built for: (H, W, 1) images, or a text's (T) token ids.
Shape inputShapeOf(const Dataset& d);

// Writes pixels of sample `index` into `dst` (height*mult x width*mult floats), scaled by `scale`.
void imageToFloat(const ImageSplit& split, int index, int sizeMultiplier, float scale, float* dst);

} // namespace tb
