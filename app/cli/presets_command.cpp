// `trainbench-cli presets`: the preset models, image or text.
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "model/network.hpp"

#include <cstdio>

namespace tbcli {

int presetsCommand(const std::vector<std::string>& args)
{
    Options o = commandOptions(*findCommand("presets"), args);
    const std::string kind = o.text("kind", "all");
    if (kind != "all" && kind != "image" && kind != "text")
        throw UsageError("--kind is image, text or all (got \"" + kind + "\")");
    for (const std::string& name : tb::presetNames()) {
        const bool text = tb::loadModelSpec(name).isText();
        if (kind == "all" || (kind == "text") == text)
            std::printf("%-20s %s\n", name.c_str(), tb::presetDescription(name).c_str());
    }
    return Ok;
}

} // namespace tbcli
