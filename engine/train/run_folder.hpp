// A run's own folder: where its checkpoints, its best and final weights and its record (run.json)
// live, so that it can be resumed and remembered. Run folders are made in a runs folder: the XDG
// data directory's trainbench/runs by default, or one the user names (--runs-dir).
#pragma once

#include <memory>
#include <string>

namespace tb {

class RunLock;

// $XDG_DATA_HOME/trainbench/runs, else ~/.local/share/trainbench/runs, from those two variables'
// values (null or empty when unset; the front ends read them: app/environment).
std::string defaultRunsDir(const char* xdgDataHome, const char* home);

struct RunFolder {
    std::string path;
    // Set while this process trains the run (train/run_lock.hpp): its copies share the lock, which is
    // released with the last of them. A session takes it when it starts writing into the folder.
    std::shared_ptr<const RunLock> lock = nullptr;

    std::string checkpoint() const { return path + "/checkpoint.tbw"; }  // the latest position
    std::string best() const { return path + "/best.tbw"; }              // early stopping's best epoch
    std::string weights() const { return path + "/weights.tbw"; }        // the final weights
    std::string record() const { return path + "/run.json"; }            // configuration, status, history
    std::string evaluation() const { return path + "/evaluation.json"; } // the final test evaluation

    // Takes the folder's lock unless this copy holds it already. Throws IoError naming the process
    // that trains the run, when another does.
    void takeLock();

    // A new, empty folder "<runsDir>/<YYYYmmdd-HHMMSS>-<name>" (with "-2", "-3"... if taken); the runs
    // folder is created when missing. Throws IoError naming what cannot be created.
    static RunFolder create(const std::string& runsDir, const std::string& name);
    // An existing run folder with a checkpoint. Throws IoError when it is not one.
    static RunFolder open(const std::string& path);
};

} // namespace tb
