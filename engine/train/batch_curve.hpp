// The per-batch curve of a run: each batch's progress as the observers heard it (the window's
// per-batch charts, `train --json`'s "batch" lines), kept in the checkpoint under "batch_curve" so that
// a resumed run shows the batches trained before its last checkpoint, as a run never interrupted
// does. A long run's curve is thinned to at most kMaxPoints points (a point is then the mean of
// consecutive batches), so a checkpoint does not grow with the run.
#pragma once

#include "train/callback.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

// One point of the curve: one batch's progress, or the mean of `batches` consecutive ones (their own
// loss and accuracy; the rest is the last one's), placed at the last of them.
struct BatchPoint {
    BatchProgress progress;
    int64_t batches = 1;
};

class BatchCurve {
public:
    // 8192 points of about 130 bytes of JSON each: at most about 1 MB in a checkpoint. A run of 100
    // epochs of 469 batches (MNIST in batches of 128) keeps a point every 8 batches (5,863 points);
    // the window's live chart, throttled to a point every 50 ms, draws about as many.
    static constexpr int kMaxPoints = 8192;

    // The batch the run just finished. When the curve is full, neighbouring points are merged in pairs
    // and each point covers twice as many batches from then on: the same points whether the run was
    // interrupted or not.
    void add(const BatchProgress& p);
    const std::vector<BatchPoint>& points() const { return m_points; }
    int64_t batchesPerPoint() const { return m_batchesPerPoint; }

    // The checkpoint's "batch_curve": {"version": 1, "batches_per_point": N, "points": [[epoch, step,
    // batches, loss, accuracy, batch_loss, batch_accuracy, learning_rate, seconds, samples_per_sec],
    // ...]} (docs/formats.md).
    nlohmann::ordered_json toJson() const;
    // Reads it back for a run of `epochs` epochs of `steps` steps that stands at `at`: its last point
    // must be at that position. Throws IoError ("PATH: its per-batch curve cannot be read (WHY)").
    static BatchCurve fromJson(const nlohmann::ordered_json& state, const RunPosition& at, int epochs, int steps,
                               const std::string& path);

private:
    std::vector<BatchPoint> m_points;
    int64_t m_batchesPerPoint = 1; // a power of two; every point but the last covers as many
};

// The per-batch line that the window's live charts, the Runs page and the report draw: each batch's
// own loss and accuracy smoothed by an exponential moving average over about ten batches, fewer in a
// short epoch (a twentieth of it), so that the line never lags the epochs' points by much of an
// epoch; a point at x = epoch - 1 + step / steps (the end of epoch 2 at 2, where its epoch point is).
// The live charts add each batch as it comes; smoothedBatchLine a whole curve's.
class BatchSmoother {
public:
    struct Point {
        double x, loss, accuracy;
    };
    Point add(const BatchProgress& p); // the line's point after `p`; the first starts the average
private:
    double m_loss = 0, m_accuracy = 0;
    bool m_started = false;
};
struct BatchLine {
    std::vector<double> x, loss, accuracy;
};
BatchLine smoothedBatchLine(const std::vector<BatchPoint>& points);

// Keeps the run's BatchCurve and saves it in every checkpoint. A checkpoint without it (an earlier
// version's) resumes with an empty curve, which starts at the resumed step; so does one whose curve is
// damaged, and note() says why (the resume goes on: the curve is not needed to continue the run).
class BatchCurveCallback : public Callback {
public:
    std::string name() const override { return "batch_curve"; }
    void batchFinished(const BatchProgress& p) override { m_curve.add(p); }
    nlohmann::ordered_json saveState() const override { return m_curve.toJson(); }
    void restoreState(Trainer& run, const nlohmann::ordered_json& state, const std::string& path) override;

    const BatchCurve& curve() const { return m_curve; }
    const std::string& note() const { return m_note; }

private:
    BatchCurve m_curve;
    std::string m_note;
};

} // namespace tb
