#include "train/run_folder.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "train/run_history.hpp"
#include "train/run_lock.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sys/stat.h>

namespace tb {

namespace {
// Keeps a name usable as a folder name anywhere: letters, digits, '-', '_', '.', '@'.
std::string folderSafe(const std::string& s)
{
    std::string out;
    for (char c : s)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '@') ? c : '-';
    return out.empty() ? "run" : out;
}
} // namespace

std::string defaultRunsDir(const char* xdgDataHome, const char* home)
{
    if (xdgDataHome && *xdgDataHome == '/')
        return std::string(xdgDataHome) + "/trainbench/runs";
    return std::string(home && *home ? home : "/tmp") + "/.local/share/trainbench/runs";
}

RunFolder RunFolder::create(const std::string& runsDir, const std::string& name)
{
    std::error_code ec;
    std::filesystem::create_directories(runsDir, ec);
    if (ec)
        throw IoError("cannot create the runs folder " + runsDir + ": " + ec.message());
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    const std::string base = runsDir + "/" + stamp + "-" + folderSafe(name);
    for (int n = 1; n < 1000; ++n) {
        const std::string path = n == 1 ? base : base + "-" + std::to_string(n);
        if (::mkdir(path.c_str(), 0755) == 0)
            return RunFolder{path};
        if (errno != EEXIST)
            throw IoError("cannot create the run folder " + path + ": " + std::strerror(errno));
    }
    throw IoError("cannot create a run folder in " + runsDir + ": too many runs started this second");
}

RunFolder RunFolder::open(const std::string& path)
{
    const std::string p = withoutTrailingSlashes(path);
    RunFolder f{p};
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0)
        throw IoError(path + " is not a run folder (no such folder)");
    if (!S_ISDIR(st.st_mode)) // a weights file or a checkpoint given for its folder
        throw IoError(path + " is a file, not a run folder: a run goes on from the folder it wrote in the runs "
                             "folder, which holds its checkpoint.tbw and run.json");
    // The rule of `runs list` and the Runs page (RunSummary::resumeBlock). A complete run with its
    // checkpoint is refused by its callers, which say where its weights are. A damaged record does not
    // stop a checkpoint that is there: the checkpoint holds the run's settings, and the resume writes
    // the record anew.
    const RunSummary run = readRun(p);
    const RunSummary::ResumeBlock block = run.resumeBlock();
    if (block == RunSummary::ResumeBlock::Diverged || !run.holds("checkpoint.tbw")) {
        // A run another process has just started has no checkpoint yet: the lock's message says who
        // trains it, as it does once there is one.
        refuseIfTrained(p);
        if (block == RunSummary::ResumeBlock::Diverged)
            throw IoError(run.resumeRefusal());
        if (block == RunSummary::ResumeBlock::Finished) // its checkpoint gone: still complete, as its callers say
            throw ConfigError(run.resumeRefusal());
        throw IoError(path + " holds no checkpoint.tbw to resume from");
    }
    return f;
}

void RunFolder::takeLock()
{
    if (!lock)
        lock = std::make_shared<const RunLock>(path);
}

} // namespace tb
