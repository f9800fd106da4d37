#include "data/text_dataset.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

namespace tb {

namespace fs = std::filesystem;

namespace {
const char* kHex = "0123456789abcdef";

// The length of the UTF-8 sequence starting at s[i], or 0 if it is not a valid one.
int utf8Length(const std::string& s, size_t i)
{
    const Utf8Lead lead = utf8Lead(static_cast<unsigned char>(s[i]));
    if (lead.length == 0 || i + lead.length > s.size())
        return 0;
    for (size_t k = 1; k < lead.length; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < (k == 1 ? lead.low : 0x80) || b > (k == 1 ? lead.high : 0xbf))
            return 0;
    }
    return int(lead.length);
}

// What training holds of each byte of a text at most: the text as read and joined, its token ids, the
// windows of ids and their labels, and a validation's prediction and probability per symbol.
constexpr uint64_t kTextBytesPerByte = 10;

// Control bytes that text holds: tab, line feed, vertical tab, form feed, carriage return, escape.
bool textControl(unsigned char b)
{
    return (b >= 0x09 && b <= 0x0d) || b == 0x1b;
}

// Binary data (compressed, a UTF-16 text, an executable) is refused, whole or by its first block
// (`first`): a block is judged by its signs alone (gzip's magic, a byte-order mark, a zero byte), the
// share of control bytes on the whole text (a man page's overstrikes may crowd its start).
void checkNotBinary(const std::string& text, const std::string& origin, bool first = false)
{
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b)
        throw DataError(origin + " is gzip-compressed, not text: decompress it first (gunzip -k)");
    const auto starts = [&](const char* bom, size_t n) { return text.compare(0, n, bom, n) == 0; };
    if (starts("\xff\xfe", 2) || starts("\xfe\xff", 2) || starts("\0\0\xfe\xff", 4))
        throw DataError(origin + " is UTF-16 or UTF-32 (it starts with a byte-order mark), not UTF-8 or a byte text: "
                                 "convert it first (iconv -f UTF-16 -t UTF-8)");
    if (const size_t z = text.find('\0'); z != std::string::npos)
        throw DataError(origin + " looks binary, not text (a zero byte at offset " + std::to_string(z) + ")");
    if (first)
        return;
    // Compressed or encrypted data without a zero byte: about one byte in nine is a control
    // character no text has; a text, any encoding, has next to none.
    size_t controls = 0;
    for (char c : text) {
        const auto b = static_cast<unsigned char>(c);
        controls += (b < 0x20 && !textControl(b)) || b == 0x7f;
    }
    if (controls >= 16 && controls * 100 > text.size())
        throw DataError(origin + " looks binary, not text (" + std::to_string(controls) + " of its " +
                        std::to_string(text.size()) + " bytes are control characters)");
}

void checkText(const std::string& text, const std::string& origin, bool requireUtf8)
{
    checkNotBinary(text, origin);
    if (const size_t bad = requireUtf8 ? firstInvalidUtf8(text) : std::string::npos; bad != std::string::npos)
        throw DataError(origin + " is not valid UTF-8 (at byte " + std::to_string(bad) +
                        "); a character-level vocabulary needs UTF-8, the byte-level one reads any text");
}

// A regular file only: a device (/dev/zero) or a pipe would be read until memory runs out, or forever.
std::string readFile(const fs::path& p)
{
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (!ec && !fs::is_regular_file(status))
        throw DataError(p.string() + " is not a regular file (a device, pipe or socket): give a text file or a "
                                     "folder of them");
    std::ifstream in(p, std::ios::binary);
    if (!in)
        throw DataError("cannot read the text file " + p.string() + ": " + std::strerror(errno));
    // The first block is looked at before the rest is read: a large binary file is refused at once.
    std::string text(64 * 1024, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(size_t(in.gcount()));
    checkNotBinary(text, p.string(), true);
    if (in) {
        if (const uintmax_t size = fs::file_size(p, ec); !ec)
            text.reserve(size_t(size));
        readToEnd(in, text);
    }
    if (in.bad())
        throw DataError("cannot read the text file " + p.string());
    return text;
}
} // namespace

TextVocabulary TextVocabulary::bytes()
{
    TextVocabulary v;
    v.kind = TextVocabularyKind::Bytes;
    for (int b = 0; b < 256; ++b)
        v.symbols.emplace_back(1, char(b));
    return v;
}

TextVocabulary TextVocabulary::characters(const std::string& text, const std::string& origin)
{
    std::set<std::string> seen; // ordered bytewise, which for UTF-8 is code point order
    for (size_t i = 0; i < text.size();) {
        const int len = utf8Length(text, i);
        if (len == 0)
            throw DataError("the text " + origin + " is not valid UTF-8 at byte " + std::to_string(i));
        seen.insert(text.substr(i, size_t(len)));
        i += size_t(len);
    }
    if (seen.size() > 256)
        throw DataError(
            "the text " + origin + " has " + std::to_string(seen.size()) +
            " distinct characters; a character-level vocabulary holds at most 256 (use the byte-level one)");
    TextVocabulary v;
    v.kind = TextVocabularyKind::Characters;
    v.symbols.assign(seen.begin(), seen.end());
    return v;
}

std::vector<std::string> TextVocabulary::classNames() const
{
    std::vector<std::string> names;
    for (const std::string& s : symbols) {
        std::string h;
        for (char c : s) {
            h += kHex[static_cast<unsigned char>(c) >> 4];
            h += kHex[static_cast<unsigned char>(c) & 15];
        }
        names.push_back(h);
    }
    return names;
}

TextVocabulary TextVocabulary::fromClassNames(const std::vector<std::string>& names)
{
    TextVocabulary v;
    auto nibble = [](char c) -> int {
        const char* p = std::strchr(kHex, c);
        return c != '\0' && p ? int(p - kHex) : -1;
    };
    for (const std::string& n : names) {
        if (n.empty() || n.size() % 2 || n.size() > 8)
            throw ModelError("the model's class names are not a text vocabulary (\"" + n + "\")");
        std::string s;
        for (size_t i = 0; i < n.size(); i += 2) {
            const int hi = nibble(n[i]), lo = nibble(n[i + 1]);
            if (hi < 0 || lo < 0)
                throw ModelError("the model's class names are not a text vocabulary (\"" + n + "\")");
            s += char(hi * 16 + lo);
        }
        v.symbols.push_back(s);
    }
    bool bytes = v.symbols.size() == 256;
    for (size_t b = 0; bytes && b < 256; ++b)
        bytes = v.symbols[b].size() == 1 && static_cast<unsigned char>(v.symbols[b][0]) == b;
    v.kind = bytes ? TextVocabularyKind::Bytes : TextVocabularyKind::Characters;
    return v;
}

std::vector<uint8_t> TextVocabulary::encode(const std::string& text, const std::string& what) const
{
    std::vector<uint8_t> ids;
    ids.reserve(text.size());
    if (kind == TextVocabularyKind::Bytes) {
        for (char c : text)
            ids.push_back(static_cast<uint8_t>(c));
        return ids;
    }
    for (size_t i = 0; i < text.size();) {
        const int len = utf8Length(text, i);
        if (len == 0) // a character-level vocabulary holds UTF-8 characters only
            throw DataError(what + " is not valid UTF-8 at byte offset " + std::to_string(i) + " (byte 0x" +
                            kHex[static_cast<unsigned char>(text[i]) >> 4] +
                            kHex[static_cast<unsigned char>(text[i]) & 15] +
                            "); the model's character-level vocabulary holds UTF-8 characters");
        const std::string sym = text.substr(i, size_t(len));
        const auto it = std::lower_bound(symbols.begin(), symbols.end(), sym);
        if (it == symbols.end() || *it != sym) {
            // i is where the character starts in the text, counted in bytes; the character is shown
            // as itself when it prints, and always by its bytes (a control byte shows by them alone).
            std::string hex;
            for (char c : sym) {
                const auto b = static_cast<unsigned char>(c);
                hex += std::string(hex.empty() ? "" : " ") + "0x" + kHex[b >> 4] + kHex[b & 15];
            }
            const bool shown = printableSample(sym) == sym; // not a newline, tab or control byte
            throw DataError(what + "'s character " + (shown ? "\"" + sym + "\" " : "") + "at byte offset " +
                            std::to_string(i) + " (" + (sym.size() == 1 ? "byte " : "bytes ") + hex +
                            ") is not in the model's character-level vocabulary");
        }
        ids.push_back(uint8_t(it - symbols.begin()));
        i += size_t(len);
    }
    return ids;
}

namespace {
// Refuses texts that training could not hold before any is read (a disk image given by mistake).
void requireMemoryFor(const std::vector<fs::path>& files, const std::string& fileOrDir)
{
    uint64_t bytes = 0;
    for (const fs::path& f : files) {
        std::error_code ec;
        if (const uintmax_t size = fs::file_size(f, ec); !ec)
            bytes += uint64_t(size);
    }
    if (bytes * kTextBytesPerByte > physicalMemoryBytes())
        throw DataError("the text " + fileOrDir + " (" + humanBytes(bytes) + ") needs about " +
                        humanBytes(bytes * kTextBytesPerByte) + " of memory to train on, more than " +
                        memoryLimitText() + "; use a part of it");
}

// A text file, or each regular file of a folder (sorted by name, not hidden, not recursive), as
// (its name, its text); checked as readText says.
std::vector<std::pair<std::string, std::string>> readTextFiles(const std::string& fileOrDir, bool requireUtf8)
{
    std::error_code ec;
    const fs::path p(fileOrDir);
    if (!fs::exists(p, ec))
        throw DataError("the text " + fileOrDir + " does not exist");
    std::vector<std::pair<std::string, std::string>> parts;
    if (fs::is_directory(p, ec)) {
        if (!findIdxFile(fileOrDir, "train-images").empty())
            throw DataError(fileOrDir + " holds IDX images, not texts: a text model trains on a text file or a folder "
                                        "of texts, an image model on IDX images");
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(p, ec)) {
            std::error_code fileEc;
            if (e.is_regular_file(fileEc) && e.path().filename().string()[0] != '.')
                files.push_back(e.path());
        }
        if (ec)
            throw DataError("cannot list the folder " + fileOrDir + ": " + ec.message());
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw DataError("the folder " + fileOrDir + " holds no text files");
        requireMemoryFor(files, fileOrDir);
        for (const fs::path& f : files) {
            parts.emplace_back(f.string(), readFile(f));
            checkText(parts.back().second, f.string(), requireUtf8);
        }
    } else {
        requireMemoryFor({p}, fileOrDir);
        parts.emplace_back(fileOrDir, readFile(p));
        checkText(parts.back().second, fileOrDir, requireUtf8);
    }
    return parts;
}

// The texts in order, each freed once copied: a large text is not held twice.
std::string joined(std::vector<std::pair<std::string, std::string>> parts, const std::string& fileOrDir)
{
    std::string text;
    if (parts.size() == 1) {
        text = std::move(parts.front().second);
    } else {
        size_t total = 0;
        for (const auto& part : parts)
            total += part.second.size();
        text.reserve(total);
        for (auto& part : parts) {
            text += part.second;
            std::string().swap(part.second);
        }
    }
    if (text.empty())
        throw DataError("the text " + fileOrDir + " is empty");
    return text;
}
} // namespace

std::string readText(const std::string& fileOrDir, bool requireUtf8)
{
    return joined(readTextFiles(fileOrDir, requireUtf8), fileOrDir);
}

Dataset textDataset(const std::string& text, const std::string& origin, const TextOptions& o)
{
    const int T = o.sequenceLength;
    if (T < 1 || T > 100000)
        throw ConfigError("the sequence length must be between 1 and 100000 (got " + std::to_string(T) + ")");
    if (!(o.validationFraction > 0 && o.validationFraction < 1))
        throw ConfigError("the validation fraction of a text must be between 0 and 1 (exclusive)");
    if (text.empty())
        throw DataError("the text " + origin + " is empty");
    const TextVocabulary vocab = o.vocabulary == TextVocabularyKind::Bytes ? TextVocabulary::bytes()
                                 : o.modelCharacters                       ? *o.modelCharacters
                                                                           : TextVocabulary::characters(text, origin);
    const std::vector<uint8_t> ids = vocab.encode(text, "the text " + origin);
    if (o.forTraining && std::all_of(ids.begin(), ids.end(), [&](uint8_t id) { return id == ids.front(); }))
        throw DataError("the text " + origin + " holds one symbol only (\"" +
                        printableSample(vocab.decode(ids.front())) +
                        "\" repeated): there is nothing for a model to predict; use a text with more");
    const int64_t total = int64_t(ids.size());
    const auto trainingLength = [&](int64_t n) {
        return int64_t(std::llround(double(n) * (1.0 - o.validationFraction)));
    };
    // Each side needs T + 1 tokens for one sequence and its labels.
    const auto fits = [&](int64_t n) { return trainingLength(n) >= T + 1 && n - trainingLength(n) >= T + 1; };
    const int64_t trainLen = trainingLength(total);
    if (!fits(total)) {
        // The shortest text that fits: both sides grow with the text, so it is the first length that does.
        int64_t lo = 2 * (int64_t(T) + 1),
                hi = int64_t(std::ceil(double(T + 1) / std::min(o.validationFraction, 1 - o.validationFraction)));
        while (!fits(hi))
            ++hi;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (fits(mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        // A model's weights fix the sequence length it is evaluated with, and 1 is the shortest: only the
        // text can change.
        throw DataError(
            "the text " + origin + " holds " + std::to_string(total) + " " +
            (o.vocabulary == TextVocabularyKind::Bytes ? "bytes" : "characters") + ", shorter than one sequence of " +
            std::to_string(T) + " on each side of the training/validation split (at least " + std::to_string(lo) +
            " needed); " +
            (o.forTraining && T > 1 ? "use a longer text or a shorter sequence length"
                                    : "use a longer text (the model reads sequences of " + std::to_string(T) + ")"));
    }
    Dataset d;
    d.directory = origin;
    auto cut = [&](ImageSplit& s, int64_t from, int64_t len, const char* what) {
        const int64_t count = (len - 1) / T;
        if (count > (1 << 30))
            throw DataError("the text " + origin + " is too long (" + std::to_string(count) + " " + what +
                            " sequences; at most 2^30)");
        s.count = int(count);
        s.height = T; // an "image" of T x 1 token ids
        s.width = 1;
        s.steps = T;
        s.pixels.assign(ids.begin() + from, ids.begin() + from + count * T);
        s.labels.assign(ids.begin() + from + 1, ids.begin() + from + 1 + count * T);
        s.imagesFile = s.labelsFile = origin;
    };
    cut(d.train, 0, trainLen, "training");
    cut(d.test, trainLen, total - trainLen, "validation");
    d.numClasses = vocab.size();
    d.classNames = vocab.classNames();
    d.classNamesSource =
        o.vocabulary == TextVocabularyKind::Bytes ? "byte-level vocabulary" : "character-level vocabulary";
    d.textVocabulary = o.vocabulary == TextVocabularyKind::Bytes ? "bytes" : "characters";
    d.textBytes = int64_t(text.size());
    size_t end = std::min<size_t>(text.size(), 400);
    while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80)
        --end; // not inside a UTF-8 character
    d.textSample = text.substr(0, end);
    return d;
}

Dataset loadTextDataset(const std::string& fileOrDir, const TextOptions& o)
{
    auto parts = readTextFiles(fileOrDir, o.vocabulary == TextVocabularyKind::Characters);
    // A character the model lacks is named within its own file, not at its offset in the folder's
    // texts joined together.
    if (o.modelCharacters && parts.size() > 1)
        for (const auto& [file, text] : parts)
            o.modelCharacters->encode(text, "the text " + file);
    Dataset d = textDataset(joined(std::move(parts), fileOrDir), fileOrDir, o);
    d.directory = absolutePath(fileOrDir);
    d.pixelsHash = pixelsHashOf(d); // the symbol ids
    return d;
}

Utf8Lead utf8Lead(unsigned char b)
{
    if (b < 0x80)
        return {1, 0, 0};
    const size_t length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const unsigned char low = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80;
    const unsigned char high = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
    return {length, low, high};
}

size_t firstInvalidUtf8(const std::string& s)
{
    for (size_t i = 0; i < s.size();) {
        const int len = utf8Length(s, i);
        if (len == 0)
            return i;
        i += size_t(len);
    }
    return std::string::npos;
}

bool isTextDataPath(const std::string& path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        return false;
    const auto idxName = [](const fs::path& p) { return p.filename().string().find("ubyte") != std::string::npos; };
    if (!fs::is_directory(status)) // a file; a device or a pipe too, which the text's reading refuses
        return !idxName(path);
    // A folder of texts: files, none named as IDX files are, and the first ones without a zero byte
    // near their start (a folder of PNG images is not one). The iteration says its errors rather than
    // throw them (a folder that cannot be read: the reading that follows says why).
    std::vector<fs::path> files;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
        if (idxName(it->path()))
            return false;
        if (std::error_code fileEc; it->is_regular_file(fileEc) && it->path().filename().string()[0] != '.')
            files.push_back(it->path());
    }
    if (ec || files.empty())
        return false;
    std::sort(files.begin(), files.end());
    files.resize(std::min<size_t>(files.size(), 8));
    return std::none_of(files.begin(), files.end(), [](const fs::path& f) { return looksBinary(f.string()); });
}

bool looksBinary(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    char head[4096];
    in.read(head, sizeof head);
    return std::memchr(head, 0, size_t(std::max<std::streamsize>(in.gcount(), 0))) != nullptr;
}

double unigramEntropy(const std::vector<uint8_t>& ids, int vocabulary)
{
    std::vector<int64_t> counts(size_t(std::max(vocabulary, 256)), 0);
    for (uint8_t id : ids)
        ++counts[id];
    double h = 0.0;
    for (int64_t c : counts)
        if (c > 0) {
            const double p = double(c) / double(ids.size());
            h -= p * std::log(p);
        }
    return h;
}

double bitsPerSymbol(double nats)
{
    return nats / std::log(2.0);
}

std::string printableSample(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int len = utf8Length(text, i);
        if (b == '\n')
            out += "\u21b5";
        else if (b == '\t')
            out += ' ';
        else if (len == 0 || b < 0x20 || b == 0x7f)
            out += '?';
        else
            out += text.substr(i, size_t(len));
        i += size_t(std::max(len, 1));
    }
    return out;
}

std::string symbolLabel(const std::string& symbol)
{
    if (symbol == " ")
        return "\u2423";
    if (symbol == "\n")
        return "\u21b5";
    if (symbol == "\t")
        return "\u21e5";
    const auto byte = static_cast<unsigned char>(symbol.empty() ? 0 : symbol[0]);
    if (symbol.size() == 1 && (byte < 0x20 || byte >= 0x7f)) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "\u27e8%02x\u27e9", byte);
        return hex;
    }
    return printableSample(symbol);
}

TextVocabulary vocabularyOf(const Dataset& d)
{
    if (!d.isText())
        throw DataError(d.directory + " is an image dataset, not a text");
    return TextVocabulary::fromClassNames(d.classNames);
}

} // namespace tb
