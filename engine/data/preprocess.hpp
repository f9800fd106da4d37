// What a picture goes through before a model trained on IDX images sees it: grayscale, white ink
// on black as the datasets store it, then for digits what MNIST did to NIST's scans (crop to the
// ink's bounding box, fit into 20x20 keeping the aspect, centre by the centre of mass in 28x28),
// otherwise a resize to the model's input; a picture of other proportions is trimmed of its margins
// and fitted unstretched, as Fashion-MNIST made its pictures. The window and the CLI decode files
// themselves and hand 8-bit RGBA here, so both give the model the same bytes for the same picture.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

struct RgbaImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> pixels; // (height, width, 4): R, G, B, A, alpha not premultiplied
};

struct GrayImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> pixels; // (height, width)
};

// The largest picture the front ends decode, checked on the file's header before decoding: a
// 20000x20000 file (1.6 GB as RGBA) is refused instead of freezing the machine.
constexpr int kMaxPictureSide = 16384;
constexpr int64_t kMaxPicturePixels = 64LL * 1024 * 1024;
// "20000x20000 pixels is too large to predict on (at most 16384 pixels a side and 67,108,864
// pixels); scale it down first", or empty when the size is acceptable.
std::string pictureSizeProblem(int64_t width, int64_t height);

struct PreprocessOptions {
    bool autoInvert = true; // a picture lighter at its border than its ink is inverted to white on black
    bool centre = true;     // MNIST's crop, 20x20 fit and centre of mass; off: a resize, unstretched
};

struct PreprocessResult {
    GrayImage input;       // (height, width) of the model: exactly what it receives
    bool inverted = false; // the picture was dark on light and was inverted
    bool blank = false;    // no ink: a uniform picture, nothing to recognise
    bool centred = false;  // centring was asked for and done (it needs ink lighter than the paper)
    bool fitted = false;   // not centred, and over 10% off the input's proportions: trimmed and fitted
};

// Alpha composited over white, then Rec. 601 luma, rounded.
GrayImage toGray(const RgbaImage& picture);

// `picture` as a (height, width) model input. Centring also stretches the levels so that the
// paper is black and the strongest ink white (photos of paper are grey, not black), before the
// resize and after it; the plain resize keeps the levels, so a dataset image scaled up by an
// integer factor comes back exactly.
PreprocessResult preprocessImage(const GrayImage& picture, int height, int width, const PreprocessOptions& options);

// Whether MNIST's centring suits a model with these classes: the ten digits, as MNIST names them.
bool centringSuits(const std::vector<std::string>& classNames);

} // namespace tb
