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

// A byte source over a raw or gzip file, reporting errors with the file's name.
class Source {
public:
    explicit Source(const std::string& path) : m_path(path), m_name(baseName(path))
    {
        m_gz = endsWith(path, ".gz");
        if (m_gz) {
            m_gzf = gzopen(path.c_str(), "rb");
            if (!m_gzf)
                throw DataError(MessageId::IdxCannotOpen, {m_name, std::strerror(errno)},
                                m_name + ": cannot open: " + std::strerror(errno));
            gzbuffer(m_gzf, 1 << 17);
        } else {
            m_f = std::fopen(path.c_str(), "rb");
            if (!m_f)
                throw DataError(MessageId::IdxCannotOpen, {m_name, std::strerror(errno)},
                                m_name + ": cannot open: " + std::strerror(errno));
        }
    }
    ~Source()
    {
        if (m_gzf)
            gzclose(m_gzf);
        if (m_f)
            std::fclose(m_f);
    }
    bool compressed() const { return m_gz; }
    // Reads up to n bytes; returns how many were read. Throws on a read or decompression error.
    size_t read(void* dst, size_t n)
    {
        size_t total = 0;
        auto p = static_cast<uint8_t*>(dst);
        while (total < n) {
            const size_t chunk = std::min<size_t>(n - total, size_t(1) << 30);
            size_t got;
            if (m_gz) {
                const int r = gzread(m_gzf, p + total, unsigned(chunk));
                if (r < 0)
                    throw DataError(m_name + ": the gzip data is corrupt (" + zlibMessage() + ")");
                got = size_t(r);
                if (got == 0) {
                    int code = 0;
                    gzerror(m_gzf, &code);
                    if (code != Z_OK && code != Z_STREAM_END)
                        throw DataError(m_name + ": the gzip data is corrupt (" + zlibMessage() + ")");
                }
            } else {
                got = std::fread(p + total, 1, chunk, m_f);
                if (got == 0 && std::ferror(m_f))
                    throw DataError(m_name + ": read error: " + std::strerror(errno));
            }
            if (got == 0)
                break;
            total += got;
        }
        return total;
    }
    const std::string& name() const { return m_name; }

private:
    // zlib's message without the path it puts in front (the message names the file already).
    std::string zlibMessage()
    {
        int code = 0;
        const char* msg = gzerror(m_gzf, &code);
        std::string m = msg && *msg ? msg : "zlib error";
        if (m.compare(0, m_path.size() + 2, m_path + ": ") == 0)
            m.erase(0, m_path.size() + 2);
        return m;
    }

    std::string m_path, m_name;
    bool m_gz = false;
    gzFile m_gzf = nullptr;
    FILE* m_f = nullptr;
};
} // namespace

uint64_t idxSizeLimit()
{
    if (g_limitOverride)
        return g_limitOverride;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0)
        return uint64_t(pages) * uint64_t(pageSize) / 2;
    return uint64_t(8) << 30;
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
        if (v == 0)
            throw DataError(name + ": dimension " + std::to_string(d + 1) + " is zero");
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
