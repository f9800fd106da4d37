#include "train/run_callbacks.hpp"

#include "core/errors.hpp"
#include "io/weights_file.hpp"
#include "train/checkpoint.hpp"
#include "train/trainer.hpp"

#include <filesystem>

namespace tb {

namespace {
using Json = nlohmann::ordered_json;

double monitored(Monitor m, const EvalResult& validation)
{
    return m == Monitor::ValLoss ? validation.loss : validation.accuracy;
}
} // namespace

LrScheduleCallback::LrScheduleCallback(const LrSchedule& schedule, double baseRate) : m_schedule(schedule)
{
    m_plateau.rate = baseRate;
}

double LrScheduleCallback::stepRate(double rate, const StepPosition& at) const
{
    return scheduledRate(m_schedule, rate, at.step, at.epoch, at.totalSteps, m_plateau);
}

void LrScheduleCallback::epochEnded(EpochEnd& e)
{
    e.record.rateLowered = updatePlateau(m_schedule, m_plateau, monitored(m_schedule.monitor, e.validation));
}

Json LrScheduleCallback::saveState() const
{
    if (m_schedule.kind != ScheduleKind::Plateau)
        return {}; // the other schedules are functions of the step alone
    return {{"best", m_plateau.best},
            {"has_best", m_plateau.hasBest},
            {"wait", m_plateau.wait},
            {"cooldown", m_plateau.cooldown},
            {"rate", m_plateau.rate}};
}

void LrScheduleCallback::restoreState(Trainer&, const Json& s, const std::string& path)
{
    if (m_schedule.kind != ScheduleKind::Plateau)
        return;
    m_plateau.best = checkpointField<double>(s, "best", path);
    m_plateau.hasBest = checkpointField<bool>(s, "has_best", path);
    m_plateau.wait = checkpointField<int>(s, "wait", path);
    m_plateau.cooldown = checkpointField<int>(s, "cooldown", path);
    m_plateau.rate = checkpointField<double>(s, "rate", path);
    if (!(m_plateau.rate > 0))
        throw IoError(path + ": the checkpoint's plateau rate is not positive; it is damaged");
}

void EarlyStoppingCallback::epochEnded(EpochEnd& e)
{
    e.record.best = updateEarlyStopping(m_es, m_state, e.record.epoch, monitored(m_es.monitor, e.validation));
    e.record.stopped = m_state.stoppedEpoch == e.record.epoch;
    e.stop = e.stop || e.record.stopped;
}

Json EarlyStoppingCallback::saveState() const
{
    return {{"best", m_state.best},
            {"has_best", m_state.hasBest},
            {"best_epoch", m_state.bestEpoch},
            {"wait", m_state.wait},
            {"stopped_epoch", m_state.stoppedEpoch}};
}

void EarlyStoppingCallback::restoreState(Trainer&, const Json& s, const std::string& path)
{
    m_state.best = checkpointField<double>(s, "best", path);
    m_state.hasBest = checkpointField<bool>(s, "has_best", path);
    m_state.bestEpoch = checkpointField<int>(s, "best_epoch", path);
    m_state.wait = checkpointField<int>(s, "wait", path);
    m_state.stoppedEpoch = checkpointField<int>(s, "stopped_epoch", path);
}

void BestWeightsCallback::epochEnded(EpochEnd& e)
{
    if (!e.record.best)
        return;
    m_epoch = e.record.epoch;
    m_run.syncToHost();
    m_params = m_run.network().params();
    m_state = m_run.network().state();
}

void BestWeightsCallback::epochFinished(const EpochRecord& r, const EvalResult&)
{
    // Here, not in epochEnded: the file's history holds the epoch it was the best of.
    if (const std::string file = m_file ? m_file() : std::string(); r.best && !file.empty())
        saveWeights(file, m_run.weightsFile());
}

void BestWeightsCallback::runCompleted(Trainer&)
{
    if (m_epoch > 0)
        m_run.putWeights(m_params, m_state);
}

Json BestWeightsCallback::saveState() const
{
    Json state = {{"epoch", m_epoch}};
    if (const std::string file = m_file ? m_file() : std::string(); !file.empty())
        state["file"] = std::filesystem::path(file).filename().string(); // beside the checkpoint
    return state;
}

void BestWeightsCallback::restoreState(Trainer&, const Json& s, const std::string& path)
{
    m_epoch = checkpointField<int>(s, "epoch", path);
    if (m_epoch <= 0)
        return;
    const std::string name = checkpointField<std::string>(s, "file", path);
    if (name.empty() || name != std::filesystem::path(name).filename().string())
        throw IoError(path + ": the checkpoint's best-weights file \"" + name + "\" is not a file name; it is damaged");
    const std::string file = (std::filesystem::path(path).parent_path() / name).string();
    const WeightsFile best = loadWeights(file);
    const Network& net = m_run.network();
    if (int64_t(best.params.size()) != net.paramCount() || int64_t(best.state.size()) != net.stateCount())
        throw ModelError(file + " holds weights of another model than the checkpoint");
    m_params = best.params;
    m_state = best.state;
}

} // namespace tb
