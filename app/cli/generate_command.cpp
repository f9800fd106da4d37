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
#include <optional>
#include <utility>

#include <unistd.h>

namespace tbcli {
namespace {
// For a terminal: control bytes other than a newline, tab or carriage return as "?", and so the C1
// controls (U+0080 to U+009F) and any byte that is not part of well-formed UTF-8: a lone 0x9B is CSI
// on an 8-bit terminal, which an escape sequence would follow. A model writes any byte it learned, or,
// hot enough, any byte at all. A byte model writes a character's bytes as several symbols, so a
// sequence left incomplete at the end of one piece waits for the next piece. Piped or redirected,
// the bytes go as written.
class TerminalFilter {
public:
    std::string operator()(const std::string& piece)
    {
        const std::string text = m_pending + piece;
        m_pending.clear();
        std::string out;
        out.reserve(text.size());
        const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
        for (size_t i = 0; i < text.size();) {
            const unsigned char b = at(i);
            if (b < 0x80) {
                out += (b < 0x20 && b != '\n' && b != '\t' && b != '\r') || b == 0x7f ? '?' : char(b);
                ++i;
                continue;
            }
            const tb::Utf8Lead lead = tb::utf8Lead(b);
            const size_t n = lead.length;
            size_t k = 1;
            while (n > 0 && k < n && i + k < text.size() && at(i + k) >= (k == 1 ? lead.low : 0x80) &&
                   at(i + k) <= (k == 1 ? lead.high : 0xbf))
                ++k;
            if (n > 0 && k < n && i + k == text.size()) { // well-formed so far: the rest may come
                m_pending = text.substr(i);
                break;
            }
            if (n == 0 || k < n) { // a byte that starts nothing, or a sequence cut short
                out += '?';
                ++i;
                continue;
            }
            const bool c1 = b == 0xc2 && at(i + 1) < 0xa0;
            out += c1 ? std::string("?") : text.substr(i, n);
            i += n;
        }
        return out;
    }
    // What waits for a next piece that will not come: an incomplete sequence, a "?" for each byte.
    std::string rest() { return std::string(std::exchange(m_pending, std::string()).size(), '?'); }

private:
    std::string m_pending;
};
} // namespace

int generateCommand(const std::vector<std::string>& args)
{
    const Options o = commandOptions(*findCommand("generate"), args);
    if (!o.has("weights"))
        throw UsageError("--weights FILE is required (the .tbw or .safetensors of a text model)");
    requireModelWithData(o, "its text gives the vocabulary to");
    // A safetensors file of another program: --model names its text model, and --data's text gives its
    // vocabulary (cut as --vocabulary says), read only for such a file.
    std::optional<tb::Dataset> text;
    const tb::WeightsFile w = loadWeightsOption(o, [&](const tb::ModelSpec& spec) {
        if (!spec.isText())
            throw UsageError("--model " + o.text("model", "") + " is not a text model (" + spec.name +
                             "): generate writes with a text model");
        text = loadData(o, spec, {}, false);
        return &*text;
    });
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
    if (o.has("probabilities") && ids.empty())
        throw UsageError("--probabilities needs a --prompt that is not empty");
    // Ctrl-C and SIGTERM end it at the model's next step: while the prompt is read (a long one takes a
    // while), or after the symbol under way, with what was written so far.
    const StopOnSignals stopOn;
    bool stopped = false; // by a signal, before the end
    const auto stopRequested = [&] { return stopped = g_interrupted.load(); };
    // What the interop checks compare: the next-symbol distribution after each prompt symbol, from a
    // fresh state, as CSV rows "position,id,p_0,...,p_{V-1}". Stopped while the prompt is read, nothing
    // is written: some of its rows would pass for all of them.
    const std::vector<float> p = o.has("probabilities") ? gen.probabilities(ids, stopRequested) : std::vector<float>();
    if (o.has("probabilities") && !stopped) {
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
    // One stream: the symbols as they come; several: each stream's text once all are written.
    int symbolCount = 0; // each stream's, written so far
    const auto onSymbol = [&](const tb::GeneratedSymbol& s) {
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
    };
    const std::vector<std::string> texts =
        stopped ? std::vector<std::string>(size_t(g.streams)) : gen.generate(g, onSymbol, stopRequested);
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
        if (o.has("probabilities") && p.size() < ids.size() * size_t(net.numClasses()))
            std::fprintf(stderr, "%s: %s was not written.\n", stopText().c_str(), o.text("probabilities", "").c_str());
        else
            std::fprintf(stderr, "%s.\n", stopText().c_str());
        return stopCode();
    }
    return Ok;
}

} // namespace tbcli
