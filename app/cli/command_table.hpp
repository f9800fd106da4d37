// trainbench-cli's commands in one table: each with the options it takes, what it does and the
// function that runs it. main() dispatches through it, each command's Options are checked against
// it, and --help (the general usage and `COMMAND --help`) is generated from it and from the training
// options' table (train/train_options.hpp), so a flag and its help are written once.
#pragma once

#include "options.hpp"

#include <string>
#include <vector>

namespace tbcli {

// An option of a command: a training option (train_options.hpp) or one of the CLI's own. value and
// help are the table's unless given here (generate's --seed is not a training seed).
struct CommandOption {
    CommandOption(const char* n, bool req = false, std::string v = {}, std::string h = {})
        : name(n), required(req), value(std::move(v)), help(std::move(h))
    {
    }
    std::string name;
    bool required = false;
    std::string value; // the placeholder, when it differs from the table's
    std::string help;  // the help, when it differs from the table's
};

struct Command {
    std::string name;
    std::string positional; // the arguments that are not options ("list|show RUN|delete RUN"); empty: none
    std::vector<CommandOption> options;
    std::string description; // one paragraph, wrapped by the usage
    int (*run)(const std::vector<std::string>& args);
};

const std::vector<Command>& commandTable();
const Command* findCommand(const std::string& name); // nullptr: no such command

// The value placeholder ("N"; empty for a switch) and help of `o` as `command` takes it.
std::string optionValue(const CommandOption& o);
std::string optionHelp(const CommandOption& o);

// The command line checked against what `command` accepts (its options' names and whether each takes
// a value). Throws UsageError.
Options commandOptions(const Command& command, const std::vector<std::string>& args);
// The first argument that is neither an option of `command` nor an option's value (runs' action,
// runs' and report's RUN), taken out of `args`: it may come before, between or after the options, as
// "report -o x.html latest" and "report latest -o x.html". Throws UsageError(usage) when there is none.
std::string takePositional(const Command& command, std::vector<std::string>& args, const std::string& usage);

std::string usage();                              // trainbench-cli --help
std::string commandUsage(const Command& command); // trainbench-cli COMMAND --help

} // namespace tbcli
