#include "command_table.hpp"

#include "commands.hpp"

#include "data/dataset.hpp"
#include "train/train_options.hpp"

#include <map>
#include <set>

namespace tbcli {

namespace {
struct OwnOption {
    std::string value, help;
};

// The CLI's own options (not settings of a training run), with the value each takes and its help.
const std::map<std::string, OwnOption>& ownOptions()
{
    static const std::map<std::string, OwnOption> own = {
        {"data",
         {"DIR|TEXT",
          std::string("a folder of IDX files, or for a text model a text file or a folder of texts (the last 10% "
                      "validates); ") +
              tb::defaultDatasetDir() + " by default"}},
        {"model",
         {"NAME|FILE", "a preset (`presets` lists them) or a model file; by default tpu-mnist-cnn, or "
                       "small-text-lstm when --data is a text (a file, or a folder of texts). A text preset brings "
                       "its own optimizer, rate, batch and epochs where none is given"}},
        {"sequence-length", {"T", "a text model's sequence length, 1 to 100000 (the model's own, else 100)"}},
        {"vocabulary", {"bytes|characters", "a text model's symbols (bytes)"}},
        {"save", {"FILE", "write the weights to FILE: .tbw, .safetensors or .onnx, as its name ends"}},
        {"json", {"", "one JSON object per line instead of text"}},
        {"runs-dir",
         {"DIR", "the runs folder (run folders with checkpoints, run.json, weights); $XDG_DATA_HOME/trainbench/runs "
                 "by default"}},
        {"no-run-folder", {"", "write no run folder (no checkpoints, no run history)"}},
        {"resume",
         {"RUN",
          "continue a stopped or killed run from its last checkpoint, with its own settings: only --data, --json, "
          "--save and the options of where it runs may be given. RUN is a run folder's name in --runs-dir (or "
          "the unique start of one), a path, or latest"}},
        {"weights", {"FILE", "the weights: a .tbw or .safetensors file"}},
        {"limit", {"N", "evaluate the first N test images only, or a text's first N held-out sequences (0: all)"}},
        {"predictions", {"FILE.csv", "each test image's label, predicted class and probabilities"}},
        {"format",
         {"onnx|safetensors|tbw",
          "what to write; without it, --out's extension says (.onnx, .safetensors or .tbw; another name is "
          "refused)"}},
        {"out", {"FILE", "the file to write"}},
        {"devices",
         {"LIST", "the devices in turn, as `devices` lists them: cpu:1,cpu:2,cpu:2@avx2,cpu:2+bf16,opencl:0 (cpu:1 "
                  "and every core)"}},
        {"scale-batch", {"", "the batch grows with the replicas (each replica keeps --batch images)"}},
        {"sweep", {"batch=32,64|size=1,2", "one row per batch size or size multiplier on each device"}},
        {"csv", {"FILE", "the table as CSV too"}},
        {"image",
         {"PICTURE [PICTURE ...]", "PNG, JPEG, or binary PGM or PPM pictures; - reads one from standard input"}},
        {"top", {"K", "the K most probable classes, 1 to the model's number of classes (3)"}},
        {"invert", {"on|off", "invert dark ink on light paper, as the picture's border suggests (on)"}},
        {"centre", {"on|off", "MNIST's centring of light ink (by default for digit models)"}},
        {"save-inputs",
         {"DIR", "write what the model received as DIR/<picture>.pgm (stdin.pgm for standard input; DIR is made if "
                 "missing)"}},
        {"kind", {"image|text|all", "which presets (all)"}},
        {"input", {"N", "the input's side (28), for a text model its sequence length (its own)"}},
        {"classes", {"K", "the classes (10), for a text model the vocabulary (256)"}},
        {"prompt", {"TEXT", "the text it goes on from (empty)"}},
        {"length", {"N", "symbols to write, 0 to 10000000 (250)"}},
        {"temperature", {"T", "the softmax's temperature (1; 0 is greedy)"}},
        {"streams", {"K", "write K texts side by side, 1 to 1024 (1)"}},
        {"probabilities", {"FILE.csv", "the next-symbol distribution after each prompt symbol (a fresh state)"}},
    };
    return own;
}

// Options by name, then `more` (those with a help of their own).
std::vector<CommandOption> names(std::initializer_list<const char*> list, std::vector<CommandOption> more = {})
{
    std::vector<CommandOption> v;
    for (const char* n : list)
        v.push_back({n});
    v.insert(v.end(), more.begin(), more.end());
    return v;
}

std::vector<Command> makeTable()
{
    std::vector<Command> t;
    // --model of the commands that read weights (evaluate, export, predict, generate): for a file that does not
    // name its model; cli_common's loadWeightsOption reads it for each.
    const CommandOption otherProgramsModel{"model", false, "",
                                           "which model a safetensors file written by another program holds"};
    // summary reads no data, so its model is the default preset unless named (train's help names --data).
    t.push_back({"summary",
                 "",
                 {{"model", false, "", "a preset (`presets` lists them) or a model file (tpu-mnist-cnn)"},
                  {"input"},
                  {"classes"}},
                 "the Keras-style model summary (for a text model, --input is the sequence length and --classes the "
                 "vocabulary)",
                 summaryCommand});
    t.push_back({"presets", "", names({"kind"}), "lists the preset models (image or text models)", presetsCommand});
    t.push_back({"train", "",
                 names({"data",
                        "model",
                        "sequence-length",
                        "vocabulary",
                        "epochs",
                        "batch",
                        "seed",
                        "optimizer",
                        "lr",
                        "momentum",
                        "nesterov",
                        "size-multiplier",
                        "max-batches",
                        "drop-remainder",
                        "shard",
                        "validation-split",
                        "validation-limit",
                        "lr-schedule",
                        "early-stopping",
                        "patience",
                        "min-delta",
                        "restore-best-weights",
                        "threads",
                        "device",
                        "isa",
                        "precision",
                        "checkpoint-every",
                        "precise-bn",
                        "save",
                        "json",
                        "runs-dir",
                        "no-run-folder",
                        "resume"}),
                 "trains the model and prints Keras-like progress, then the test loss, the test accuracy and the "
                 "SHA-256 of the weights (the same seed gives the same hash on any number of threads). Every run "
                 "gets a folder (checkpoints, run.json, weights) in --runs-dir. `train --resume RUN` "
                 "continues a stopped or killed run from its last checkpoint with its own settings. Under `mpirun "
                 "-np N` (a build with MPI) train is one data-parallel run, the same weights as one process; rank 0 "
                 "prints and writes (TRAINBENCH_MPI_TIMEOUT: seconds a rank waits for the others, 60 by default)",
                 trainCommand});
    t.push_back({"evaluate",
                 "",
                 {{"data"},
                  {"weights", true},
                  otherProgramsModel,
                  {"vocabulary", false, "", "with --model, a text model's: the symbols it learned (bytes)"},
                  {"threads"},
                  {"device"},
                  {"isa"},
                  {"precision"},
                  {"limit"},
                  {"predictions"},
                  {"precise-bn", false, "",
                   "recompute BatchNorm's statistics over N training batches first (with --batch, --seed, --save)"},
                  {"batch", false, "", "--precise-bn's batch (128)"},
                  {"seed", false, "", "--precise-bn's shuffle (200)"},
                  {"save", false, "", "write the weights with --precise-bn's statistics to FILE"},
                  {"json"}},
                 "the test loss and accuracy of trained weights",
                 evaluateCommand});
    t.push_back({"export",
                 "",
                 {{"weights", true},
                  {"format"},
                  {"out"},
                  otherProgramsModel,
                  {"data", false, "DIR|TEXT",
                   "with --model: the dataset that gives the input size and classes (a text for a text model)"},
                  {"vocabulary", false, "", "with --model, a text model's: the symbols it learned (bytes)"},
                  {"json"}},
                 "the weights for other tools (ONNX: the inference graph)",
                 exportCommand});
    t.push_back({"compare", "",
                 names({"data",
                        "model",
                        "devices",
                        "epochs",
                        "max-batches",
                        "validation-limit",
                        "seed",
                        "batch",
                        "scale-batch",
                        "sweep",
                        "csv",
                        "json",
                        "sequence-length",
                        "vocabulary",
                        "optimizer",
                        "lr",
                        "momentum",
                        "nesterov",
                        "size-multiplier",
                        "drop-remainder",
                        "isa"},
                       {{"precision", false, "",
                         "the products' arithmetic of every device in --devices that names none of its own: fp32 or "
                         "bf16 (CPUs with AVX512_BF16 only; a device that cannot is skipped with the reason); "
                         "--devices cpu:2,cpu:2+bf16 compares both on the same seed (fp32)"}}),
                 "the same model from the same initial weights on each device in turn, as a table (its rows are "
                 "not runs: train one device with --device to keep its run, for runs and report)",
                 compareCommand});
    t.push_back({"devices", "", {}, "what this machine has: CPU, OpenCL devices, GPUs or why none", devicesCommand});
    t.push_back({"predict",
                 "",
                 {{"weights", true},
                  {"image", true},
                  otherProgramsModel,
                  {"data", false, "DIR",
                   std::string("with --model: the IDX dataset whose test images give the input size and classes (") +
                       tb::defaultDatasetDir() + " by default)"},
                  {"top"},
                  {"json"},
                  {"invert"},
                  {"centre"},
                  {"save-inputs"}},
                 "the model's top classes for PNG, JPEG, PGM or PPM pictures (- reads one from standard input), "
                 "preprocessed as the window's Predict page does",
                 predictCommand});
    t.push_back({"runs", "list|show RUN|delete RUN", names({"runs-dir", "json"}),
                 "the runs recorded in the runs folder; a damaged run is listed with the reason. RUN is a run "
                 "folder's name (or the unique start of one), a path, or latest",
                 runsCommand});
    t.push_back({"report",
                 "RUN [-o FILE.html]",
                 {{"out", false, "FILE.html",
                   "the file to write (-o too; - for standard output); <run>.html in the current folder by default"},
                  {"runs-dir"},
                  {"json"}},
                 "one self-contained HTML file of the run (charts, configuration, hardware, epochs, confusion matrix, "
                 "misclassified images, weights SHA-256)",
                 reportCommand});
    t.push_back(
        {"generate",
         "",
         {{"weights", true},
          {"prompt"},
          {"length"},
          {"temperature"},
          {"seed", false, "", "the seed of the draws (200): the same seed gives the same text"},
          {"streams"},
          {"json"},
          {"probabilities"},
          otherProgramsModel,
          {"data", false, "TEXT", "with --model: the text (a file or a folder of texts) that gives its vocabulary"},
          {"vocabulary", false, "", "with --model, a text model's: the symbols it learned (bytes)"}},
         "a text model writes symbols after the prompt, each drawn from its softmax",
         generateCommand});
    return t;
}

constexpr size_t kWidth = 100;
constexpr size_t kIndent = 11; // "  generate "

// "[--epochs N] [--json] --weights FILE ...": the options in the usage's synopsis.
std::string synopsis(const Command& c)
{
    std::string s = c.positional;
    for (const CommandOption& o : c.options) {
        const std::string v = optionValue(o);
        const std::string one = "--" + o.name + (v.empty() ? "" : " " + v);
        s += (s.empty() ? "" : " ") + (o.required ? one : "[" + one + "]");
    }
    return s;
}

// Words joined by single spaces, an option and its value never split over two lines.
std::string keepOptionsWhole(const std::string& synopsis)
{
    std::string s = synopsis;
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i] == ' ' && i > 0 && s[i + 1] != '[' && s[i + 1] != '-' && s[i - 1] != ']')
            s[i] = '\x01';
    return s;
}

std::string restoreSpaces(std::string s)
{
    for (char& ch : s)
        if (ch == '\x01')
            ch = ' ';
    return s;
}
} // namespace

const std::vector<Command>& commandTable()
{
    static const std::vector<Command> table = makeTable();
    return table;
}

const Command* findCommand(const std::string& name)
{
    for (const Command& c : commandTable())
        if (c.name == name)
            return &c;
    return nullptr;
}

std::string optionValue(const CommandOption& o)
{
    if (!o.value.empty())
        return o.value;
    if (const auto it = ownOptions().find(o.name); it != ownOptions().end())
        return it->second.value;
    if (const tb::TrainOption* t = tb::findTrainOption(o.name))
        return t->value;
    return "";
}

std::string optionHelp(const CommandOption& o)
{
    if (!o.help.empty())
        return o.help;
    if (const auto it = ownOptions().find(o.name); it != ownOptions().end())
        return it->second.help;
    if (const tb::TrainOption* t = tb::findTrainOption(o.name))
        return t->help;
    return "";
}

Options commandOptions(const Command& command, const std::vector<std::string>& args)
{
    std::set<std::string> valued, flags;
    for (const CommandOption& o : command.options)
        (optionValue(o).empty() ? flags : valued).insert(o.name);
    return Options(args, valued, flags);
}

std::string takePositional(const Command& command, std::vector<std::string>& args, const std::string& usage)
{
    std::set<std::string> valued;
    for (const CommandOption& o : command.options)
        if (!optionValue(o).empty())
            valued.insert(o.name);
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("-", 0) != 0) {
            std::string positional = a;
            args.erase(args.begin() + std::ptrdiff_t(i));
            return positional;
        }
        if (a.rfind("--", 0) == 0 && a.find('=') == std::string::npos && valued.count(a.substr(2)))
            ++i; // its value, even one that does not start with "-"
    }
    throw UsageError(usage);
}

std::string usage()
{
    std::string u = "usage: trainbench-cli <command> [options] | --version\n"
                    "       trainbench-cli <command> --help: the command's options, each with what it does\n"
                    "\n"
                    "commands:\n";
    for (const Command& c : commandTable()) {
        std::string head = "  " + c.name;
        head += std::string(kIndent - head.size(), ' ');
        const std::string options = synopsis(c);
        if (!options.empty())
            head += restoreSpaces(tb::wrapWords(keepOptionsWhole(options), kIndent, kIndent, kWidth)) +
                    std::string(kIndent, ' ');
        u += head + tb::wrapWords(c.description, kIndent, kIndent, kWidth);
    }
    u += "\ntraining options (train; compare and evaluate take some; the window sets the same):\n";
    for (const tb::TrainOption& o : tb::trainOptions())
        u += tb::optionHelpLine(o.name, o.value, o.help);
    u += "\n";
    u += tb::wrapWords(std::string("--data defaults to ") + tb::defaultDatasetDir() +
                           "; --model to tpu-mnist-cnn. Every run gets a folder (checkpoints, run.json, weights) in "
                           "--runs-dir, by default $XDG_DATA_HOME/trainbench/runs.",
                       0, 0, kWidth);
    u += tb::wrapWords("exit codes: 0 ok, 2 usage, 3 data or model error, 4 training diverged, 5 file error, 6 an "
                       "MPI rank waited too long for another, 130 stopped",
                       0, 0, kWidth);
    return u;
}

std::string commandUsage(const Command& c)
{
    const std::string head = "usage: trainbench-cli " + c.name + " ";
    std::string u =
        head + restoreSpaces(tb::wrapWords(keepOptionsWhole(synopsis(c)), head.size(), head.size(), kWidth));
    u += '\n';
    u += tb::wrapWords(c.description, 0, 0, kWidth);
    if (!c.options.empty()) {
        u += "\noptions:\n";
        for (const CommandOption& o : c.options)
            u += tb::optionHelpLine(o.name, optionValue(o), optionHelp(o) + (o.required ? " (required)" : ""));
    }
    if (c.name == "train") {
        std::string placement;
        for (const tb::TrainOption& o : tb::trainOptions())
            if (!o.fixedOnResume)
                placement += " --" + o.name;
        u += '\n';
        u += tb::wrapWords("With --resume, the run keeps its settings: besides --data, --save and --json, only" +
                               placement + " may be given (and --runs-dir, where a run given by its name is).",
                           0, 0, kWidth);
    }
    return u;
}

} // namespace tbcli
