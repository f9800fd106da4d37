#include "core/json_text.hpp"

#include "core/errors.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iterator>
#include <set>
#include <vector>

namespace tb {

namespace {
constexpr int kMaxDepth = 64;

// Hands the text to nlohmann's parser and keeps how far it has read, so that what the parser
// callback refuses (a duplicate member, deep nesting) is reported at its line and column too.
class CountingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* p, size_t* read, const char* begin) : m_p(p), m_read(read), m_begin(begin) {}
    reference operator*() const { return *m_p; }
    CountingIterator& operator++()
    {
        ++m_p;
        *m_read = size_t(m_p - m_begin);
        return *this;
    }
    CountingIterator operator++(int)
    {
        CountingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return m_p == o.m_p; }
    bool operator!=(const CountingIterator& o) const { return m_p != o.m_p; }

private:
    const char* m_p;
    size_t* m_read;
    const char* m_begin;
};

// A refusal of the callback: the offset it was found at and what is wrong.
struct Refusal {
    size_t at;
    std::string what;
};

[[noreturn]] void fail(const std::string& text, size_t at, const std::string& what)
{
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < at && i < text.size(); ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    throw Error("JSON error at line " + std::to_string(line) + ", column " + std::to_string(at - lineStart + 1) + ": " +
                what);
}

// nlohmann's what() less its prefixes and its "last read" (the column says where, and the token it
// shows can hold what came before): "[json.exception.parse_error.101] parse error at line 1,
// column 13: syntax error while parsing value - unexpected end of input; expected ..." gives
// "unexpected end of input; expected ...".
std::string parseErrorText(const std::string& what)
{
    std::string s = what;
    if (const size_t colon = s.find(": "); s.rfind("[json.exception.", 0) == 0 && colon != std::string::npos)
        s = s.substr(colon + 2);
    if (s.rfind("syntax error while parsing ", 0) == 0)
        if (const size_t dash = s.find(" - "); dash != std::string::npos)
            s = s.substr(dash + 3);
    if (const size_t last = s.find("; last read: '"); last != std::string::npos) {
        const size_t end = s.find("'; ", last + 14);
        s.erase(last, end == std::string::npos ? std::string::npos : end + 1 - last);
    }
    return s;
}
} // namespace

nlohmann::ordered_json parseJson(const std::string& text)
{
    size_t read = 0;
    const char* begin = text.data();
    std::vector<std::set<std::string>> keys; // the member names of each object being read
    auto callback = [&](int depth, nlohmann::ordered_json::parse_event_t event, nlohmann::ordered_json& parsed) {
        using Event = nlohmann::ordered_json::parse_event_t;
        if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxDepth)
            throw Refusal{read - 1, "nesting deeper than " + std::to_string(kMaxDepth) + " levels"};
        if (event == Event::object_start)
            keys.emplace_back();
        else if (event == Event::object_end)
            keys.pop_back();
        else if (event == Event::key && !keys.back().insert(parsed.get<std::string>()).second)
            throw Refusal{read, "duplicate member \"" + parsed.get<std::string>() + "\""};
        return true;
    };
    try {
        return nlohmann::ordered_json::parse(CountingIterator(begin, &read, begin),
                                             CountingIterator(begin + text.size(), &read, begin), callback);
    } catch (const Refusal& r) {
        fail(text, r.at, r.what);
    } catch (const nlohmann::ordered_json::parse_error& e) {
        fail(text, e.byte ? e.byte - 1 : 0, parseErrorText(e.what()));
    } catch (const nlohmann::ordered_json::out_of_range& e) {
        // 406: a number beyond a double's range (1e999); its text is in the message. Reported
        // where it starts, which is the last place that text occurs in what the parser has read.
        const std::string what = parseErrorText(e.what());
        const size_t open = what.find('\''), close = what.rfind('\'');
        if (e.id == 406 && open != std::string::npos && close > open) {
            const std::string number = what.substr(open + 1, close - open - 1);
            const size_t at = text.rfind(number, read);
            fail(text, at == std::string::npos ? read : at, "the number " + number + " is out of range");
        }
        fail(text, read, what);
    } catch (const nlohmann::ordered_json::exception& e) {
        fail(text, read, parseErrorText(e.what()));
    }
}

std::string jsonText(const nlohmann::ordered_json& v)
{
    return v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

const nlohmann::ordered_json* jsonMember(const nlohmann::ordered_json& object, const std::string& key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const char* jsonTypeName(const nlohmann::ordered_json& v)
{
    switch (v.type()) {
    case nlohmann::ordered_json::value_t::null:
        return "null";
    case nlohmann::ordered_json::value_t::boolean:
        return "a boolean";
    case nlohmann::ordered_json::value_t::number_integer:
    case nlohmann::ordered_json::value_t::number_unsigned:
    case nlohmann::ordered_json::value_t::number_float:
        return "a number";
    case nlohmann::ordered_json::value_t::string:
        return "a string";
    case nlohmann::ordered_json::value_t::array:
        return "an array";
    case nlohmann::ordered_json::value_t::object:
        return "an object";
    default:
        return "binary data";
    }
}

std::string jsonNumberText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(int64_t(v));
    return jsonText(nlohmann::ordered_json(v));
}

double jsonFloat(float v)
{
    if (!std::isfinite(v))
        return double(v);
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, v); // the shortest that reads back as v
    double d = double(v);
    std::from_chars(text, written.ptr, d); // not strtod: the window's locale may want a comma
    // Read as a double, then made a float, the decimal rounds twice: for two floats of the 2^32
    // (+-7.038531e-26) that gives the next float. Those keep their exact double.
    return float(d) == v ? d : double(v);
}

std::string fixedText(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace tb
