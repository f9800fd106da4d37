// libFuzzer target for model descriptions (engine/model/model_spec.cpp through parseModelSpec, the
// entry point the window, the CLI and the weights readers use): any text ends in a ModelSpec or a
// tb::Error; a spec that parses is built into a network for a small input, which must either work
// or be refused with a tb::Error (layer sizes no machine could hold are refused before allocation).
#include "core/errors.hpp"
#include "model/model_spec.hpp"
#include "model/network.hpp"

#include <string>

extern "C" {
long g_fuzzAccepted = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const tb::ModelSpec spec =
            tb::parseModelSpec(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
        ++g_fuzzAccepted;
        tb::Network net(spec, tb::Shape::image(12, 12, 1), 3);
    } catch (const tb::Error&) {
    }
    return 0;
}
