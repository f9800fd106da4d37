#include "train/rank_check.hpp"

#include "config/early_stopping.hpp"
#include "config/lr_schedule.hpp"
#include "core/errors.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace tb {

namespace {
// FNV-1a over bytes: a mismatch detector, not a security hash. A split's pixels, tens of megabytes, go
// eight bytes at a time (pixelsHashStep), byte by byte they took a tenth of a second.
class Hash {
public:
    Hash& bytes(const void* p, size_t n)
    {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i)
            m_h = (m_h ^ b[i]) * 1099511628211ull;
        return *this;
    }
    template <class T> Hash& value(const T& v) { return bytes(&v, sizeof v); }
    Hash& text(const std::string& s) { return value(s.size()).bytes(s.data(), s.size()); }
    Hash& split(const ImageSplit& s)
    {
        return value(s.count)
            .value(s.height)
            .value(s.width)
            .value(pixelsHashStep(0, s.pixels))
            .bytes(s.labels.data(), s.labels.size());
    }
    uint64_t get() const { return m_h; }

private:
    uint64_t m_h = 1469598103934665603ull;
};
} // namespace

void requireSameRunOnEveryRank(Communicator& comm, const Network& net, const Dataset& data, const TrainConfig& c,
                               Isa isa)
{
    const OptimizerConfig& o = c.optimizer;
    // Each setting's name, whether it is plural (for "differ"/"differs"), and its hash.
    struct Field {
        const char* name;
        bool plural;
        uint64_t hash;
    };
    const std::vector<Field> fields = {
        {"model and initial weights", true,
         Hash().text(net.spec().name).bytes(net.params().data(), net.params().size() * sizeof(float)).get()},
        {"training images", true, Hash().split(data.train).get()},
        {"test images", true, Hash().split(data.test).get()},
        {"seed", false, Hash().value(c.seed).get()},
        {"batch size", false, Hash().value(c.batchSize).get()},
        {"epochs, batch and validation limits", true,
         Hash().value(c.epochs).value(c.maxBatches).value(c.validationLimit).get()},
        {"optimizer", false,
         Hash()
             .value(o.kind)
             .value(o.learningRate)
             .value(o.beta1)
             .value(o.beta2)
             .value(o.epsilon)
             .value(o.momentum)
             .value(o.nesterov)
             .value(o.rho)
             .get()},
        {"learning-rate schedule", false, Hash().text(describeLrSchedule(c.schedule)).get()},
        {"early stopping", false, Hash().text(describeEarlyStopping(c.earlyStopping)).get()},
        {"validation split", false, Hash().value(c.validationSplit).get()},
        {"size multiplier and drop-remainder", true, Hash().value(c.sizeMultiplier).value(c.dropRemainder).get()},
        {"shard size", false, Hash().value(c.shardSize).get()},
        {"kernel level (give every rank the same --isa)", false, Hash().value(isa).get()},
        {"precision (give every rank the same --precision)", false, Hash().value(c.device.precision).get()},
    };
    const int n = int(fields.size());
    std::vector<uint64_t> mine(static_cast<size_t>(n)), all(static_cast<size_t>(n) * size_t(comm.size()));
    for (int i = 0; i < n; ++i)
        mine[size_t(i)] = fields[size_t(i)].hash;
    comm.allgather(mine.data(), n, all.data());
    for (int r = 1; r < comm.size(); ++r)
        for (int i = 0; i < n; ++i)
            if (all[size_t(r) * size_t(n) + size_t(i)] != all[size_t(i)])
                throw ConfigError("MPI rank " + std::to_string(r) + "'s " + fields[size_t(i)].name +
                                  (fields[size_t(i)].plural ? " differ" : " differs") +
                                  " from rank 0's: every rank must train the same run (the same "
                                  "command line, and the same dataset files in a folder every node reads)");
}

void requireSamePlaceOnEveryRank(Communicator& comm, const RunPosition& at, const Network& net, int64_t iterations)
{
    const uint64_t weights = Hash()
                                 .bytes(net.params().data(), net.params().size() * sizeof(float))
                                 .bytes(net.state().data(), net.state().size() * sizeof(float))
                                 .value(iterations)
                                 .get();
    const std::vector<uint64_t> mine = {uint64_t(at.epoch), uint64_t(at.step), weights};
    std::vector<uint64_t> all(mine.size() * size_t(comm.size()));
    comm.allgather(mine.data(), int(mine.size()), all.data());
    auto place = [&](int r) {
        const uint64_t* p = all.data() + size_t(r) * mine.size();
        return p[0] == 0 && p[1] == 0 ? std::string("at the start of a new run")
                                      : "at epoch " + std::to_string(p[0] + 1) + ", step " + std::to_string(p[1] + 1) +
                                            " of a resumed run";
    };
    const std::string sameCheckpoint =
        "every rank must resume the same checkpoint (--resume with one run folder every node reads), or none";
    for (int r = 1; r < comm.size(); ++r) {
        const uint64_t* p = all.data() + size_t(r) * mine.size();
        if (p[0] != all[0] || p[1] != all[1])
            throw ConfigError("MPI rank " + std::to_string(r) + " is " + place(r) + ", and rank 0 " + place(0) + ": " +
                              sameCheckpoint);
        if (p[2] != all[2])
            throw ConfigError("MPI rank " + std::to_string(r) +
                              "'s weights, BatchNorm statistics or step count differ from rank 0's at the same "
                              "place of the run: " +
                              sameCheckpoint);
    }
}

} // namespace tb
