// The callbacks every run may carry, made from its TrainConfig (Trainer attaches them): the
// learning-rate schedule, early stopping and the best epoch's weights.
#pragma once

#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "train/callback.hpp"

#include <functional>
#include <string>
#include <vector>

namespace tb {

// The rate of every step (config/lr_schedule.hpp); reduce-on-plateau keeps its state here and marks
// the epochs that lowered the rate. Its checkpoint key: "lr_schedule".
class LrScheduleCallback : public Callback {
public:
    explicit LrScheduleCallback(const LrSchedule& schedule, double baseRate);
    std::string name() const override { return "lr_schedule"; }
    double stepRate(double rate, const StepPosition& at) const override;
    void epochEnded(EpochEnd& e) override;
    nlohmann::ordered_json saveState() const override;
    void restoreState(Trainer&, const nlohmann::ordered_json& state, const std::string& path) override;

private:
    LrSchedule m_schedule;
    PlateauState m_plateau;
};

// Keras' EarlyStopping: marks the best epoch and ends the run once the wait reaches patience. Its
// checkpoint key: "early_stopping".
class EarlyStoppingCallback : public Callback {
public:
    explicit EarlyStoppingCallback(const EarlyStopping& es) : m_es(es) {}
    std::string name() const override { return "early_stopping"; }
    void epochEnded(EpochEnd& e) override;
    nlohmann::ordered_json saveState() const override;
    void restoreState(Trainer&, const nlohmann::ordered_json& state, const std::string& path) override;

private:
    EarlyStopping m_es;
    EarlyStoppingState m_state;
};

// restore_best_weights: keeps the weights of the epochs marked best (after early stopping, which
// marks them) and puts them back when the run completes. With a file it also writes them there
// (a weights file, atomically), and its state names the file: a resumed run reads it back from
// beside the checkpoint. Its checkpoint key: "best_weights".
class BestWeightsCallback : public Callback {
public:
    // `file` gives the path of the best weights' file ("" : memory only); it is asked at each best
    // epoch and checkpoint, since a session's run folder may come after the callback.
    using FilePath = std::function<std::string()>;
    BestWeightsCallback(Trainer& run, FilePath file = {}) : m_run(run), m_file(std::move(file)) {}
    std::string name() const override { return "best_weights"; }
    void epochEnded(EpochEnd& e) override;
    void epochFinished(const EpochRecord& r, const EvalResult& validation) override;
    void runCompleted(Trainer&) override;
    nlohmann::ordered_json saveState() const override;
    void restoreState(Trainer&, const nlohmann::ordered_json& state, const std::string& path) override;

private:
    Trainer& m_run;
    FilePath m_file;
    int m_epoch = 0; // 1-based; 0: none yet
    std::vector<float> m_params, m_state;
};

} // namespace tb
