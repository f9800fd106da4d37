#include "config/early_stopping.hpp"

#include <sstream>

namespace tb {

bool updateEarlyStopping(const EarlyStopping& es, EarlyStoppingState& s, int epoch, double monitored)
{
    if (!es.enabled)
        return false;
    ++s.wait;
    const bool better = !s.hasBest || (es.monitor == Monitor::ValLoss ? monitored + es.minDelta < s.best
                                                                      : monitored - es.minDelta > s.best);
    if (better) {
        s.best = monitored;
        s.hasBest = true;
        s.bestEpoch = epoch;
        s.wait = 0;
        return true;
    }
    if (s.wait >= es.patience && epoch > 1)
        s.stoppedEpoch = epoch;
    return false;
}

std::string describeEarlyStopping(const EarlyStopping& es)
{
    if (!es.enabled)
        return "off";
    std::ostringstream o;
    o << monitorName(es.monitor) << ", patience " << es.patience << ", min_delta " << es.minDelta
      << (es.restoreBestWeights ? ", restoring the best weights" : "");
    return o.str();
}

} // namespace tb
