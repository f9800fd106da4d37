// The MNIST-style and plain preprocessing of a picture for a model (preprocess.hpp).
#include "data/preprocess.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>

namespace tb {
namespace {

struct FloatImage {
    int width = 0;
    int height = 0;
    std::vector<float> v; // (height, width), 0..255
    float& at(int x, int y) { return v[size_t(y) * size_t(width) + size_t(x)]; }
    float at(int x, int y) const { return v[size_t(y) * size_t(width) + size_t(x)]; }
};

// For each of `dst` output cells, the source cells it covers and by how much (box filter with
// fractional coverage: the exact area average when shrinking, nearest with blended seams when growing).
struct Tap {
    int index;
    float weight;
};
std::vector<std::vector<Tap>> areaTaps(int src, int dst)
{
    std::vector<std::vector<Tap>> taps(static_cast<size_t>(dst));
    const double scale = double(src) / dst;
    for (int o = 0; o < dst; ++o) {
        const double lo = o * scale, hi = (o + 1) * scale;
        double total = 0.0;
        for (int i = int(std::floor(lo)); i < int(std::ceil(hi)) && i < src; ++i) {
            const double cover = std::min(hi, double(i + 1)) - std::max(lo, double(i));
            if (cover > 1e-9) {
                taps[size_t(o)].push_back({i, float(cover)});
                total += cover;
            }
        }
        for (Tap& t : taps[size_t(o)])
            t.weight = float(t.weight / total);
    }
    return taps;
}

// The region [x0, x0 + w) x [y0, y0 + h) of `src` resampled to dw x dh by area.
FloatImage resample(const FloatImage& src, int x0, int y0, int w, int h, int dw, int dh)
{
    const auto tx = areaTaps(w, dw), ty = areaTaps(h, dh);
    FloatImage rows{dw, h, std::vector<float>(size_t(dw) * size_t(h))}; // horizontal pass
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < dw; ++x) {
            float s = 0.0f;
            for (const Tap& t : tx[size_t(x)])
                s += t.weight * src.at(x0 + t.index, y0 + y);
            rows.at(x, y) = s;
        }
    FloatImage out{dw, dh, std::vector<float>(size_t(dw) * size_t(dh))};
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x) {
            float s = 0.0f;
            for (const Tap& t : ty[size_t(y)])
                s += t.weight * rows.at(x, t.index);
            out.at(x, y) = s;
        }
    return out;
}

// The bounding box of the pixels that differ from `paper` by more than a tenth of the range (fainter
// specks left out): the ink, or an object on its background. w == 0 when none does.
struct Box {
    int x = 0, y = 0, w = 0, h = 0;
};
Box boxOfDifferences(const FloatImage& f, float paper)
{
    int x0 = f.width, y0 = f.height, x1 = -1, y1 = -1;
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x)
            if (std::abs(f.at(x, y) - paper) > 25.5f) {
                x0 = std::min(x0, x);
                x1 = std::max(x1, x);
                y0 = std::min(y0, y);
                y1 = std::max(y1, y);
            }
    return x1 < 0 ? Box{} : Box{x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

// The size of a w x h region fitted into width x height keeping its proportions.
std::pair<int, int> fitOf(int w, int h, int width, int height)
{
    const double s = std::min(double(width) / w, double(height) / h);
    return {std::clamp(int(std::lround(w * s)), 1, width), std::clamp(int(std::lround(h * s)), 1, height)};
}

// `f` as a width x height input. A picture of about the input's proportions (within 10%: a photo
// cropped by hand) is only resized, so a dataset image scaled up comes back exactly. Another is not
// stretched: as Fashion-MNIST made its products' pictures, its margins of the paper's shade (`fill`)
// are trimmed, its longer side fitted, and it is centred on `fill`. Stretched, a garment in a 3:4
// frame was classified as in its square original 72 times in 100, in a 1:3 frame 20.
FloatImage fitted(const FloatImage& f, int width, int height, float fill, PreprocessResult& r)
{
    const double aspect = (double(f.width) / f.height) / (double(width) / height);
    if (aspect >= 1 / 1.1 && aspect <= 1.1)
        return resample(f, 0, 0, f.width, f.height, width, height);
    r.fitted = true;
    Box b = boxOfDifferences(f, fill);
    // Nothing but paper, or a speck (dust, a JPEG artefact): not blown up to fill the input, the
    // whole picture is fitted.
    if (b.w == 0 || std::max(double(b.w) / f.width, double(b.h) / f.height) < 0.1)
        b = {0, 0, f.width, f.height};
    const auto [dw, dh] = fitOf(b.w, b.h, width, height);
    const FloatImage inner = resample(f, b.x, b.y, b.w, b.h, dw, dh);
    FloatImage out{width, height, std::vector<float>(size_t(width) * size_t(height), fill)};
    const int ox = (width - dw) / 2, oy = (height - dh) / 2;
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x)
            out.at(ox + x, oy + y) = inner.at(x, y);
    return out;
}

GrayImage toBytes(const FloatImage& f)
{
    GrayImage g{f.width, f.height, std::vector<uint8_t>(f.v.size())};
    for (size_t i = 0; i < f.v.size(); ++i)
        g.pixels[i] = uint8_t(std::lround(std::clamp(f.v[i], 0.0f, 255.0f)));
    return g;
}

// The pixels of the frame around the picture, about 5% of the shorter side wide.
std::vector<float> border(const FloatImage& f)
{
    const int b = std::max(1, std::min(f.width, f.height) / 20);
    std::vector<float> out;
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x)
            if (x < b || y < b || x >= f.width - b || y >= f.height - b)
                out.push_back(f.at(x, y));
    return out;
}

} // namespace

std::string pictureSizeProblem(int64_t width, int64_t height)
{
    if (width <= 0 || height <= 0)
        return std::to_string(width) + "x" + std::to_string(height) + " pixels: the picture is empty";
    if (width > kMaxPictureSide || height > kMaxPictureSide || width * height > kMaxPicturePixels)
        return std::to_string(width) + "x" + std::to_string(height) + " pixels is too large to predict on (at most " +
               std::to_string(kMaxPictureSide) + " pixels a side and " + std::to_string(kMaxPicturePixels) +
               " pixels); scale it down first";
    return {};
}

GrayImage toGray(const RgbaImage& picture)
{
    GrayImage g{picture.width, picture.height, std::vector<uint8_t>(size_t(picture.width) * size_t(picture.height))};
    for (size_t i = 0; i < g.pixels.size(); ++i) {
        const uint8_t* p = picture.pixels.data() + 4 * i;
        const unsigned a = p[3];
        unsigned c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = (p[k] * a + 255u * (255u - a) + 127u) / 255u;
        g.pixels[i] = uint8_t((299u * c[0] + 587u * c[1] + 114u * c[2] + 500u) / 1000u);
    }
    return g;
}

PreprocessResult preprocessImage(const GrayImage& picture, int height, int width, const PreprocessOptions& options)
{
    if (picture.width <= 0 || picture.height <= 0 || picture.pixels.size() != size_t(picture.width) * picture.height)
        throw DataError("the picture is empty (" + std::to_string(picture.width) + "x" +
                        std::to_string(picture.height) + " pixels)");
    if (height <= 0 || width <= 0)
        throw ModelError("the model's input is " + std::to_string(height) + "x" + std::to_string(width) + " pixels");
    FloatImage f{picture.width, picture.height, std::vector<float>(picture.pixels.begin(), picture.pixels.end())};
    PreprocessResult r;
    const auto [lo, hi] = std::minmax_element(f.v.begin(), f.v.end());
    r.blank = *hi - *lo < 16.0f;

    std::vector<float> frame = border(f);
    double frameMean = 0.0;
    for (float v : frame)
        frameMean += v;
    frameMean /= double(frame.size());
    if (options.autoInvert && frameMean > 127.5 && !r.blank) {
        for (float& v : f.v)
            v = 255.0f - v;
        for (float& v : frame)
            v = 255.0f - v;
        r.inverted = true;
    }
    // The paper: the frame's median, which also fills the sides of a picture fitted unstretched.
    std::nth_element(frame.begin(), frame.begin() + frame.size() / 2, frame.end());
    const float paper = frame[frame.size() / 2];
    if (!options.centre || r.blank) {
        r.input = toBytes(fitted(f, width, height, paper, r));
        return r;
    }

    // Levels: the paper to 0, the strongest ink to 255.
    const float ink = *std::max_element(f.v.begin(), f.v.end());
    if (ink - paper < 16.0f) { // no ink brighter than the paper (dark on light, not inverted)
        r.input = toBytes(fitted(f, width, height, paper, r));
        return r;
    }
    for (float& v : f.v)
        v = std::clamp((v - paper) * 255.0f / (ink - paper), 0.0f, 255.0f);

    // The ink's bounding box: the paper is 0 now, and the strongest ink 255.
    const Box inked = boxOfDifferences(f, 0.0f);
    const int bw = inked.w, bh = inked.h;
    // Into a 20x20 box of a 28x28 field (scaled with the model's input), keeping the aspect.
    const double boxW = 20.0 * width / 28.0, boxH = 20.0 * height / 28.0;
    const double s = std::min(boxW / bw, boxH / bh);
    const int dw = std::clamp(int(std::lround(bw * s)), 1, width);
    const int dh = std::clamp(int(std::lround(bh * s)), 1, height);
    FloatImage digit = resample(f, inked.x, inked.y, bw, bh, dw, dh);
    // The levels again: shrinking averages a thin pen's stroke with the paper beside it (a 4-pixel
    // stroke on a 300x400 page peaked at 87 of 255, and its 4 was read as a 7), where MNIST's
    // strokes reach white.
    if (const float peak = *std::max_element(digit.v.begin(), digit.v.end()); peak > 0.0f && peak < 255.0f)
        for (float& v : digit.v)
            v *= 255.0f / peak;

    // Centre of mass to the middle of the field, by whole pixels as MNIST did; in pixel indices,
    // as MNIST's digits have it (at 14, 14 of 28x28, measured on the test set).
    double mass = 0.0, mx = 0.0, my = 0.0;
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x) {
            const double v = digit.at(x, y);
            mass += v;
            mx += v * x;
            my += v * y;
        }
    const double cx = mass > 0 ? mx / mass : (dw - 1) / 2.0, cy = mass > 0 ? my / mass : (dh - 1) / 2.0;
    const int dx = int(std::lround(width / 2.0 - cx)), dy = int(std::lround(height / 2.0 - cy));
    FloatImage out{width, height, std::vector<float>(size_t(width) * size_t(height), 0.0f)};
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x) {
            const int ox = x + dx, oy = y + dy;
            if (ox >= 0 && oy >= 0 && ox < width && oy < height)
                out.at(ox, oy) = digit.at(x, y);
        }
    r.input = toBytes(out);
    r.centred = true;
    return r;
}

bool centringSuits(const std::vector<std::string>& classNames)
{
    if (classNames.size() != 10)
        return false;
    for (size_t i = 0; i < 10; ++i)
        if (classNames[i] != std::to_string(i))
            return false;
    return true;
}

} // namespace tb
