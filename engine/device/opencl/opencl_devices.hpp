// Finds the OpenCL devices of this machine for `devices`, the window and makeBackend. Builds with or
// without OpenCL: without it the list is empty and the reason says how to get it.
#pragma once

#include "device/device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tb {

// Every platform's devices in order (the K of "opencl:K"). Never throws: no ICD loader, no platform
// or a failing driver leave the list empty and say why in `reason`.
std::vector<OpenClDeviceInfo> listOpenClDevices(std::string& reason);

// TRAINBENCH_OPENCL_MEMORY_LIMIT ("64M", "2G", "1048576"): the device memory the backend may use,
// to simulate a small device; 0 when unset. Throws ConfigError for a value that is not a size.
int64_t openClMemoryLimit();

} // namespace tb
