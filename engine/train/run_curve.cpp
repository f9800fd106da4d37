#include "train/run_curve.hpp"

#include "core/json_text.hpp"
#include "train/checkpoint.hpp"

#include <algorithm>
#include <exception>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

// The largest step among a curve's points, of those that are whole numbers (0 when there is none):
// the steps per epoch of a run that ended at an epoch's end, whose record does not keep them.
int largestStep(const Json& curve)
{
    int most = 0;
    const Json* points = curve.is_object() ? jsonMember(curve, "points") : nullptr;
    if (points && points->is_array())
        for (const Json& p : *points)
            if (p.is_array() && p.size() > 1 && p[1].is_number_integer())
                most = int(std::clamp<int64_t>(p[1].get<int64_t>(), int64_t(most), int64_t(1) << 30));
    return most;
}
} // namespace

RunBatchCurve readRunBatchCurve(const RunSummary& run)
{
    RunBatchCurve out;
    if (!run.holds("checkpoint.tbw")) {
        out.missing = RunBatchCurve::Missing::NoCheckpoint;
        return out;
    }
    const std::string path = run.path + "/checkpoint.tbw";
    try {
        const Checkpoint c = readCheckpoint(path);
        const Json* state = jsonMember(c.callbacks, "batch_curve");
        if (!state) {
            out.missing = RunBatchCurve::Missing::OlderCheckpoint;
            return out;
        }
        // The steps of an epoch: the record's, for a run that stopped within one; else those of the
        // curve's last epoch, which it ends (BatchCurve::fromJson checks that it ends where the
        // checkpoint stands).
        const int steps = std::max(c.position.step > 0 ? run.stepsPerEpoch : 0, largestStep(*state));
        out.points = BatchCurve::fromJson(*state, c.position, c.config.epochs, steps, path).points();
    } catch (const std::exception& e) {
        out.points.clear();
        out.missing = RunBatchCurve::Missing::Unreadable;
        out.error = e.what();
    }
    return out;
}

} // namespace tb
