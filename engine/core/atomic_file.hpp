// Writes a file atomically: the bytes go to a temporary file in the same folder, which is flushed
// to disk and renamed over the target. A failure (no permission, full disk) throws IoError and
// leaves neither a half-written target nor the temporary file behind. A symbolic link's target is
// what gets replaced (the link stays); a device, FIFO or socket (/dev/null, a named pipe) is written
// through as a stream instead of being replaced, and /dev/stdout, /dev/stderr, /dev/fd/N and
// /proc/self/fd/N through the process's own descriptor (where its output stands).
#pragma once

#include <iosfwd>
#include <string>

namespace tb {

void writeFileAtomically(const std::string& path, const std::string& bytes);
// Why writeFileAtomically(path) cannot succeed now (a folder given for the file, a folder that does not
// exist or cannot be written), or empty: checked before long work whose result ends in `path`, so
// that the work is not lost. Space is not checked (the write finds out, and says so).
std::string unwritableReason(const std::string& path);
std::string readWholeFile(const std::string& path); // throws IoError
// Appends what `in` holds from where it stands to its end, block by block (a text after its first
// block, a file grown since its size was read); `in.bad()` says whether a read failed.
void readToEnd(std::istream& in, std::string& bytes);
// "runs/a" for "runs/a/" and "runs/a//"; "/" stays.
std::string withoutTrailingSlashes(std::string path);
// The descriptor a path names in this process (/dev/stdout 1, /dev/stderr 2, /dev/fd/N and
// /proc/self/fd/N: N), which writeFileAtomically writes through; -1 for any other path.
int ownDescriptor(const std::string& path);

} // namespace tb
