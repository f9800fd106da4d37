// The environment variables Trainbench reads, in one place and only in the front ends (the CLI, the
// window, the benchmark; the tests use it too): the engine reads none, it is handed the values.
//
//   TRAINBENCH_ISA                  the CPU kernels' level ("baseline", "avx2", "avx512")
//   TRAINBENCH_BF16_KERNELS         the bf16 products: "amx" (AMX-BF16 tiles, the default where
//                                   they run) or "avx512bf16" (vdpbf16ps)
//   TRAINBENCH_OPENCL_MEMORY_LIMIT  device memory an OpenCL backend may use ("64M", "2G")
//   TRAINBENCH_OPENCL_PROFILE       time every OpenCL kernel (any value but "" and "0")
//   TRAINBENCH_OPENCL_BUILD_OPTIONS extra options for the OpenCL kernels' build
//   TRAINBENCH_MPI_TIMEOUT          seconds an MPI rank waits for the others (60)
//   OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK
//                                   set by mpirun or srun: this process is one rank of several
//   XDG_DATA_HOME, XDG_CACHE_HOME, HOME
//                                   where run folders and compiled kernels go
#pragma once

#include "mpi/communicator.hpp"

#include <functional>
#include <string>

namespace tb::env {

// A variable's value, or null when it is unset; std::getenv by default, a table in the tests.
using Lookup = std::function<const char*(const char*)>;

// Hands the engine its process-wide settings: the kernels' level (setDefaultIsa), the bf16
// products (setDefaultBf16Kernels) and the OpenCL settings (setOpenClSettings). Call once at
// start-up, before anything trains. Applies every valid setting, then throws ConfigError naming each
// variable whose value is not valid, "; " between them ("TRAINBENCH_ISA=avx512: this CPU has no
// AVX-512 (it supports baseline, avx2)").
void applyToEngine(const Lookup& lookup = std::getenv);

// How mpirun or srun started this process, and the MPI timeout; for processCommunicator. Throws
// ConfigError for a TRAINBENCH_MPI_TIMEOUT that is not a positive number of seconds.
ProcessLaunch processLaunch(const Lookup& lookup = std::getenv);

// defaultRunsDir and kernelCacheDir of this environment.
std::string runsDir(const Lookup& lookup = std::getenv);
std::string kernelCacheDir(const Lookup& lookup = std::getenv);

} // namespace tb::env
