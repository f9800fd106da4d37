#include "train/backend.hpp"

#include "core/errors.hpp"
#include "train/cpu_backend.hpp"
#include "train/trainer.hpp"

namespace tb {

std::unique_ptr<Backend> makeBackend(Network& net, const Dataset& data, const TrainConfig& config)
{
    switch (config.device.kind) {
    case DeviceKind::Cpu:
        return std::make_unique<CpuBackend>(net, data, config);
    case DeviceKind::Cuda:
        break;
    }
    const std::string why = deviceUnavailableReason(config.device, detectSystem());
    throw ConfigError(config.device.id() + " cannot train: " + (why.empty() ? "this build has no backend for it" : why));
}

} // namespace tb
