#include "core/atomic_file.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
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
} // namespace

std::string unwritableReason(const std::string& path)
{
    if (path.empty())
        return "no file name was given";
    struct stat st {};
    if (path.back() == '/' || (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
        return "it is a folder; give the name of a file in it";
    const std::string dir = folderOf(path);
    if (::stat(dir.c_str(), &st) != 0)
        return errno == ENOENT ? "the folder " + dir + " does not exist" : std::strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return dir + " is not a folder";
    if (::access(dir.c_str(), W_OK) != 0)
        return std::strerror(errno);
    return {};
}

void writeFileAtomically(const std::string& path, const std::string& bytes)
{
    if (const std::string why = unwritableReason(path); !why.empty())
        throw IoError("cannot write " + path + ": " + why);
    const std::string dir = folderOf(path);
    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw IoError("cannot write " + path + ": " + std::strerror(errno));
    auto failWith = [&](int err) {
        ::close(fd);
        ::unlink(name.data());
        throw IoError("cannot write " + path + ": " + std::strerror(err) + "; nothing was written");
    };
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            failWith(errno);
        }
        done += size_t(w);
    }
    if (::fsync(fd) != 0)
        failWith(errno);
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(name.data());
        throw IoError("cannot write " + path + ": " + std::strerror(err) + "; nothing was written");
    }
    if (::rename(name.data(), path.c_str()) != 0) {
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
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw IoError("cannot read " + path + ": it is a folder, not a file");
        if (!S_ISREG(st.st_mode))
            throw IoError("cannot read " + path + ": not a regular file");
        if (uint64_t(st.st_size) > physicalMemoryBytes() / 2)
            throw IoError("cannot read " + path + ": " + humanBytes(uint64_t(st.st_size)) +
                          " is more than this machine can hold (" + humanBytes(physicalMemoryBytes()) + " of memory)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IoError("cannot open " + path + ": " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        throw IoError("cannot read " + path);
    return ss.str();
}

} // namespace tb
