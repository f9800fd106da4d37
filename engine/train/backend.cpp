#include "train/backend.hpp"

#include "core/errors.hpp"
#include "train/cpu_backend.hpp"
#include "train/trainer.hpp"

#if TRAINBENCH_HAVE_OPENCL
#include "device/opencl/opencl_backend.hpp"
#endif

namespace tb {

std::unique_ptr<Backend> makeBackend(Network& net, const Dataset& data, const TrainConfig& config)
{
    if (config.communicator && config.device.kind != DeviceKind::Cpu)
        throw ConfigError("an MPI run trains on the CPU of each rank (--threads T), not on " + config.device.id());
    switch (config.device.kind) {
    case DeviceKind::Cpu:
        return std::make_unique<CpuBackend>(net, data, config);
    case DeviceKind::OpenCl:
#if TRAINBENCH_HAVE_OPENCL
        return std::make_unique<OpenClBackend>(net, data, config.device, config.optimizer, config.batchSize,
                                               config.kernelCacheDir);
#else
        break;
#endif
    case DeviceKind::Cuda:
        break;
    }
    const std::string why = deviceUnavailableReason(config.device, detectSystem());
    throw ConfigError(config.device.id() +
                      " cannot train: " + (why.empty() ? "this build has no backend for it" : why));
}

} // namespace tb
