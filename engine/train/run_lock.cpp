#include "train/run_lock.hpp"

#include "core/errors.hpp"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

namespace tb {

namespace {
std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return {};
    return name;
}

std::string bootId()
{
    std::ifstream f("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(f, id);
    return id;
}

// The whole file, written: what RunLock takes and runLockHeld asks about.
struct flock wholeFile()
{
    struct flock range {};
    range.l_type = F_WRLCK;
    range.l_whence = SEEK_SET;
    range.l_start = 0;
    range.l_len = 0; // to the end, however long
    return range;
}
// "… is being trained by …" for the lock file open as `fd`, which another holds: the holder as it
// wrote itself ("<pid> <host>", RunLock below; empty if it has not yet).
std::string trainedByMessage(const std::string& folder, int fd)
{
    char text[300] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string holder = n > 0 ? std::string(text, size_t(n)) : std::string();
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
        holder.pop_back();
    const auto space = holder.find(' ');
    const std::string pid = holder.substr(0, space);
    const std::string host = space == std::string::npos ? std::string() : holder.substr(space + 1);
    std::string who = "another process";
    if (pid == std::to_string(::getpid()) && host == hostName())
        who = "this process already";
    else if (!pid.empty())
        who = "process " + pid + (host.empty() ? "" : " on " + host);
    return folder + " is being trained by " + who + "; wait for it to end, or stop it first";
}
} // namespace

ProcessIdentity thisProcess()
{
    return {int64_t(::getpid()), hostName(), bootId()};
}

bool processGone(const ProcessIdentity& p, const std::string& folder)
{
    if (p.host.empty() || p.host != hostName() || p.pid <= 0 || p.pid > INT_MAX)
        return false;
    if (!p.bootId.empty()) {
        const std::string now = bootId();
        if (!now.empty() && now != p.bootId)
            return true; // the host has booted since: every process of then is gone
    }
    if (const std::optional<bool> held = runLockHeld(folder))
        return !*held;
    return ::kill(pid_t(p.pid), 0) != 0 && errno == ESRCH;
}

namespace {
// Whether a process holds the lock of `folder`, asked without taking it (nullopt: no run.lock, or the
// system cannot say); when held and `message` is given, RunLock's message naming the holder.
std::optional<bool> askLock(const std::string& folder, std::string* message)
{
    const std::string path = folder + "/" + RunLock::fileName();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    struct flock range = wholeFile();
    const bool asked = ::fcntl(fd, F_OFD_GETLK, &range) == 0;
    const bool held = asked && range.l_type != F_UNLCK;
    if (held && message)
        *message = trainedByMessage(folder, fd);
    ::close(fd);
    if (!asked)
        return std::nullopt;
    return held;
}
} // namespace

std::optional<bool> runLockHeld(const std::string& folder)
{
    return askLock(folder, nullptr);
}

void refuseIfTrained(const std::string& folder)
{
    std::string message;
    if (askLock(folder, &message).value_or(false))
        throw IoError(message);
}

RunLock::RunLock(const std::string& folder)
{
    const std::string path = folder + "/" + fileName();
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw IoError("cannot lock the run folder " + folder + ": cannot open " + path + ": " + std::strerror(errno));
    struct flock range = wholeFile();
    if (::fcntl(m_fd, F_OFD_SETLK, &range) != 0) {
        const int err = errno == EACCES ? EAGAIN : errno; // either, when another holds it
        const std::string message = err == EAGAIN ? trainedByMessage(folder, m_fd)
                                                  : "cannot lock the run folder " + folder + ": " + std::strerror(err);
        ::close(m_fd);
        m_fd = -1;
        throw IoError(message);
    }
    // Who holds it, for the message above. The lock is what counts: on a full disk, where this cannot
    // be written, it holds all the same and the message says "another process".
    const std::string self = std::to_string(::getpid()) + " " + hostName() + "\n";
    [[maybe_unused]] const bool named =
        ::ftruncate(m_fd, 0) == 0 && ::pwrite(m_fd, self.data(), self.size(), 0) == ssize_t(self.size());
}

RunLock::~RunLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the lock
}

} // namespace tb
