// The per-batch curve of a past run, read from its run folder's checkpoint for the report and the
// window's Runs page: the run's record (run.json) keeps the epochs only; the checkpoint keeps the
// batches up to its position (train/batch_curve.hpp). A run without one still shows its epochs, and
// the reader is told why there is no per-batch line.
#pragma once

#include "train/batch_curve.hpp"
#include "train/run_history.hpp"

#include <string>
#include <vector>

namespace tb {

struct RunBatchCurve {
    // Why there are no points: no checkpoint.tbw in the folder (a run killed before its first one, or
    // removed), one written before checkpoints kept the curve, one that cannot be read (damaged, of
    // a later version: `error` says why).
    enum class Missing { None, NoCheckpoint, OlderCheckpoint, Unreadable };
    std::vector<BatchPoint> points;
    Missing missing = Missing::None;
    std::string error; // Unreadable: the checkpoint's or the curve's error, naming the file
};

// Reads `run`'s checkpoint.tbw once (whole: its checksum covers the weights too). Never throws.
// `runs list` does not call it: it reads no checkpoint.
RunBatchCurve readRunBatchCurve(const RunSummary& run);

} // namespace tb
