#include "core/atomic_file.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace tb {

namespace {
std::string folderOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

// Where the bytes for `path` go. A symbolic link's target, so that the link stays a link (a target
// that does not exist yet is made, as a shell's redirection would). Something that is not a regular
// file (a device such as /dev/null or /dev/full, a FIFO, a socket) is written through as a stream:
// renaming a file over it would destroy it. So is one of this process's descriptors (ownDescriptor).
struct Destination {
    std::string path;
    bool stream = false;
    int fd = -1;         // ownDescriptor
    std::string problem; // why it cannot be written at all (a link that cannot be followed)
};

Destination destinationOf(const std::string& path)
{
    Destination d{path, false, ownDescriptor(path), {}};
    if (d.fd >= 0) {
        d.stream = true;
        return d;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* real = ::realpath(path.c_str(), nullptr)) {
            d.path = real;
            std::free(real);
        } else {
            const int err = errno;
            std::vector<char> target(4096, '\0');
            const ssize_t len = ::readlink(path.c_str(), target.data(), target.size() - 1);
            const std::string to(target.data(), size_t(std::max<ssize_t>(len, 0)));
            const std::string made = to.empty() || to[0] == '/' ? to : folderOf(path) + "/" + to;
            struct stat dir {};
            if (err == ENOENT && !made.empty() && ::lstat(made.c_str(), &st) != 0 &&
                ::stat(folderOf(made).c_str(), &dir) == 0 && S_ISDIR(dir.st_mode)) {
                d.path = made; // a file to make, in a folder that exists
                return d;
            }
            d.problem = "it is a symbolic link to " + (to.empty() ? std::string("nothing") : to) +
                        ", which cannot be followed (" + std::strerror(err) + ")";
            return d;
        }
    }
    if (::stat(d.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        d.stream = true;
    return d;
}

void writeAll(int fd, const std::string& bytes, const std::function<void(int)>& fail)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fail(errno);
        }
        done += size_t(w);
    }
}

// A device, FIFO or socket, or one of this process's descriptors: its bytes in order, no temporary file.
void writeThrough(const Destination& d, const std::string& bytes)
{
    if (d.fd >= 0) { // after what stdio holds for it, where it stands
        std::fflush(nullptr);
        writeAll(d.fd, bytes, [&](int err) { throw IoError("cannot write " + d.path + ": " + std::strerror(err)); });
        return;
    }
    const int fd = ::open(d.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        throw IoError("cannot write " + d.path + ": " + std::strerror(errno));
    writeAll(fd, bytes, [&](int err) {
        ::close(fd);
        throw IoError("cannot write " + d.path + ": " + std::strerror(err));
    });
    if (::close(fd) != 0)
        throw IoError("cannot write " + d.path + ": " + std::strerror(errno));
}

// Why `d` (the destination of `path`) cannot be written now, or empty (unwritableReason).
std::string reasonAgainst(const std::string& path, const Destination& d)
{
    if (path.empty())
        return "no file name was given";
    struct stat st {};
    if (path.back() == '/' || (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
        return "it is a folder; give the name of a file in it";
    if (!d.problem.empty())
        return d.problem;
    if (d.fd >= 0)
        return ::fcntl(d.fd, F_GETFL) >= 0 ? std::string() : std::strerror(errno);
    if (d.stream)
        return ::access(d.path.c_str(), W_OK) == 0 ? std::string() : std::strerror(errno);
    const std::string dir = folderOf(d.path);
    if (::stat(dir.c_str(), &st) != 0)
        return errno == ENOENT ? "the folder " + dir + " does not exist" : std::strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return dir + " is not a folder";
    if (::access(dir.c_str(), W_OK) != 0)
        return std::strerror(errno);
    if (::lstat(d.path.c_str(), &st) != 0 && errno == ENAMETOOLONG) // its temporary file's name is cut to fit
        return std::strerror(errno);
    return {};
}
} // namespace

// Opening these again would start at offset 0 of a file the shell redirected to (overwriting what is
// there) instead of writing where the process's own output stands.
int ownDescriptor(const std::string& path)
{
    if (path == "/dev/stdout")
        return 1;
    if (path == "/dev/stderr")
        return 2;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::string p = prefix;
        if (path.size() > p.size() && path.compare(0, p.size(), p) == 0 &&
            path.find_first_not_of("0123456789", p.size()) == std::string::npos && path.size() - p.size() < 9)
            return std::stoi(path.substr(p.size()));
    }
    return -1;
}

namespace {
// The temporary file a write starts with, beside the file it becomes: its name and ".tmp-XXXXXX"
// (mkstemp's template). A name near the file system's limit (255 bytes) is cut to leave room for the
// suffix, so that every name the folder can hold can be written.
std::vector<char> temporaryTemplate(const std::string& path)
{
    constexpr size_t kNameMax = 255, kSuffix = sizeof(".tmp-XXXXXX") - 1;
    const size_t slash = path.rfind('/');
    const size_t base = slash == std::string::npos ? 0 : slash + 1;
    size_t end = path.size();
    if (end - base + kSuffix > kNameMax) { // cut at a character's start, not inside its UTF-8 bytes
        end = base + kNameMax - kSuffix;
        while (end > base && (static_cast<unsigned char>(path[end]) & 0xc0) == 0x80)
            --end;
    }
    const std::string kept = path.substr(0, end);
    const std::string tmpl = kept + ".tmp-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    return name;
}
} // namespace

std::string unwritableReason(const std::string& path)
{
    const Destination d = destinationOf(path);
    if (std::string why = reasonAgainst(path, d); !why.empty() || d.stream || d.fd >= 0)
        return why;
    // The folder's permissions do not tell it all: root may write any folder's but not in /proc, nor
    // on a read-only mount. The temporary file a write starts with, made and removed, does.
    std::vector<char> name = temporaryTemplate(d.path);
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        return std::strerror(errno);
    ::close(fd);
    ::unlink(name.data());
    return {};
}

void writeFileAtomically(const std::string& path, const std::string& bytes)
{
    const Destination d = destinationOf(path);
    if (const std::string why = reasonAgainst(path, d); !why.empty())
        throw IoError("cannot write " + path + ": " + why);
    if (d.stream) {
        writeThrough(d, bytes);
        return;
    }
    const std::string dir = folderOf(d.path);
    std::vector<char> name = temporaryTemplate(d.path);
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw IoError("cannot write " + path + ": " + std::strerror(errno));
    auto failWith = [&](int err) {
        ::close(fd);
        ::unlink(name.data());
        throw IoError("cannot write " + path + ": " + std::strerror(err) + "; nothing was written");
    };
    writeAll(fd, bytes, failWith);
    if (::fsync(fd) != 0)
        failWith(errno);
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(name.data());
        throw IoError("cannot write " + path + ": " + std::strerror(err) + "; nothing was written");
    }
    if (::rename(name.data(), d.path.c_str()) != 0) {
        const int err = errno;
        ::unlink(name.data());
        throw IoError("cannot write " + path + ": " + std::strerror(err) + "; nothing was written");
    }
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

std::string readWholeFile(const std::string& path)
{
    // Checked before reading: a folder reads as nothing, a device or FIFO may never end, and a file
    // larger than the memory could not be held.
    struct stat st {};
    const bool known = ::stat(path.c_str(), &st) == 0;
    if (known) {
        if (S_ISDIR(st.st_mode))
            throw IoError("cannot read " + path + ": it is a folder, not a file");
        if (!S_ISREG(st.st_mode))
            throw IoError("cannot read " + path + ": not a regular file");
        if (uint64_t(st.st_size) > physicalMemoryBytes() / 2)
            throw IoError("cannot read " + path + ": " + humanBytes(uint64_t(st.st_size)) + " is more than fits in " +
                          memoryLimitText());
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IoError("cannot open " + path + ": " + std::strerror(errno));
    // Into its place at once (a stream's copy held a weights file of tens of MB twice), then what
    // the file grew by since, or all of it where its size is unknown.
    std::string bytes(known ? size_t(st.st_size) : 0, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(size_t(in.gcount()));
    if (in)
        readToEnd(in, bytes);
    if (in.bad())
        throw IoError("cannot read " + path);
    return bytes;
}

void readToEnd(std::istream& in, std::string& bytes)
{
    char block[64 * 1024];
    while (in.read(block, sizeof block) || in.gcount() > 0)
        bytes.append(block, size_t(in.gcount()));
}

std::string withoutTrailingSlashes(std::string path)
{
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

} // namespace tb
