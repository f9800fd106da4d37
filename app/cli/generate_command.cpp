// `trainbench-cli generate`: a trained text model writes, one symbol at a time (predict/text_generator.hpp).
#include "cli_common.hpp"
#include "command_table.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "data/text_dataset.hpp"
#include "io/weights_file.hpp"
#include "predict/text_generator.hpp"

#include <cstdio>
#include <limits>
#include <utility>

#include <unistd.h>

namespace tbcli {
namespace {
// For a terminal: control bytes other than a newline, tab or carriage return as "?", and the C1
// controls (U+0080 to U+009F, C2 80 to C2 9F in UTF-8) too. A model writes any byte it learned, or,
// hot enough, any byte at all, and an escape sequence would drive the terminal. A byte model writes
// C2 and its next byte as two symbols, so a C2 at the end of one piece waits for the next piece.
// Piped or redirected, the bytes go as written.
class TerminalFilter {
public:
    std::string operator()(const std::string& piece)
    {
        const std::string text = m_pending + piece;
        m_pending.clear();
        std::string out;
        out.reserve(text.size());
        for (size_t i = 0; i < text.size(); ++i) {
            const auto b = static_cast<unsigned char>(text[i]);
            if (b == 0xc2 && i + 1 == text.size()) {
                m_pending = text.substr(i);
            } else if (b == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0 &&
                       static_cast<unsigned char>(text[i + 1]) >= 0x80) {
                out += '?';
                ++i;
            } else {
                out += (b < 0x20 && b != '\n' && b != '\t' && b != '\r') || b == 0x7f ? '?' : text[i];
            }
        }
        return out;
    }
    // What waits for a next piece that will not come: a lone C2, shown as it is.
    std::string rest() { return std::exchange(m_pending, std::string()); }

private:
    std::string m_pending;
};
} // namespace

int generateCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("generate"), args);
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required (the .tbw or .safetensors of a text model)");
    const tb::WeightsFile w = loadSelfDescribedWeights(o);
    if (!w.spec.isText())
        throw tb::ModelError(o.text("weights", "") + " holds an image model (" + w.spec.name +
                             "); generate needs a text model (trained on a text with --data FILE.txt)");
    const tb::Network net = w.buildNetwork();
    const tb::TextVocabulary vocab = tb::TextVocabulary::fromClassNames(w.classNames);
    tb::TextGenerator gen(net, vocab);
    tb::GenerateOptions g;
    g.prompt = o.text("prompt", "");
    g.length = int(o.integer("length", 250, 0, 10000000));
    g.temperature = o.real("temperature", 1.0);
    g.seed = o.unsignedInt("seed", 200); // the same range as train's
    g.streams = int(o.integer("streams", 1, 1, 1024));
    // A symbol outside the vocabulary, or an option out of range: refused before any output.
    tb::requireValid(g);
    const std::vector<uint8_t> ids = vocab.encode(g.prompt, "the prompt");
    requireWritable(o, "probabilities");
    if (o.has("probabilities")) {
        // What the interop checks compare: the next-symbol distribution after each prompt symbol, from a
        // fresh state, as CSV rows "position,id,p_0,...,p_{V-1}".
        if (ids.empty())
            throw UsageError("--probabilities needs a --prompt that is not empty");
        const std::vector<float> p = gen.probabilities(ids);
        const int V = net.numClasses();
        std::string csv = "position,id";
        for (int v = 0; v < V; ++v)
            csv += ",p_" + std::to_string(v); // as evaluate --predictions names them
        csv += "\n";
        char buf[32];
        for (size_t k = 0; k < ids.size(); ++k) {
            csv += std::to_string(k) + "," + std::to_string(int(ids[k]));
            for (int v = 0; v < V; ++v) {
                std::snprintf(buf, sizeof buf, ",%.9g", double(p[k * size_t(V) + size_t(v)]));
                csv += buf;
            }
            csv += "\n";
        }
        tb::writeFileAtomically(o.text("probabilities", ""), csv);
    }
    const bool json = o.has("json");
    const bool tty = isatty(fileno(stdout));
    TerminalFilter terminal;
    const auto shown = [&](const std::string& text) { return tty ? terminal(text) : text; };
    if (json) {
        nlohmann::ordered_json j;
        j["event"] = "start";
        j["prompt"] = g.prompt;
        printJson(j);
    } else if (g.streams == 1) {
        std::fputs(shown(g.prompt).c_str(), stdout);
    }
    // One stream: the symbols as they come; several: each stream's text once all are written. Ctrl-C
    // and SIGTERM end it after the symbol under way, with what was written so far.
    const StopOnSignals stopOn;
    int symbolCount = 0; // each stream's, written so far
    const std::vector<std::string> texts = gen.generate(g, [&](const tb::GeneratedSymbol& s) {
        symbolCount = s.index + 1;
        if (json) {
            nlohmann::ordered_json j;
            j["stream"] = s.stream;
            j["index"] = s.index;
            j["id"] = s.id;
            j["text"] = tb::printableSample(s.text) == s.text || s.text == "\n" ? s.text : "?"; // JSON holds UTF-8 only
            j["bytes"] = w.classNames[size_t(s.id)]; // the symbol's bytes in hex: any text rebuilt ("?" is many)
            j["probability"] = s.probability;
            printJson(j);
        } else if (g.streams == 1) {
            const std::string text = shown(s.text);
            std::fwrite(text.data(), 1, text.size(), stdout);
            std::fflush(stdout);
            stopIfOutputLost(); // the reader of the pipe ended: no more to write
        }
        return !g_interrupted.load();
    });
    if (!json) {
        if (g.streams == 1)
            std::printf("%s\n", terminal.rest().c_str());
        else
            for (size_t k = 0; k < texts.size(); ++k) {
                std::string text = shown(g.prompt + texts[k]); // a zero byte too, when piped
                text += terminal.rest();                       // after the stream's own text: in this order
                text += '\n';
                std::printf("--- stream %zu ---\n", k + 1);
                std::fwrite(text.data(), 1, text.size(), stdout);
            }
    }
    const bool stopped = g_interrupted.load() && symbolCount < g.length; // a signal after the end: whole
    if (json) { // the last line, as train's: whether the text is whole
        nlohmann::ordered_json j;
        j["event"] = stopped ? "stopped" : "done";
        if (stopped)
            j["exit_code"] = stopCode();
        j["streams"] = g.streams;
        j["symbols"] = symbolCount;
        printJson(j);
    }
    if (stopped) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s.\n", stopText().c_str());
        return stopCode();
    }
    return Ok;
}

} // namespace tbcli
