#include "train/session.hpp"

#include "io/weights_formats.hpp"
#include "train/progress_text.hpp"

namespace tb {

namespace {
const TrainConfig& validated(const TrainConfig& config)
{
    validateTrainConfig(config);
    return config;
}

DatasetOptions datasetOptions(const TrainConfig& c)
{
    DatasetOptions o;
    o.sizeMultiplier = c.sizeMultiplier;
    o.dropRemainderBatch = c.dropRemainder ? c.batchSize : 0;
    o.validationSplit = c.validationSplit;
    return o;
}
} // namespace

TrainingSession::TrainingSession(const ModelSpec& model, const Dataset& data, const TrainConfig& config)
    : m_data(withOptions(data, datasetOptions(validated(config)))),
      m_net(model, Shape::image(m_data.inputHeight(), m_data.inputWidth(), 1), m_data.numClasses)
{
    m_net.initialize(config.seed); // the same initial weights on every device
    m_trainer = std::make_unique<Trainer>(m_net, m_data, config);
}

TrainingSession::~TrainingSession() = default;

std::string TrainingSession::header() const { return runHeader(m_net, m_data, config(), m_trainer->backend()); }

TrainStatus TrainingSession::run(TrainObserver* observer, const std::atomic<bool>* cancel)
{
    return m_trainer->run(observer, cancel);
}

EvalResult TrainingSession::evaluateTest(bool keepPredictions) { return m_trainer->evaluate(0, keepPredictions); }

WeightsFile TrainingSession::weightsFile()
{
    return WeightsFile::fromTraining(m_net, *m_trainer, m_data.classNames, m_data.directory);
}

std::string TrainingSession::weightsSha256()
{
    m_trainer->syncToHost();
    return m_net.weightsSha256();
}

void TrainingSession::save(const std::string& path) { saveWeightsAs(path, weightsFile(), weightsFormatOfPath(path)); }

} // namespace tb
