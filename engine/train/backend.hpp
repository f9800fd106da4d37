// makeBackend: the Backend (device/backend.hpp) a run's configuration asks for.
#pragma once

#include "device/backend.hpp"

#include <memory>

namespace tb {

struct TrainConfig;

// The backend for config.device (CPU threads and kernel level, or an accelerator), training `net` on
// `data`. Throws ConfigError when the device is missing, unusable or cannot hold the model and a batch
// (before anything large is allocated), ModelError for a layer the device cannot run. Never falls back
// to another device.
std::unique_ptr<Backend> makeBackend(Network& net, const Dataset& data, const TrainConfig& config);

} // namespace tb
