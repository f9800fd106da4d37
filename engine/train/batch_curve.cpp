#include "train/batch_curve.hpp"

#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "io/json_number.hpp"
#include "train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

// Version 1: the points as arrays of kCurveFields numbers, in the order toJson writes them.
constexpr int kCurveVersion = 1;
constexpr size_t kCurveFields = 10;
constexpr int64_t kMostBatchesPerPoint = int64_t(1) << 52; // whole in a double

// The batches of `a` and then of `b` as one point.
BatchPoint mergedPoints(const BatchPoint& a, const BatchPoint& b)
{
    BatchPoint m = b;
    m.batches = a.batches + b.batches;
    const double wa = double(a.batches), wb = double(b.batches), n = double(m.batches);
    m.progress.batchLoss = (a.progress.batchLoss * wa + b.progress.batchLoss * wb) / n;
    m.progress.batchAccuracy = (a.progress.batchAccuracy * wa + b.progress.batchAccuracy * wb) / n;
    return m;
}

// What is wrong with a curve read back; fromJson words it as an IoError naming the file.
struct CurveError {
    std::string why;
};

int64_t curveWhole(const Json& v, const std::string& what, int64_t lo, int64_t hi)
{
    int64_t n = 0;
    try {
        n = jsonWhole<int64_t>(v, what);
    } catch (const DataError&) {
        throw CurveError{what + " is " + (v.is_number() ? jsonNumberText(v.get<double>()) : jsonTypeName(v)) +
                         ", not a whole number"};
    }
    if (n < lo || n > hi)
        throw CurveError{what + " is " + std::to_string(n) + ", not from " + std::to_string(lo) + " to " +
                         std::to_string(hi)};
    return n;
}

double curveNumber(const Json& v, const std::string& what)
{
    if (!v.is_number() || !std::isfinite(v.get<double>()))
        throw CurveError{what + " is " + jsonTypeName(v) + ", not a finite number"};
    return v.get<double>();
}

// The points of `s` and their batches per point, or CurveError saying what is wrong.
void parseCurve(const Json& s, const RunPosition& at, int epochs, int steps, std::vector<BatchPoint>& points,
                int64_t& perPoint)
{
    if (!s.is_object())
        throw CurveError{std::string("it is ") + jsonTypeName(s) + ", not an object"};
    const Json* version = jsonMember(s, "version");
    if (!version)
        throw CurveError{"it has no \"version\""};
    if (const int64_t v = curveWhole(*version, "its version", 0, std::numeric_limits<int64_t>::max());
        v != kCurveVersion)
        throw CurveError{"it is of version " + std::to_string(v) + ", which this Trainbench does not read"};
    const Json* per = jsonMember(s, "batches_per_point");
    if (!per)
        throw CurveError{"it has no \"batches_per_point\""};
    perPoint = curveWhole(*per, "\"batches_per_point\"", 1, kMostBatchesPerPoint);
    if ((perPoint & (perPoint - 1)) != 0)
        throw CurveError{"\"batches_per_point\" is " + std::to_string(perPoint) + ", not a power of two"};
    const Json* list = jsonMember(s, "points");
    if (!list || !list->is_array())
        throw CurveError{"its \"points\" is " + std::string(list ? jsonTypeName(*list) : "missing") + ", not an array"};
    if (list->size() > size_t(BatchCurve::kMaxPoints))
        throw CurveError{"it has " + std::to_string(list->size()) + " points, more than " +
                         std::to_string(BatchCurve::kMaxPoints)};
    points.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        const Json& p = (*list)[i];
        const std::string name = "point " + std::to_string(i + 1);
        if (!p.is_array() || p.size() != kCurveFields)
            throw CurveError{name + " is not an array of " + std::to_string(kCurveFields) + " numbers"};
        BatchPoint b;
        BatchProgress& g = b.progress;
        g.epochs = epochs;
        g.steps = steps;
        g.epoch = int(curveWhole(p[0], name + "'s epoch", 1, epochs));
        g.step = int(curveWhole(p[1], name + "'s step", 1, steps));
        b.batches = curveWhole(p[2], name + "'s batches", 1, perPoint);
        g.loss = curveNumber(p[3], name + "'s loss");
        g.accuracy = curveNumber(p[4], name + "'s accuracy");
        g.batchLoss = curveNumber(p[5], name + "'s batch loss");
        g.batchAccuracy = curveNumber(p[6], name + "'s batch accuracy");
        g.learningRate = curveNumber(p[7], name + "'s learning rate");
        g.epochElapsed = curveNumber(p[8], name + "'s seconds");
        g.samplesPerSec = curveNumber(p[9], name + "'s samples per second");
        if (!points.empty()) {
            const BatchProgress& before = points.back().progress;
            if (g.epoch < before.epoch || (g.epoch == before.epoch && g.step <= before.step))
                throw CurveError{name + " (epoch " + std::to_string(g.epoch) + ", step " + std::to_string(g.step) +
                                 ") does not come after the one before it"};
            if (points.back().batches != perPoint)
                throw CurveError{"point " + std::to_string(i) + " covers " + std::to_string(points.back().batches) +
                                 " batches, where every point but the last covers " + std::to_string(perPoint)};
        }
        points.push_back(b);
    }
    if (!points.empty()) {
        // The checkpoint's position: the last batch the curve holds.
        const int64_t epoch = at.step > 0 ? int64_t(at.epoch) + 1 : at.epoch;
        const int step = at.step > 0 ? at.step : steps;
        const BatchProgress& last = points.back().progress;
        if (epoch == 0 || last.epoch != epoch || last.step != step)
            throw CurveError{"it ends at epoch " + std::to_string(last.epoch) + ", step " + std::to_string(last.step) +
                             ", not where the checkpoint stands"};
    }
}
} // namespace

void BatchCurve::add(const BatchProgress& p)
{
    // Full: neighbours merged in pairs (every point is whole then), and twice the batches per point.
    const bool full = int(m_points.size()) >= kMaxPoints && m_points.back().batches >= m_batchesPerPoint;
    if (full && m_batchesPerPoint >= kMostBatchesPerPoint) { // no run trains so many: the last point takes the rest
        m_points.back() = mergedPoints(m_points.back(), BatchPoint{p, 1});
        return;
    }
    if (full) {
        std::vector<BatchPoint> half;
        half.reserve(m_points.size() / 2 + 1);
        for (size_t i = 0; i + 1 < m_points.size(); i += 2)
            half.push_back(mergedPoints(m_points[i], m_points[i + 1]));
        if (m_points.size() % 2)
            half.push_back(m_points.back());
        m_points = std::move(half);
        m_batchesPerPoint *= 2;
    }
    if (!m_points.empty() && m_points.back().batches < m_batchesPerPoint)
        m_points.back() = mergedPoints(m_points.back(), BatchPoint{p, 1});
    else
        m_points.push_back(BatchPoint{p, 1});
}

Json BatchCurve::toJson() const
{
    Json points = Json::array();
    for (const BatchPoint& b : m_points) {
        const BatchProgress& p = b.progress;
        // Shortest round-trip numbers (jsonText): read back to the bit.
        points.push_back(Json::array({p.epoch, p.step, b.batches, p.loss, p.accuracy, p.batchLoss, p.batchAccuracy,
                                      p.learningRate, p.epochElapsed, p.samplesPerSec}));
    }
    Json r;
    r["version"] = kCurveVersion;
    r["batches_per_point"] = m_batchesPerPoint;
    r["points"] = std::move(points);
    return r;
}

BatchCurve BatchCurve::fromJson(const Json& state, const RunPosition& at, int epochs, int steps,
                                const std::string& path)
{
    BatchCurve c;
    try {
        parseCurve(state, at, std::max(epochs, 1), std::max(steps, 1), c.m_points, c.m_batchesPerPoint);
    } catch (const CurveError& e) {
        throw IoError(path + ": its per-batch curve cannot be read (" + e.why + ")");
    }
    return c;
}

BatchSmoother::Point BatchSmoother::add(const BatchProgress& p)
{
    if (!m_started) {
        m_loss = p.batchLoss;
        m_accuracy = p.batchAccuracy;
        m_started = true;
    }
    const double keep = std::clamp(1.0 - 20.0 / std::max(1, p.steps), 0.0, 0.9); // of the points before
    m_loss = keep * m_loss + (1 - keep) * p.batchLoss;
    m_accuracy = keep * m_accuracy + (1 - keep) * p.batchAccuracy;
    return {(p.epoch - 1) + double(p.step) / std::max(1, p.steps), m_loss, m_accuracy};
}

BatchLine smoothedBatchLine(const std::vector<BatchPoint>& points)
{
    BatchLine line;
    line.x.reserve(points.size());
    line.loss.reserve(points.size());
    line.accuracy.reserve(points.size());
    BatchSmoother smoother;
    for (const BatchPoint& b : points) {
        const BatchSmoother::Point s = smoother.add(b.progress);
        line.x.push_back(s.x);
        line.loss.push_back(s.loss);
        line.accuracy.push_back(s.accuracy);
    }
    return line;
}

void BatchCurveCallback::restoreState(Trainer& run, const Json& state, const std::string& path)
{
    try {
        m_curve = BatchCurve::fromJson(state, run.position(), run.config().epochs, run.stepsPerEpoch(), path);
        m_note.clear();
    } catch (const IoError& e) {
        m_curve = BatchCurve();
        m_note = std::string(e.what()) + ": the curve starts at the resumed step";
    }
}

} // namespace tb
