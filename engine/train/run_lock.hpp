// Who trains a run: the advisory lock a training process holds on its run folder (run.lock) for as
// long as it trains, so that a second process (or window) cannot resume the same run and write the
// same checkpoint; and the identity of the process (id, host, boot) that run.json records while the
// run is under way, so that readers can tell a run whose process is gone (killed, crashed, a full
// disk, a power cut) from one still training.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tb {

// A process as run.json records it: {"pid", "host", "boot_id"}.
struct ProcessIdentity {
    int64_t pid = 0;
    std::string host;   // gethostname
    std::string bootId; // /proc/sys/kernel/random/boot_id; empty where the system has none
};

ProcessIdentity thisProcess();

// Whether the process that trained the run in `folder` is known to be gone: it ran on this host (the
// same name) and either the host has booted since, or no process holds the folder's lock (so a
// process that now has its id, reused, does not count), or, where the lock cannot be asked (no
// run.lock), no process has its id now. A process of another host, or one recorded without a host,
// is not known to be gone.
bool processGone(const ProcessIdentity& p, const std::string& folder);

// Whether a process (this one included) holds the lock of the run folder `folder` now, asked
// without taking it; nullopt where the folder has no run.lock or the system cannot say.
std::optional<bool> runLockHeld(const std::string& folder);
// Throws RunLock's IoError ("… is being trained by process N on HOST …") when a process holds the
// lock of `folder`, asked without taking it or writing anything (a folder this user cannot write).
void refuseIfTrained(const std::string& folder);

// The lock of the run folder `folder`: an open-file-description lock (fcntl F_OFD_SETLK, as flock:
// one per open file, so a second open in the same process conflicts too) on `folder`/run.lock, which
// then names this process ("<pid> <host>"). The kernel releases it when the process ends, however it
// ends; runLockHeld asks about it without taking it.
class RunLock {
public:
    // Throws IoError when another process (or another session of this one) holds it, naming that
    // process, or when the lock file cannot be created.
    explicit RunLock(const std::string& folder);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    static const char* fileName() { return "run.lock"; }

private:
    int m_fd = -1;
};

} // namespace tb
