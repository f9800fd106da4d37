// libFuzzer target for a checkpoint's per-batch curve (engine/train/batch_curve.cpp,
// BatchCurve::fromJson): its "batch_curve" member, read back on resume. An input is a first line
// "EPOCHS STEPS EPOCH STEP" (the run's epochs and steps per epoch, and the checkpoint's position:
// epochs finished, steps of the next), then the curve's JSON. A curve that reads must write the same
// JSON back and read again, and take another batch.
#include "core/errors.hpp"
#include "core/json_text.hpp"
#include "train/batch_curve.hpp"

#include <cstdlib>
#include <sstream>
#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const size_t eol = input.find('\n');
    if (eol == std::string::npos)
        return 0;
    std::istringstream first(input.substr(0, eol));
    int epochs = 0, steps = 0;
    tb::RunPosition at;
    if (!(first >> epochs >> steps >> at.epoch >> at.step))
        return 0;
    if (epochs < 1 || steps < 1 || at.epoch < 0 || at.epoch > epochs || at.step < 0 || at.step > steps ||
        (at.step > 0 && at.epoch == epochs))
        return 0; // a position the checkpoint's reader refuses (Trainer::restore) before the curve's is read
    try {
        const nlohmann::ordered_json state = tb::parseJson(input.substr(eol + 1));
        tb::BatchCurve curve = tb::BatchCurve::fromJson(state, at, epochs, steps, "checkpoint.tbw");
        const std::string written = tb::jsonText(curve.toJson());
        const tb::BatchCurve again = tb::BatchCurve::fromJson(tb::parseJson(written), at, epochs, steps, "again");
        if (tb::jsonText(again.toJson()) != written)
            std::abort();
        tb::BatchProgress next;
        next.epoch = at.epoch + 1;
        next.step = at.step + 1;
        curve.add(next);
        if (curve.points().empty() || int(curve.points().size()) > tb::BatchCurve::kMaxPoints)
            std::abort();
        ++g_fuzzAccepted;
    } catch (const tb::Error&) {
    }
    return 0;
}
