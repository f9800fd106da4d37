#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace tbcli {

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
                value = args[++i];
            }
            m_values[name] = value;
        } else {
            throw UsageError("unknown option --" + name);
        }
    }
}

std::string Options::text(const std::string& name, const std::string& def) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? def : it->second;
}

long long Options::integer(const std::string& name, long long def, long long lo, long long hi) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return def;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end || errno)
        throw UsageError("--" + name + " needs a whole number, not \"" + it->second + "\"");
    if (v < lo || v > hi)
        throw UsageError("--" + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return v;
}

unsigned long long Options::unsignedInt(const std::string& name, unsigned long long def) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return def;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
    if (it->second.empty() || it->second[0] == '-' || *end || errno)
        throw UsageError("--" + name + " needs a non-negative whole number, not \"" + it->second + "\"");
    return v;
}

double Options::real(const std::string& name, double def) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return def;
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end || !std::isfinite(v))
        throw UsageError("--" + name + " needs a number, not \"" + it->second + "\"");
    return v;
}

} // namespace tbcli
