// Runs the same-seed accelerator comparison on its own thread and reports each device's row.
#pragma once

#include "common/value_types.hpp"
#include "run/worker_thread.hpp"
#include "train/compare.hpp"

namespace tbui {

struct CompareRequest {
    DatasetPtr data;
    tb::ModelSpec spec;
    tb::CompareConfig config;
};

class CompareWorker : public StoppableWorker {
    Q_OBJECT
public:
    explicit CompareWorker(CompareRequest request, QObject* parent = nullptr);
    void run() override;

signals:
    void deviceStarted(int row, int rows, tb::CompareRow pending);
    void batchFinished(int row, tb::BatchProgress progress);
    void deviceFinished(int row, tb::CompareRow result);
    void finished(bool stopped, QString error);

private:
    friend class CompareSignals;
    CompareRequest m_request;
};

} // namespace tbui

Q_DECLARE_METATYPE(tb::CompareRow)
