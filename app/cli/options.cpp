#include "options.hpp"

#include "train/train_options.hpp"

#include <algorithm>

namespace tbcli {

namespace {
// Edits from a to b: insertions, deletions, substitutions and swaps of neighbours (optimal string
// alignment).
size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}
} // namespace

std::string likelyMeant(const std::string& typed, const std::vector<std::string>& names)
{
    std::string best;
    size_t bestDistance = std::min<size_t>(3, (typed.size() + 1) / 2); // what counts as near
    bool tie = false;
    for (const std::string& n : names) {
        const size_t d = editDistance(typed, n);
        if (d < bestDistance) {
            best = n;
            bestDistance = d;
            tie = false;
        } else if (d == bestDistance && !best.empty() && n != best) {
            tie = true;
        }
    }
    return tie ? std::string() : best;
}

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
                 const std::set<std::string>& flags)
{
    for (size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        if (a.rfind("--", 0) != 0)
            throw UsageError("unexpected argument \"" + a + "\"");
        std::string value;
        bool inlineValue = false;
        if (const auto eq = a.find('='); eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            inlineValue = true;
        }
        const std::string name = a.substr(2);
        if (flags.count(name)) {
            if (inlineValue)
                throw UsageError("--" + name + " takes no value");
            m_flags.insert(name);
        } else if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= args.size())
                    throw UsageError("--" + name + " needs a value");
                // `report -o --json` wrote a report named --json: an option's name is not a value
                // (--out=--json is, for whoever wants that name). generate's prompt is any text.
                const std::string& next = args[i + 1];
                const std::string nextName = next.rfind("--", 0) == 0 ? next.substr(2, next.find('=') - 2) : "";
                if (name != "prompt" && (valued.count(nextName) || flags.count(nextName)))
                    throw UsageError("--" + name + " needs a value before " + next + " (--" + name + "=" + next +
                                     " gives it that value)");
                value = args[++i];
            }
            // `--data ""` read as the current folder's "" and said "dataset folder  does not exist".
            if (value.empty() && name != "prompt") // generate's prompt may be empty: its default
                throw UsageError("--" + name + " needs a value, not an empty one");
            m_values[name] = value;
        } else {
            std::vector<std::string> names(valued.begin(), valued.end());
            names.insert(names.end(), flags.begin(), flags.end());
            const std::string meant = likelyMeant(name, names);
            throw UsageError("unknown option --" + name + (meant.empty() ? "" : "; did you mean --" + meant + "?"));
        }
    }
}

std::map<std::string, std::string> Options::given() const
{
    std::map<std::string, std::string> all = m_values;
    for (const std::string& f : m_flags)
        all[f] = "";
    return all;
}

std::string Options::text(const std::string& name, const std::string& def) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? def : it->second;
}

// The numbers are checked as the training options are (train/train_options.hpp): the same messages.
long long Options::integer(const std::string& name, long long def, long long lo, long long hi) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? def : tb::parseWholeOption(name, it->second, lo, hi);
}

unsigned long long Options::unsignedInt(const std::string& name, unsigned long long def) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? def : tb::parseUnsignedOption(name, it->second);
}

double Options::real(const std::string& name, double def) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? def : tb::parseRealOption(name, it->second);
}

} // namespace tbcli
