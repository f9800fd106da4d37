// Command-line options: "--name value" pairs and "--flag" switches, checked against what each
// command accepts. A malformed command line is a UsageError (exit code 2).
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tbcli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What a mistyped `typed` most likely meant among `names`: the one nearest to it, within two edits (a
// letter added, dropped or changed, or two neighbours swapped) and fewer than half its letters, when
// no other is as near; empty otherwise ("trian" gives "train", "--epoch" gives "epochs").
std::string likelyMeant(const std::string& typed, const std::vector<std::string>& names);

class Options {
public:
    // valued: options taking a value; flags: switches. Throws UsageError on anything else.
    Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
            const std::set<std::string>& flags);

    bool has(const std::string& name) const { return m_values.count(name) || m_flags.count(name); }
    std::string text(const std::string& name, const std::string& def) const;
    long long integer(const std::string& name, long long def, long long lo, long long hi) const;
    double real(const std::string& name, double def) const;
    unsigned long long unsignedInt(const std::string& name, unsigned long long def) const;
    // Every option given: name -> value, "" for a switch (what tb::applyTrainOptions reads).
    std::map<std::string, std::string> given() const;

private:
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

} // namespace tbcli
