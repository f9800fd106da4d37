// trainbench-cli's commands. Each returns the process exit code: 0 success, 2 usage error,
// 3 data or model error, 4 training diverged, 5 file error, 130 stopped by Ctrl-C. main.cpp maps the
// engine's exceptions: ConfigError 2; DataError and ModelError (the dataset or the model description),
// DeviceError and out of memory 3; DivergedError 4; IoError (any other file: weights, checkpoints, run
// folders, pictures, what is written) 5. docs/cli.md says the same to users.
#pragma once

#include <cstdio>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tbcli {

enum ExitCode { Ok = 0, Usage = 2, DataOrModel = 3, Diverged = 4, FileError = 5, Interrupted = 130 };

// Each in its own file, NAME_command.cpp; command_table.cpp lists them with their options.
int summaryCommand(const std::vector<std::string>& args);
int presetsCommand(const std::vector<std::string>& args);
int trainCommand(const std::vector<std::string>& args);
int evaluateCommand(const std::vector<std::string>& args);
int exportCommand(const std::vector<std::string>& args);
int compareCommand(const std::vector<std::string>& args);
int devicesCommand(const std::vector<std::string>& args);
int predictCommand(const std::vector<std::string>& args);
int runsCommand(const std::vector<std::string>& args);
int reportCommand(const std::vector<std::string>& args);
int generateCommand(const std::vector<std::string>& args);

// One --json event: a line of compact JSON on stdout, flushed.
void printJson(const nlohmann::ordered_json& j, std::FILE* to = stdout);

} // namespace tbcli
