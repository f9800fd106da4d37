#include "data/idx.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace tb {

namespace {
uint64_t g_limitOverride = 0;

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A byte source over a raw or gzip file, reporting errors with the file's name. The gzip side is
// zlib's inflate driven by hand rather than gzread, which ignores whatever follows the gzip data:
// here concatenated gzip members read as one stream (as gzip -d does), anything else after them
// is refused. A .gz file that is not gzip at all (a browser that inflated a download and kept its
// name) reads as it is, as gzread would.
class Source {
public:
    explicit Source(const std::string& path) : m_name(baseName(path)), m_gz(endsWith(path, ".gz"))
    {
        m_f = std::fopen(path.c_str(), "rb");
        if (!m_f)
            throw DataError(MessageId::IdxCannotOpen, {m_name, std::strerror(errno)},
                            m_name + ": cannot open: " + std::strerror(errno));
        if (m_gz) {
            m_in.resize(size_t(1) << 17);
            m_z.next_in = m_in.data();
            if (inflateInit2(&m_z, 15 + 16) != Z_OK) { // 16: a gzip wrapper, its CRC and length checked
                std::fclose(m_f);
                throw DataError(m_name + ": cannot start zlib");
            }
        }
    }
    ~Source()
    {
        if (m_gz)
            inflateEnd(&m_z);
        std::fclose(m_f);
    }
    Source(const Source&) = delete;
    Source& operator=(const Source&) = delete;

    bool compressed() const { return m_gz; }
    // Reads up to n bytes; returns how many were read. Throws on a read or decompression error.
    size_t read(void* dst, size_t n)
    {
        auto p = static_cast<uint8_t*>(dst);
        return m_gz ? readGzip(p, n) : readFile(p, n);
    }
    const std::string& name() const { return m_name; }

private:
    size_t readFile(uint8_t* p, size_t n)
    {
        const size_t got = std::fread(p, 1, n, m_f);
        if (got < n && std::ferror(m_f))
            throw DataError(m_name + ": read error: " + std::strerror(errno));
        return got;
    }

    // At least k bytes of input in m_z, unless the file ends first.
    void want(size_t k)
    {
        if (m_z.avail_in >= k || m_fileEnded)
            return;
        std::memmove(m_in.data(), m_z.next_in, m_z.avail_in);
        m_z.next_in = m_in.data();
        while (m_z.avail_in < k && !m_fileEnded) {
            const size_t got = readFile(m_in.data() + m_z.avail_in, m_in.size() - m_z.avail_in);
            m_fileEnded = got == 0;
            m_z.avail_in += uInt(got);
        }
    }

    [[noreturn]] void corrupt(const char* why) const
    {
        throw DataError(m_name + ": the gzip data is corrupt (" + why + ")");
    }

    size_t readGzip(uint8_t* p, size_t n)
    {
        size_t total = 0;
        while (total < n) {
            if (m_direct || !m_inMember) {
                want(m_direct ? 1 : 2);
                if (m_z.avail_in == 0)
                    break; // the end of the file, between members
            }
            if (m_direct) {
                const size_t c = std::min<size_t>(n - total, m_z.avail_in);
                std::memcpy(p + total, m_z.next_in, c);
                m_z.next_in += c;
                m_z.avail_in -= uInt(c);
                total += c;
                continue;
            }
            if (!m_inMember) {
                const bool gzip = m_z.avail_in >= 2 && m_z.next_in[0] == 0x1f && m_z.next_in[1] == 0x8b;
                if (!gzip && !m_started) {
                    m_direct = true;
                    continue;
                }
                if (!gzip)
                    throw DataError(m_name + ": has bytes after the end of its gzip data that are not gzip data (the "
                                             "file is damaged, or something was appended to it)");
                inflateReset(&m_z);
                m_inMember = m_started = true;
            }
            want(1);
            if (m_z.avail_in == 0)
                throw DataError(m_name + ": is truncated: its gzip data ends before the compressed stream does (a "
                                         "download or copy cut short?)");
            const uInt room = uInt(std::min<size_t>(n - total, size_t(1) << 30));
            m_z.next_out = p + total;
            m_z.avail_out = room;
            const int r = inflate(&m_z, Z_NO_FLUSH);
            total += room - m_z.avail_out;
            if (r == Z_STREAM_END)
                m_inMember = false;
            else if (r != Z_OK && r != Z_BUF_ERROR)
                corrupt(m_z.msg ? m_z.msg : zError(r));
        }
        return total;
    }

    std::string m_name;
    bool m_gz;
    FILE* m_f = nullptr;
    z_stream m_z{};
    std::vector<uint8_t> m_in; // compressed bytes read ahead
    bool m_fileEnded = false;  // fread has returned 0
    bool m_started = false;    // a gzip member has begun
    bool m_inMember = false;   // inside a gzip member
    bool m_direct = false;     // a .gz file that is not gzip, read as it is
};
} // namespace

uint64_t idxSizeLimit()
{
    // Half the memory this process may use: a control group's limit counts as the other refusals'.
    return g_limitOverride ? g_limitOverride : physicalMemoryBytes() / 2;
}

void setIdxSizeLimitForTesting(uint64_t bytes)
{
    g_limitOverride = bytes;
}

IdxArray readIdx(const std::string& path, int expectedDims)
{
    Source src(path);
    const std::string& name = src.name();
    uint8_t magic[4];
    const size_t got = src.read(magic, 4);
    if (got < 4)
        throw DataError(MessageId::IdxTooShort, {name, std::to_string(got)},
                        name + ": the file is too short to hold an IDX header (" + std::to_string(got) + " bytes)");
    if (magic[0] == 0x1f && magic[1] == 0x8b) // raw IDX is read under a name without .gz
        throw DataError(MessageId::IdxGzipped, {name},
                        name + ": not an IDX file but a gzip-compressed one: name it " + name +
                            ".gz, or decompress it (gunzip)");
    if (magic[0] != 0 || magic[1] != 0) {
        const std::string found = std::to_string(magic[0]) + "," + std::to_string(magic[1]) + "," +
                                  std::to_string(magic[2]) + "," + std::to_string(magic[3]);
        const std::string expected = "0,0,8," + std::to_string(expectedDims);
        throw DataError(MessageId::IdxNotIdx, {name, found, expected},
                        name + ": not an IDX file (bad magic number " + found + "; expected " + expected + ")");
    }
    if (magic[2] != 0x08)
        throw DataError(name + ": holds IDX data type 0x" + [&] {
            char b[4];
            std::snprintf(b, sizeof b, "%02x", magic[2]);
            return std::string(b);
        }() + "; only unsigned bytes (0x08) are supported");
    if (magic[3] != expectedDims)
        throw DataError(name + ": has " + std::to_string(magic[3]) + " dimensions; expected " +
                        std::to_string(expectedDims) + (expectedDims == 3 ? " (images, rows, columns)" : " (labels)"));

    IdxArray out;
    uint64_t total = 1;
    for (int d = 0; d < expectedDims; ++d) {
        uint8_t b[4];
        if (src.read(b, 4) < 4)
            throw DataError(name + ": the header is truncated (dimension " + std::to_string(d + 1) + " is missing)");
        const uint32_t v = uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
        if (v == 0) {
            static const char* const kImageDims[] = {"images", "rows in an image", "columns in an image"};
            throw DataError(name + ": the header declares 0 " + (expectedDims == 3 ? kImageDims[d] : "labels") +
                            (d == 0 ? ": the file holds none" : ""));
        }
        if (v > 0x7fffffffu)
            throw DataError(name + ": dimension " + std::to_string(d + 1) + " is absurd (" + std::to_string(v) + ")");
        out.dims.push_back(int(v));
        total *= v;
        if (total > (uint64_t(1) << 50))
            break; // caught by the limit check below without overflowing
    }
    const uint64_t limit = idxSizeLimit();
    if (total > limit)
        throw DataError(name + ": declares " + std::to_string(total) + " bytes of data (" + humanBytes(total) +
                        "), more than this machine can hold (" + humanBytes(limit) +
                        "); the header is probably corrupt");
    const uint64_t headerBytes = 4 + 4 * uint64_t(expectedDims);
    if (!src.compressed()) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) {
            const uint64_t actual = uint64_t(st.st_size) - std::min<uint64_t>(uint64_t(st.st_size), headerBytes);
            if (actual < total)
                throw DataError(MessageId::IdxTruncated, {name, std::to_string(total), std::to_string(actual)},
                                name + ": is truncated: the header declares " + std::to_string(total) +
                                    " data bytes but only " + std::to_string(actual) + " are present");
            if (actual > total)
                throw DataError(MessageId::IdxTooLongBy, {name, std::to_string(actual - total), std::to_string(total)},
                                name + ": is longer than its header says: " + std::to_string(actual - total) +
                                    " extra bytes after the declared " + std::to_string(total));
        }
    }
    size_t read = 0;
    if (src.compressed()) {
        // A gzip file's size says nothing of what it inflates to: the array grows with the bytes
        // really inflated (1 MiB, then doubling, at most 64 MiB more at a time), so a few bytes
        // whose header promises gigabytes allocate next to nothing.
        while (read < total) {
            const uint64_t grow = std::clamp<uint64_t>(read, uint64_t(1) << 20, uint64_t(64) << 20);
            const size_t step = size_t(std::min<uint64_t>(total - read, grow));
            out.bytes.resize(read + step);
            const size_t got = src.read(out.bytes.data() + read, step);
            read += got;
            if (got < step)
                break;
        }
        out.bytes.resize(read);
    } else {
        out.bytes.resize(size_t(total));
        read = src.read(out.bytes.data(), size_t(total));
    }
    if (read < total)
        throw DataError(MessageId::IdxTruncated, {name, std::to_string(total), std::to_string(read)},
                        name + ": is truncated: the header declares " + std::to_string(total) +
                            " data bytes but only " + std::to_string(read) + " are present");
    uint8_t extra[256];
    const size_t more = src.read(extra, sizeof extra);
    if (more > 0)
        throw DataError(MessageId::IdxTooLong, {name, std::to_string(total)},
                        name + ": is longer than its header says: extra bytes after the declared " +
                            std::to_string(total));
    return out;
}

} // namespace tb
