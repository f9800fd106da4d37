// The start-up check of a data-parallel run: every rank must train the same model on the same data
// with the same settings, or the ranks' gradients would not add up to one process's. Each rank
// hashes each setting; the hashes are gathered and the first rank and setting that differ from rank
// 0's are named.
#pragma once

#include "data/dataset.hpp"
#include "kernels/isa.hpp"
#include "model/network.hpp"
#include "mpi/communicator.hpp"
#include "train/trainer.hpp"

namespace tb {

// Throws ConfigError ("rank 2's batch size differs from rank 0's ...") on every rank alike.
void requireSameRunOnEveryRank(Communicator& comm, const Network& net, const Dataset& data, const TrainConfig& config,
                               Isa isa);

// Before the first step: every rank at the same place of the run (epoch and step), with the same
// weights, BatchNorm statistics and optimizer step count (not the optimizer's moments); a rank that resumed a
// checkpoint beside one that starts anew, or two checkpoints of one run, are named. Throws ConfigError on every rank
// alike.
void requireSamePlaceOnEveryRank(Communicator& comm, const RunPosition& at, const Network& net, int64_t iterations);

} // namespace tb
