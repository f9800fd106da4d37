// A small JSON value with a strict parser and a compact writer. Model files, the weights file
// header and the CLI's --json output use it; the engine takes no third-party dependency for it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tb {

class Json {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : m_type(Type::Bool), m_bool(b) {}
    Json(double d) : m_type(Type::Number), m_number(d) {}
    Json(int i) : m_type(Type::Number), m_number(i) {}
    Json(int64_t i) : m_type(Type::Number), m_number(double(i)) {}
    Json(const char* s) : m_type(Type::String), m_string(s) {}
    Json(std::string s) : m_type(Type::String), m_string(std::move(s)) {}
    static Json array() { Json j; j.m_type = Type::Array; return j; }
    static Json object() { Json j; j.m_type = Type::Object; return j; }

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool asBool() const { return m_bool; }
    double asNumber() const { return m_number; }
    const std::string& asString() const { return m_string; }
    const std::vector<Json>& items() const { return m_items; }
    // Object members in insertion order.
    const std::vector<std::pair<std::string, Json>>& members() const { return m_members; }

    const Json* find(const std::string& key) const;
    Json& operator[](const std::string& key);  // inserts when missing (objects)
    void push(Json v) { m_items.push_back(std::move(v)); }

    std::string dump() const;
    // Throws tb::Error with line and column on malformed input.
    static Json parse(const std::string& text);

    static const char* typeName(Type t);

private:
    void dumpTo(std::string& out) const;

    Type m_type = Type::Null;
    bool m_bool = false;
    double m_number = 0;
    std::string m_string;
    std::vector<Json> m_items;
    std::vector<std::pair<std::string, Json>> m_members;
};

}  // namespace tb
