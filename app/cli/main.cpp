// trainbench-cli: the headless front end over the engine (no Qt).
#include "commands.hpp"
#include "io/export_metadata.hpp"
#include "options.hpp"

#include "core/errors.hpp"
#include "environment.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>

namespace {
const char* kUsage =
    "usage: trainbench-cli <command> [options] | --version\n"
    "\n"
    "commands:\n"
    "  summary  --model NAME|FILE [--input N] [--classes K]: the Keras-style model summary (a text model:\n"
    "           N is the sequence length, its own by default, K the vocabulary, 256 by default)\n"
    "  presets  [--kind image|text|all]           list the preset models (image or text models)\n"
    "  train    [--data DIR|TEXT] [--model NAME|FILE] [--epochs N] [--batch B] [--threads T | --device D]\n"
    "           [--seed S] [--optimizer adam|sgd|rmsprop] [--lr X] [--momentum M] [--nesterov]\n"
    "           [--drop-remainder] [--size-multiplier K] [--max-batches N] [--save FILE] [--json]\n"
    "           [--isa baseline|avx2|avx512] [--validation-split F] [--lr-schedule SCHEDULE]\n"
    "           [--early-stopping val_loss|val_accuracy [--patience N] [--min-delta X]\n"
    "           [--restore-best-weights]] [--runs-dir DIR | --no-run-folder] [--checkpoint-every N]\n"
    "           [--precise-bn N]: after training, BatchNorm's moving statistics recomputed over N training\n"
    "           batches (a short run's test accuracy then matches its training accuracy)\n"
    "           [--sequence-length T] [--vocabulary bytes|characters]: TEXT is a text file or a folder of\n"
    "           them, for text models (shakespeare-lstm, small-text-lstm); the last 10% validates\n"
    "  train    --resume RUN_FOLDER [--data DIR] [--threads T | --device D] [--checkpoint-every N] [--json]:\n"
    "           continues a stopped or killed run from its last checkpoint with its own settings\n"
    "           Under `mpirun -np N` (a build with MPI) train is one data-parallel run, the same weights as\n"
    "           one process; rank 0 prints and writes (TRAINBENCH_MPI_TIMEOUT: seconds a rank waits for\n"
    "           the others, 60 by default)\n"
    "  evaluate [--data DIR] --weights FILE [--model NAME|FILE] [--threads T | --device D] [--isa LEVEL]\n"
    "           [--limit N] [--predictions FILE.csv] [--json]: FILE is .tbw or .safetensors; --model says\n"
    "           which model a safetensors file written by another program holds; [--precise-bn N [--batch B]\n"
    "           [--seed S] [--save FILE]] recomputes BatchNorm's statistics over N training batches first\n"
    "  export   --weights FILE [--format onnx|safetensors|tbw] [--out FILE] [--model NAME|FILE]\n"
    "           [--data DIR] [--json]: the weights for other tools (ONNX: the inference graph)\n"
    "  compare  [--data DIR] [--model NAME|FILE] [--devices cpu:1,cpu:2,cpu:2@avx2,opencl:0] [--epochs N]\n"
    "           [--max-batches N] [--seed S] [--batch B] [--scale-batch] [--sweep batch=32,64|size=1,2]\n"
    "           [--csv FILE] [--json] [--sequence-length T] [--vocabulary V] and train's optimizer options:\n"
    "           the same model from the same initial weights on each device in turn, as a table\n"
    "  devices                                    what this machine has: CPU, OpenCL devices, GPUs or why none\n"
    "  predict  --weights FILE --image PICTURE [PICTURE ...] [--top K] [--json] [--invert on|off]\n"
    "           [--centre on|off] [--save-inputs DIR]: the model's top classes for PNG or JPEG pictures,\n"
    "           preprocessed as the window's Predict page does (MNIST's centring by default for digit\n"
    "           models); --save-inputs writes what the model received as DIR/<picture>.pgm\n"
    "  runs     list|show RUN|delete RUN [--runs-dir D] [--json]: the runs recorded in the runs folder (the\n"
    "           XDG data directory's trainbench/runs by default); a damaged run is listed with the reason.\n"
    "           RUN is a run folder's name (or the unique start of one), a path, or latest\n"
    "  report   RUN [-o FILE.html] [--runs-dir D] [--json]: one self-contained HTML file of the run (charts,\n"
    "           configuration, hardware, epochs, confusion matrix, misclassified images, weights SHA-256);\n"
    "           FILE defaults to <run>.html in the current folder\n"
    "  generate --weights FILE [--prompt TEXT] [--length N] [--temperature T] [--seed S] [--streams K]\n"
    "           [--json] [--probabilities FILE.csv]: a text model writes N symbols (250) after the prompt, each drawn "
    "from its softmax\n"
    "           at temperature T (1; 0 is greedy); the same seed gives the same text. --probabilities\n"
    "           FILE.csv writes the next-symbol distribution after each prompt symbol (a fresh state)\n"
    "\n"
    "--data defaults to /usr/share/datasets/fashion-mnist; --model to tpu-mnist-cnn; --epochs to 2, --seed\n"
    "to 200, --batch to 128 (the window's defaults too); D is a device as `devices` lists it\n"
    "(cpu:2, cpu:1@avx2, opencl:0).\n"
    "Every run gets a folder (checkpoints, run.json, weights) in --runs-dir, by default\n"
    "$XDG_DATA_HOME/trainbench/runs. SCHEDULE: constant, step:EVERY:FACTOR, exp:RATE:STEPS,\n"
    "cosine[:WARMUP[:ALPHA]] or plateau[:FACTOR[:PATIENCE[:MIN_LR]]]; --validation-split holds out the\n"
    "last fraction F of the training images, as Keras does.\n"
    "--isa (or TRAINBENCH_ISA) runs the kernels of a lower instruction-set level than the CPU's best.\n"
    "exit codes: 0 ok, 2 usage, 3 data or model error, 4 training diverged, 5 file error, 130 stopped\n";
}

int main(int argc, char** argv)
{
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? tbcli::Usage : tbcli::Ok;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::printf("trainbench-cli %s\n", tb::trainbenchVersion());
        return tbcli::Ok;
    }
    const std::string cmd = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") { // "train --help": the usage, which lists every command's options
            std::fputs(kUsage, stdout);
            return tbcli::Ok;
        }
    try {
        tb::env::applyToEngine(); // TRAINBENCH_ISA and the OpenCL settings
        if (cmd == "summary")
            return tbcli::summaryCommand(args);
        if (cmd == "presets")
            return tbcli::presetsCommand(args);
        if (cmd == "train")
            return tbcli::trainCommand(args);
        if (cmd == "evaluate")
            return tbcli::evaluateCommand(args);
        if (cmd == "export")
            return tbcli::exportCommand(args);
        if (cmd == "compare")
            return tbcli::compareCommand(args);
        if (cmd == "devices")
            return tbcli::devicesCommand(args);
        if (cmd == "predict")
            return tbcli::predictCommand(args);
        if (cmd == "runs")
            return tbcli::runsCommand(args);
        if (cmd == "report")
            return tbcli::reportCommand(args);
        if (cmd == "generate")
            return tbcli::generateCommand(args);
        std::fprintf(stderr, "trainbench-cli: unknown command \"%s\"\n\n%s", cmd.c_str(), kUsage);
        return tbcli::Usage;
    } catch (const tbcli::UsageError& e) {
        std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), e.what());
        return tbcli::Usage;
    } catch (const tb::ConfigError& e) {
        std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), e.what());
        return tbcli::Usage;
    } catch (const tb::DivergedError& e) {
        std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), e.what());
        return tbcli::Diverged;
    } catch (const tb::IoError& e) {
        std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), e.what());
        return tbcli::FileError;
    } catch (const tb::Error& e) {
        std::fprintf(stderr, "trainbench-cli %s: %s\n", cmd.c_str(), e.what());
        return tbcli::DataOrModel;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "trainbench-cli %s: out of memory\n", cmd.c_str());
        return tbcli::DataOrModel;
    }
}
