#include "compare/compare_worker.hpp"

#include "common/engine_text.hpp"
#include "common/text.hpp"
#include "core/errors.hpp"

namespace tbui {

class CompareSignals : public tb::CompareObserver {
public:
    explicit CompareSignals(CompareWorker& w) : m_worker(w) {}
    void deviceStarted(int row, int rows, const tb::CompareRow& r) override
    {
        emit m_worker.deviceStarted(row, rows, r);
    }
    void batchFinished(int row, const tb::BatchProgress& p) override
    {
        if (m_worker.progressDue(p.step == p.steps))
            emit m_worker.batchFinished(row, p);
    }
    void deviceFinished(int row, const tb::CompareRow& r) override { emit m_worker.deviceFinished(row, r); }

private:
    CompareWorker& m_worker;
};

CompareWorker::CompareWorker(CompareRequest request, QObject* parent)
    : StoppableWorker(parent), m_request(std::move(request))
{
}

void CompareWorker::run()
{
    QString error;
    try {
        if (!m_request.data)
            throw tb::ConfigError(ss(tr("No dataset is loaded.")));
        CompareSignals observer(*this);
        tb::runComparison(m_request.spec, *m_request.data, m_request.config, &observer, stopFlag());
    } catch (const std::exception& e) {
        error = EngineText::of(e);
    }
    emit finished(stopRequested(), error);
}

} // namespace tbui
