// The training options, declared once: each with its flag, the placeholder of its value, its help
// text (default and limits from run_limits.hpp), how it is read from text into a TrainSettings and
// how it is written back, the window's label of it and a number's limits. trainbench-cli's parser and
// --help, the benchmark's parser, the window's fields (labels, ranges) and its "As the CLI" line all
// read this table, so a new option is one entry here (docs/developing.md).
#pragma once

#include "train/trainer.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tb {

// A training run's settings as the options give them: the TrainConfig, and what the session takes
// beside it (checkpoints every N batches).
struct TrainSettings {
    TrainSettings(); // TrainConfig's defaults on every core of this machine (hardwareThreads())
    TrainConfig config;
    int checkpointEvery = 0; // batches between checkpoints; 0: at epoch ends only
};

struct TrainOption {
    std::string name;  // "epochs": the flag --epochs
    std::string value; // the value's placeholder in the usage ("N"); empty: a switch
    std::string help;  // one line of English: what it does, its limits and (default)
    // A setting of the run, which its checkpoint keeps: `train --resume` refuses it. The others say
    // where and how the run goes (threads, device, checkpoints) and may change on resume.
    bool fixedOnResume = true;
    std::string needs; // the option this one only goes with ("early-stopping"); empty: none
    // Reads `text` ("" for a switch) into s; throws ConfigError naming --name and its limits. `self`
    // is the option (its name and limits).
    void (*parse)(TrainSettings& s, const std::string& text, const TrainOption& self) = nullptr;
    // The value that gives s's setting back (parse(format(s)) == s); nullopt where s has the
    // default (TrainSettings()), so the option is left out; "" for a switch that is on.
    std::optional<std::string> (*format)(const TrainSettings& s) = nullptr;
    // The window's label of the option's field, in English: the window translates it in the context
    // "TrainOption" (trainOptionLabel in ui/). Empty: the window sets it elsewhere (the device).
    std::string label{};
    // A number's limits, which parse checks and the window's field takes as its range (both 0: not
    // a number with limits).
    double lo = 0, hi = 0;
};

// Every training option, in the order they are applied and written (--optimizer before --lr: an
// optimizer brings its default rate).
const std::vector<TrainOption>& trainOptions();
const TrainOption* findTrainOption(std::string_view name); // nullptr: not a training option

// Applies the options given (name without "--" -> value text, "" for a switch) to s, in the table's
// order; checks that what goes together is given together (--patience needs --early-stopping, not
// both --device and --threads) and validates the result (validateTrainConfig). Names that are not
// training options are ignored: the caller's own. Throws ConfigError naming the option.
void applyTrainOptions(TrainSettings& s, const std::map<std::string, std::string>& given);

// The arguments that give s from TrainSettings(): "--name value" for each option not at its default,
// in the table's order. Limited to `only` where it is not empty.
std::vector<std::string> formatTrainOptions(const TrainSettings& s, const std::vector<std::string>& only = {});

// "  --epochs N   epochs to train, 1 to 100000 (2)": an option's help for --help, the help starting
// at `column` and wrapped there within `width` columns.
std::string optionHelpLine(const std::string& name, const std::string& value, const std::string& help, int column = 30,
                           int width = 100);
// `text` wrapped at spaces within `width` columns: the first line after `first` (already written),
// the others indented by `indent` spaces. Ends with a newline.
std::string wrapWords(const std::string& text, size_t first, size_t indent, size_t width = 100);

// Checked numbers for any option (the benchmark's own too): ConfigError "--NAME needs a whole number,
// not "x"" or "--NAME must be between LO and HI (got V)".
long long parseWholeOption(const std::string& name, const std::string& text, long long lo, long long hi);
uint64_t parseUnsignedOption(const std::string& name, const std::string& text);
double parseRealOption(const std::string& name, const std::string& text);
// The shortest text with at least 6 significant digits that reads back as v (as a float when `single`).
std::string formatReal(double v, bool single = false);

} // namespace tb
