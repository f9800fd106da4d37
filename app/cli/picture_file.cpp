// PNG through libpng's simplified API, JPEG through libjpeg-turbo (picture_file.hpp); binary PGM and PPM by hand.
#include "picture_file.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <jpeglib.h>
#include <png.h>
#include <unistd.h>

namespace tbcli {
namespace {

constexpr uintmax_t kMaxFileBytes = 256u << 20;

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw tb::IoError(path + ": " + what);
}

bool startsWith(const std::string& bytes, const char* magic, size_t n)
{
    return bytes.size() >= n && std::memcmp(bytes.data(), magic, n) == 0;
}

void checkSize(const std::string& path, int64_t width, int64_t height)
{
    if (const std::string problem = tb::pictureSizeProblem(width, height); !problem.empty())
        fail(path, problem);
}

// An APNG has an acTL chunk before its first IDAT; libpng reads its default image only.
bool isAnimatedPng(const std::string& bytes)
{
    size_t at = 8;
    while (at + 8 <= bytes.size()) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
        const uint32_t length = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
        const std::string type = bytes.substr(at + 4, 4);
        if (type == "acTL")
            return true;
        if (type == "IDAT" || length > bytes.size())
            return false;
        at += 12 + size_t(length);
    }
    return false;
}

Picture readPng(const std::string& path, const std::string& bytes)
{
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()))
        fail(path, std::string("not a valid PNG file (") + png.message + ")");
    if (const std::string problem = tb::pictureSizeProblem(png.width, png.height); !problem.empty()) {
        png_image_free(&png);
        fail(path, problem);
    }
    Picture pic;
    pic.image.width = int(png.width);
    pic.image.height = int(png.height);
    const size_t n = size_t(png.width) * png.height;
    pic.image.pixels.resize(4 * n);
    if (png.format & PNG_FORMAT_FLAG_LINEAR) {
        // 16 bits a channel: read as they are (libpng takes them as linear light and would
        // gamma-encode them into 8 bits) and scale them to 8 bits, rounded. Linear RGBA comes
        // premultiplied.
        png.format = PNG_FORMAT_LINEAR_RGB_ALPHA;
        std::vector<png_uint_16> wide(4 * n);
        if (!png_image_finish_read(&png, nullptr, wide.data(), 0, nullptr))
            fail(path, std::string("corrupt PNG data (") + png.message + ")");
        for (size_t i = 0; i < n; ++i) {
            const uint32_t a = wide[4 * i + 3];
            for (int k = 0; k < 3; ++k) {
                const uint32_t c = a ? (uint32_t(wide[4 * i + k]) * 65535u + a / 2) / a : 0;
                pic.image.pixels[4 * i + k] = uint8_t((std::min(c, 65535u) * 255u + 32767u) / 65535u);
            }
            pic.image.pixels[4 * i + 3] = uint8_t((a * 255u + 32767u) / 65535u);
        }
    } else {
        png.format = PNG_FORMAT_RGBA;
        if (!png_image_finish_read(&png, nullptr, pic.image.pixels.data(), 0, nullptr))
            fail(path, std::string("corrupt PNG data (") + png.message + ")");
    }
    if (isAnimatedPng(bytes))
        pic.note = path + ": an animated PNG; predicting on its first frame";
    return pic;
}

struct JpegError {
    jpeg_error_mgr mgr;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void onJpegError(j_common_ptr cinfo)
{
    auto* e = reinterpret_cast<JpegError*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, e->message);
    std::longjmp(e->jump, 1);
}

void onJpegMessage(j_common_ptr cinfo, int level)
{
    auto* e = reinterpret_cast<JpegError*>(cinfo->err);
    if (level < 0 && e->mgr.num_warnings++ == 0) // keep the first warning's text for the note
        (*cinfo->err->format_message)(cinfo, e->message);
}

// CMYK pixels to RGBA in place: each of red, green and blue is what its ink (cyan, magenta,
// yellow) and black leave of white. Photoshop's (Adobe-marked) CMYK JPEGs store the inks inverted,
// 255 for none, as Qt's and libjpeg's own readers assume.
void cmykToRgba(std::vector<uint8_t>& pixels, bool inverted)
{
    for (size_t i = 0; i + 3 < pixels.size(); i += 4) {
        int white[4]; // of each ink, what it leaves of white: 255 where there is none
        for (int c = 0; c < 4; ++c)
            white[c] = inverted ? pixels[i + c] : 255 - pixels[i + c];
        for (int c = 0; c < 3; ++c)
            pixels[i + c] = uint8_t((white[c] * white[3] + 127) / 255);
        pixels[i + 3] = 255;
    }
}

Picture readJpeg(const std::string& path, const std::string& bytes)
{
    jpeg_decompress_struct cinfo;
    JpegError err;
    err.message[0] = 0;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = onJpegError;
    err.mgr.emit_message = onJpegMessage;
    // Everything below that can fail longjmps back here; only trivially destructible locals live
    // between the two points (the picture is built after decoding).
    std::vector<uint8_t>* rgba = new std::vector<uint8_t>;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        delete rgba;
        fail(path, std::string("not a valid JPEG file (") + err.message + ")");
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()), (unsigned long)bytes.size());
    jpeg_read_header(&cinfo, TRUE);
    if (tb::pictureSizeProblem(cinfo.image_width, cinfo.image_height).size()) {
        const int64_t w = cinfo.image_width, h = cinfo.image_height;
        jpeg_destroy_decompress(&cinfo);
        delete rgba;
        checkSize(path, w, h);
    }
    // libjpeg converts CMYK (and YCCK, to CMYK) to nothing else: take the four inks and mix RGB here.
    const bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    const size_t stride = size_t(cinfo.output_width) * 4;
    rgba->resize(stride * cinfo.output_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = rgba->data() + stride * cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    if (cmyk)
        cmykToRgba(*rgba, cinfo.saw_Adobe_marker);
    jpeg_finish_decompress(&cinfo);
    Picture pic;
    pic.image.width = int(cinfo.output_width);
    pic.image.height = int(cinfo.output_height);
    pic.image.pixels = std::move(*rgba);
    delete rgba;
    if (err.mgr.num_warnings > 0)
        pic.note = path + ": damaged JPEG data (" + err.message + "); predicting on what could be read";
    jpeg_destroy_decompress(&cinfo);
    return pic;
}

// Binary PGM (P5), what --save-inputs writes, or binary PPM (P6, red, green and blue a pixel): "P5" or
// "P6", width, height and the largest value as decimal numbers between white space and comments, one
// white space character, then the rows, a byte a sample (two, most significant first, when the
// largest value exceeds 255).
Picture readNetpbm(const std::string& path, const std::string& bytes)
{
    const bool colour = bytes[1] == '6';
    const std::string format = colour ? "PPM" : "PGM";
    size_t at = 2;
    auto number = [&](const char* what) {
        while (at < bytes.size() && (std::isspace(static_cast<unsigned char>(bytes[at])) || bytes[at] == '#'))
            if (bytes[at] == '#')
                at = std::min(bytes.find('\n', at), bytes.size());
            else
                ++at;
        uint64_t v = 0;
        const size_t start = at;
        while (at < bytes.size() && std::isdigit(static_cast<unsigned char>(bytes[at])) && v < (uint64_t(1) << 32))
            v = v * 10 + uint64_t(bytes[at++] - '0');
        if (at == start)
            fail(path, "not a valid " + format + " file (its " + what + " is not a number)");
        if (v >= (uint64_t(1) << 32))
            fail(path, "not a valid " + format + " file (its " + what + " is absurd)");
        return v;
    };
    const uint64_t w = number("width"), h = number("height"), maxValue = number("largest value");
    if (maxValue < 1 || maxValue > 65535)
        fail(path,
             "not a valid " + format + " file (its largest value " + std::to_string(maxValue) + " is not 1 to 65535)");
    checkSize(path, int64_t(w), int64_t(h));
    if (at >= bytes.size() || !std::isspace(static_cast<unsigned char>(bytes[at])))
        fail(path, "not a valid " + format + " file (no white space between its largest value and its pixels)");
    ++at; // the one white space character before the rows
    const uint64_t sampleBytes = maxValue > 255 ? 2 : 1, channels = colour ? 3 : 1;
    const uint64_t need = w * h * channels * sampleBytes;
    if (at > bytes.size() || bytes.size() - at < need)
        fail(path, "a truncated " + format + " file (" + std::to_string(need) + " bytes of pixels declared, " +
                       std::to_string(at > bytes.size() ? 0 : bytes.size() - at) + " present)");
    Picture pic;
    pic.image.width = int(w);
    pic.image.height = int(h);
    pic.image.pixels.resize(size_t(w * h) * 4);
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    for (size_t i = 0; i < size_t(w * h); ++i) {
        for (size_t c = 0; c < 3; ++c) {
            const size_t s = i * channels + (colour ? c : 0);
            const uint64_t v = sampleBytes == 2 ? uint64_t(p[2 * s]) << 8 | p[2 * s + 1] : p[s];
            pic.image.pixels[i * 4 + c] =
                static_cast<unsigned char>((std::min(v, maxValue) * 255 + maxValue / 2) / maxValue);
        }
        pic.image.pixels[i * 4 + 3] = 255;
    }
    return pic;
}

// The picture's bytes, as their first bytes say; `path` names them in messages (pictureName).
Picture decodePicture(const std::string& bytes, const std::string& path)
{
    if (startsWith(bytes, "\x89PNG\r\n\x1a\n", 8))
        return readPng(path, bytes);
    if (startsWith(bytes, "\xff\xd8\xff", 3))
        return readJpeg(path, bytes);
    const bool netpbm = bytes.size() > 2 && bytes[0] == 'P' && std::isspace(static_cast<unsigned char>(bytes[2]));
    if (netpbm && (bytes[1] == '5' || bytes[1] == '6'))
        return readNetpbm(path, bytes);
    std::string kind;
    if (netpbm && (bytes[1] == '2' || bytes[1] == '3'))
        fail(path, std::string("a plain-text (P") + bytes[1] + ") " + (bytes[1] == '2' ? "PGM" : "PPM") +
                       " picture; the command line reads binary PGM and PPM (P5, P6), PNG and JPEG (convert it, "
                       "or open it in the window)");
    if (netpbm && (bytes[1] == '1' || bytes[1] == '4'))
        kind = std::string("a PBM bitmap (P") + bytes[1] + ")";
    else if (startsWith(bytes, "GIF8", 4))
        kind = "a GIF picture";
    else if (startsWith(bytes, "BM", 2))
        kind = "a BMP picture";
    else if (startsWith(bytes, "RIFF", 4) && bytes.size() >= 12 && bytes.compare(8, 4, "WEBP") == 0)
        kind = "a WebP picture";
    else if (startsWith(bytes, "II*\0", 4) || startsWith(bytes, "MM\0*", 4))
        kind = "a TIFF picture";
    if (!kind.empty())
        fail(path, kind + "; the command line reads PNG, JPEG, PGM and PPM (convert it, or open it in the window)");
    fail(path, "not a PNG, JPEG, PGM or PPM picture");
}

// All of standard input, up to the size limit of a file. A terminal is refused before it is read:
// nobody types a picture, and the command would wait without a word.
std::string readStandardInput()
{
    const char* how = "give --image - a PNG, JPEG, PGM or PPM picture through a pipe or a redirection "
                      "(trainbench-cli predict --weights FILE --image - < picture.png)";
    if (::isatty(STDIN_FILENO))
        throw tb::IoError(std::string("standard input is a terminal: ") + how);
    std::string bytes;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n == 0)
            break;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) // closed (<&-), or not readable
            throw tb::IoError(std::string("cannot read standard input: ") + std::strerror(errno));
        bytes.append(buffer, size_t(n));
        if (bytes.size() > kMaxFileBytes)
            throw tb::IoError("standard input holds more than 256 MiB, too large for a picture");
    }
    if (bytes.empty())
        throw tb::IoError(std::string("standard input is empty: ") + how);
    return bytes;
}

} // namespace

std::string pictureName(const std::string& path)
{
    return path == "-" ? "standard input" : path;
}

Picture readPicture(const std::string& path)
{
    std::string bytes;
    if (path == "-") {
        bytes = readStandardInput();
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            fail(path, "a folder, not a picture");
        const uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size > kMaxFileBytes)
            fail(path, std::to_string(size) + " bytes is too large for a picture (at most 256 MiB)");
        bytes = tb::readWholeFile(path); // IoError names the file and the reason
        if (bytes.empty())
            fail(path, "the file is empty");
    }
    return decodePicture(bytes, pictureName(path));
}

} // namespace tbcli
