// JSON in and out, through nlohmann-json (a packaged, fuzzed parser) rather than a parser of our
// own. parseJson adds what Trainbench's readers of outside bytes need: errors as tb::Error that
// give the line and column, duplicate member names refused (nlohmann would keep the last one
// silently) and at most 64 levels of nesting (nlohmann parses and destroys iteratively, but copying
// and writing a value recurse). jsonText writes compact JSON without ever throwing.
//
// The CLI, the benchmark and the tests build their JSON with nlohmann::ordered_json too (members
// stay in the order written) and write it with jsonText, which is why the engine passes
// nlohmann-json on to what links it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tb {

// Throws tb::Error("JSON error at line L, column C: what") when the text is not one JSON value.
nlohmann::ordered_json parseJson(const std::string& text);

// Compact JSON; NaN and infinities become null (JSON has neither), bytes that are not UTF-8 (a
// classes.txt in Latin-1, a folder name) become U+FFFD instead of an exception.
std::string jsonText(const nlohmann::ordered_json& v);

// The member `key` of an object, or nullptr (also when `object` is not an object).
const nlohmann::ordered_json* jsonMember(const nlohmann::ordered_json& object, const std::string& key);

// "a number", "a string", ... for messages that say what a member is and must be.
const char* jsonTypeName(const nlohmann::ordered_json& v);

// A float setting as JSON should hold it: the double of its shortest decimal (0.001f as 0.001, not
// as double(0.001f), 0.0010000000474974513), which reads back as the same float (every float does:
// the two whose shortest decimal would not are kept exact).
double jsonFloat(float v);

// A number read from JSON as a message shows it: whole numbers without a fraction.
std::string jsonNumberText(double v);

// v with `decimals` digits after the point, as printf's "%.*f" writes it ("0.50", "12.3"): the
// figures of the reports, charts and comparison tables (the engine sets no locale, so always a point).
std::string fixedText(double v, int decimals = 1);

} // namespace tb
