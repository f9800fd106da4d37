// `trainbench-cli summary`: a model's Keras-style summary.
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "model/network.hpp"

#include <algorithm>
#include <cstdio>

namespace tbcli {

int summaryCommand(const std::vector<std::string>& args)
{
    Options o = commandOptions(*findCommand("summary"), args);
    const tb::ModelSpec spec = tb::loadModelSpec(o.text("model", tb::defaultPreset()));
    // A text model: --input is the sequence length (the model's own by default), --classes the
    // vocabulary (256 bytes by default).
    const bool text = spec.isText();
    const int side = int(o.integer("input", text ? std::max(spec.sequenceLength, 1) : 28, 1, text ? 100000 : 4096));
    const int classes = int(o.integer("classes", text ? 256 : 10, 2, 256));
    const tb::Network net(spec, text ? tb::Shape::tokenIds(side) : tb::Shape::image(side, side, 1), classes,
                          tb::Network::Fill::Zeros); // the summary reads shapes and counts only
    std::fputs(net.summary().c_str(), stdout);
    return Ok;
}

} // namespace tbcli
