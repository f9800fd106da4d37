#include "io/json.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tb {

const Json* Json::find(const std::string& key) const
{
    for (const auto& [k, v] : m_members)
        if (k == key)
            return &v;
    return nullptr;
}

Json& Json::operator[](const std::string& key)
{
    if (m_type == Type::Null)
        m_type = Type::Object;
    for (auto& [k, v] : m_members)
        if (k == key)
            return v;
    m_members.emplace_back(key, Json());
    return m_members.back().second;
}

const char* Json::typeName(Type t)
{
    switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
    }
    return "?";
}

namespace {
void dumpString(const std::string& s, std::string& out)
{
    out += '"';
    for (unsigned char ch : s) {
        switch (ch) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (ch < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", ch);
                out += buf;
            } else {
                out += char(ch);
            }
        }
    }
    out += '"';
}
}  // namespace

void Json::dumpTo(std::string& out) const
{
    switch (m_type) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += m_bool ? "true" : "false"; break;
    case Type::Number: {
        if (!std::isfinite(m_number)) {
            out += "null";  // JSON has no NaN/Inf
        } else if (m_number == std::floor(m_number) && std::fabs(m_number) < 1e15) {
            out += std::to_string(int64_t(m_number));
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.9g", m_number);
            out += buf;
        }
        break;
    }
    case Type::String: dumpString(m_string, out); break;
    case Type::Array:
        out += '[';
        for (size_t i = 0; i < m_items.size(); ++i) {
            if (i)
                out += ',';
            m_items[i].dumpTo(out);
        }
        out += ']';
        break;
    case Type::Object:
        out += '{';
        for (size_t i = 0; i < m_members.size(); ++i) {
            if (i)
                out += ',';
            dumpString(m_members[i].first, out);
            out += ':';
            m_members[i].second.dumpTo(out);
        }
        out += '}';
        break;
    }
}

std::string Json::dump() const
{
    std::string s;
    dumpTo(s);
    return s;
}

namespace {
class Parser {
public:
    explicit Parser(const std::string& t) : m_t(t) {}

    Json parseDocument()
    {
        Json v = value(0);
        ws();
        if (m_p != m_t.size())
            fail("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        int line = 1, col = 1;
        for (size_t i = 0; i < m_p && i < m_t.size(); ++i) {
            if (m_t[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw Error("JSON error at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + what);
    }
    void ws()
    {
        while (m_p < m_t.size() && (m_t[m_p] == ' ' || m_t[m_p] == '\t' || m_t[m_p] == '\n' || m_t[m_p] == '\r'))
            ++m_p;
    }
    bool eat(char c)
    {
        ws();
        if (m_p < m_t.size() && m_t[m_p] == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!eat(c))
            fail(std::string("expected '") + c + "'");
    }
    bool literal(const char* word)
    {
        const std::string w(word);
        if (m_t.compare(m_p, w.size(), w) == 0) {
            m_p += w.size();
            return true;
        }
        return false;
    }
    Json value(int depth)
    {
        if (depth > 64)
            fail("nesting too deep");
        ws();
        if (m_p >= m_t.size())
            fail("unexpected end of input");
        const char c = m_t[m_p];
        if (c == '{') {
            ++m_p;
            Json o = Json::object();
            if (eat('}'))
                return o;
            do {
                ws();
                if (m_p >= m_t.size() || m_t[m_p] != '"')
                    fail("expected a quoted member name");
                std::string key = string();
                if (o.find(key))
                    fail("duplicate member \"" + key + "\"");
                expect(':');
                o[key] = value(depth + 1);
            } while (eat(','));
            expect('}');
            return o;
        }
        if (c == '[') {
            ++m_p;
            Json a = Json::array();
            if (eat(']'))
                return a;
            do {
                a.push(value(depth + 1));
            } while (eat(','));
            expect(']');
            return a;
        }
        if (c == '"')
            return Json(string());
        if (literal("true"))
            return Json(true);
        if (literal("false"))
            return Json(false);
        if (literal("null"))
            return Json();
        if (c == '-' || (c >= '0' && c <= '9')) {
            const char* start = m_t.c_str() + m_p;
            char* end = nullptr;
            const double d = std::strtod(start, &end);
            if (end == start)
                fail("malformed number");
            m_p += size_t(end - start);
            return Json(d);
        }
        fail(std::string("unexpected character '") + c + "'");
    }
    std::string string()
    {
        ++m_p;  // opening quote
        std::string s;
        while (m_p < m_t.size() && m_t[m_p] != '"') {
            char c = m_t[m_p++];
            if (c == '\\') {
                if (m_p >= m_t.size())
                    fail("unterminated string");
                const char e = m_t[m_p++];
                switch (e) {
                case '"': s += '"'; break;
                case '\\': s += '\\'; break;
                case '/': s += '/'; break;
                case 'b': s += '\b'; break;
                case 'f': s += '\f'; break;
                case 'n': s += '\n'; break;
                case 'r': s += '\r'; break;
                case 't': s += '\t'; break;
                case 'u': {
                    if (m_p + 4 > m_t.size())
                        fail("bad \\u escape");
                    const unsigned cp = unsigned(std::strtoul(m_t.substr(m_p, 4).c_str(), nullptr, 16));
                    m_p += 4;
                    if (cp < 0x80) {
                        s += char(cp);
                    } else if (cp < 0x800) {
                        s += char(0xC0 | (cp >> 6));
                        s += char(0x80 | (cp & 0x3F));
                    } else {
                        s += char(0xE0 | (cp >> 12));
                        s += char(0x80 | ((cp >> 6) & 0x3F));
                        s += char(0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default: fail("bad escape in string");
                }
            } else {
                s += c;
            }
        }
        if (m_p >= m_t.size())
            fail("unterminated string");
        ++m_p;
        return s;
    }

    const std::string& m_t;
    size_t m_p = 0;
};
}  // namespace

Json Json::parse(const std::string& text) { return Parser(text).parseDocument(); }

}  // namespace tb
