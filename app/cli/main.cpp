// trainbench-cli: the headless front end over the engine (no Qt). The commands, their options and
// the usage come from command_table.cpp.
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "io/export_metadata.hpp"
#include "options.hpp"

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "environment.hpp"
#include "mpi/communicator.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace {

// Why what the command printed did not all reach its standard output (a file on a full disk, /dev/full),
// or empty when it did: that is a file the command could not write, as with --out.
// `earlier`: the errno a write just before left (fputs of the usage), else 0.
std::string unwrittenOutput(int earlier = 0)
{
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout))
        return {};
    if (tbcli::g_outputError) // the first failure's reason: a later flush of a failed stream has none
        return tbcli::outputLostText();
    const int why = errno ? errno : earlier;
    return std::string("cannot write to the standard output: ") + (why ? std::strerror(why) : "a write failed");
}

} // namespace

int main(int argc, char** argv)
{
    // A write past the file-size limit (ulimit -f) and a write to a pipe whose reader ended fail with
    // EFBIG and EPIPE, which the commands report, where the signals would end the process in silence,
    // with a run's last batches lost.
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGPIPE, SIG_IGN);
    // What --help and --version print must reach stdout too (`--help > /dev/full` failed with 0).
    const auto printed = [] {
        if (const std::string why = unwrittenOutput(errno); !why.empty()) {
            std::fprintf(stderr, "trainbench-cli: %s\n", why.c_str());
            return int(tbcli::FileError);
        }
        return int(tbcli::Ok);
    };
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::fputs(tbcli::usage().c_str(), argc < 2 ? stderr : stdout);
        return argc < 2 ? tbcli::Usage : printed();
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::printf("trainbench-cli %s\n", tb::trainbenchVersion());
        return printed();
    }
    const std::string cmd = argv[1];
    const tbcli::Command* command = tbcli::findCommand(cmd);
    if (!command) {
        // Said in one line, not above a hundred lines of usage that would scroll it away.
        std::vector<std::string> names;
        for (const tbcli::Command& c : tbcli::commandTable())
            names.push_back(c.name);
        const std::string meant = tbcli::likelyMeant(cmd, names);
        std::fprintf(stderr, "trainbench-cli: unknown command \"%s\"%s (trainbench-cli --help lists the commands)\n",
                     cmd.c_str(), meant.empty() ? "" : ("; did you mean " + meant + "?").c_str());
        return tbcli::Usage;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") { // "train --help": the command's options, each with its help
            std::fputs(tbcli::commandUsage(*command).c_str(), stdout);
            return printed();
        }
    // The message on stderr; with --json, also an "error" event on stdout, the last line a program
    // reading the events gets (a divergence, a file that cannot be written).
    const bool json = std::find(args.begin(), args.end(), "--json") != args.end();
    auto fail = [&](int code, const std::string& message) {
        // The other ranks of a data-parallel run wait for this one: the job ends after the message.
        tb::endMpiJobAfterError(code, tb::env::processLaunch(), [&] {
            std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), message.c_str());
            if (json) {
                nlohmann::ordered_json j;
                j["event"] = "error";
                j["exit_code"] = code;
                j["message"] = message;
                tbcli::printJson(j);
            }
        });
        return code;
    };
    try {
        // TRAINBENCH_ISA, TRAINBENCH_BF16_KERNELS and the OpenCL settings; `devices` applies them
        // itself, so that a setting this machine refuses does not stop it listing what it has.
        if (cmd != "devices")
            tb::env::applyToEngine();
        const int code = command->run(args);
        if (code == tbcli::Ok)
            if (const std::string why = unwrittenOutput(); !why.empty())
                return fail(tbcli::FileError, why);
        return code;
    } catch (const tbcli::UsageError& e) {
        return fail(tbcli::Usage, e.what());
    } catch (const tb::ConfigError& e) {
        return fail(tbcli::Usage, e.what());
    } catch (const tb::DivergedError& e) {
        return fail(tbcli::Diverged, e.what());
    } catch (const tb::IoError& e) {
        return fail(tbcli::FileError, e.what());
    } catch (const tb::Error& e) {
        return fail(tbcli::DataOrModel, e.what());
    } catch (const std::bad_alloc&) {
        return fail(tbcli::DataOrModel, tb::kOutOfMemory);
    }
}
