// Writing with a trained text model, as `trainbench-cli generate` and the window's writing page run
// it: the prompt goes through the model one symbol at a time, then each next symbol is drawn from
// the softmax (divided by the temperature; 0 takes the most likely symbol), fed back, and reported
// with the probability the model gave it. The LSTMs carry their state from one symbol to the next
// (Keras' stateful inference, as the notebook's batch-5 copy of the model). K streams run side by side
// as one batch, each with its own random stream: the same seed gives the same text, on any machine
// with the same kernels level.
#pragma once

#include "data/text_dataset.hpp"
#include "kernels/kernels.hpp"
#include "model/network.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tb {

struct GenerateOptions {
    std::string prompt;       // empty: starts from a newline (or symbol 0 if the vocabulary lacks it)
    int length = 250;         // symbols generated per stream
    double temperature = 1.0; // 0: greedy
    uint64_t seed = 200;
    int streams = 1;
};

// ConfigError for options out of range; generate() checks them too, but a caller that prints before it
// (the prompt) checks first, so that a refusal prints nothing.
void requireValid(const GenerateOptions& options);

struct GeneratedSymbol {
    int stream = 0;
    int index = 0;           // 0-based position among the generated symbols
    int id = 0;              // in the vocabulary
    std::string text;        // its bytes
    float probability = 0.f; // the model's probability of it (softmax at temperature 1)
};

class TextGenerator {
public:
    // `net` must be a text model (Embedding first; LSTM, Dense, Dropout, Activation after it) and
    // outlive the generator. Throws ModelError otherwise.
    TextGenerator(const Network& net, TextVocabulary vocabulary, const Kernels& kernels = defaultKernels());

    // Asked before each step of the model (each symbol of the prompt as it is read, each symbol after
    // the first as it is drawn): true ends the work there, so that a long prompt stops too.
    using StopRequested = std::function<bool()>;

    // The streams' generated texts (the prompt not included). `onSymbol` sees every symbol as it is
    // drawn, step by step across the streams; `stopRequested` ends it early, each stream with as many
    // symbols as the others (none when it came during the prompt). Throws ConfigError for options out
    // of range, DataError for a prompt the vocabulary cannot encode.
    std::vector<std::string> generate(const GenerateOptions& options,
                                      const std::function<void(const GeneratedSymbol&)>& onSymbol = {},
                                      const StopRequested& stopRequested = {});

    // The next-symbol probabilities after each symbol of `ids` from a fresh state (softmax at
    // temperature 1), (ids, vocabulary): what the ONNX and PyTorch checks compare. Ended early by
    // `stopRequested`: the rows of the symbols read before it.
    std::vector<float> probabilities(const std::vector<uint8_t>& ids, const StopRequested& stopRequested = {});

private:
    struct State;
    // One step for every stream: ids (streams) in, logits (streams, vocabulary) out.
    void step(State& st, const std::vector<int>& ids, std::vector<float>& logits) const;
    const Network& m_net;
    TextVocabulary m_vocab;
    const Kernels* m_kernels;
};

// The sample a text run shows after every epoch (the CLI's "Sample:" line, the window's log): 120
// symbols at temperature 0.8 from a newline, seeded by the epoch, so a run's samples are
// reproducible. `net` holds that epoch's weights.
std::string epochSample(const Network& net, const TextVocabulary& vocabulary, int epoch);

} // namespace tb
