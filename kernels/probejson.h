#pragma once

// The probe's JSON output, written without nlohmann/json: scripts/gpu-check.sh builds the probe with nvcc alone on a
// machine that has nothing else installed, from a clean clone. Objects keep their keys in insertion order; NaN and
// infinities are written as null (as nlohmann does). Only what the probe needs: building and dumping, plus reading a
// number or a flag back (the tests).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace paretoscope::probe {

class Json {
public:
    Json() = default;
    Json(bool b)
        : m_kind(Kind::Bool)
        , m_bool(b)
    {
    }
    template <typename T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) Json(T v)
        : m_kind(std::is_integral_v<T> ? Kind::Integer : Kind::Number)
        , m_number(double(v))
        , m_integer(std::is_integral_v<T> ? static_cast<long long>(v) : 0)
    {
    }
    Json(const char* s)
        : m_kind(Kind::String)
        , m_string(s)
    {
    }
    Json(std::string s)
        : m_kind(Kind::String)
        , m_string(std::move(s))
    {
    }
    /// An object from key-value pairs: { { "pass", true }, { "values", n } }.
    Json(std::initializer_list<std::pair<const char*, Json>> members)
        : m_kind(Kind::Object)
    {
        for (const auto& [k, v] : members)
            (*this)[k] = v;
    }

    /// The member named key, added (null) when absent; a null value becomes an object.
    Json& operator[](const std::string& key)
    {
        if (m_kind == Kind::Null)
            m_kind = Kind::Object;
        for (auto& [k, v] : m_members)
            if (k == key)
                return v;
        m_members.emplace_back(key, Json());
        return m_members.back().second;
    }
    /// The member named key, or nullptr.
    const Json* find(const std::string& key) const
    {
        for (const auto& [k, v] : m_members)
            if (k == key)
                return &v;
        return nullptr;
    }
    /// Copies other's members into this object, replacing those of the same name.
    void update(const Json& other)
    {
        for (const auto& [k, v] : other.m_members)
            (*this)[k] = v;
    }
    double number() const { return m_kind == Kind::Integer ? double(m_integer) : m_number; }
    bool flag() const { return m_bool; }

    /// The text, indented by indent spaces a level.
    std::string dump(int indent = 2) const
    {
        std::string out;
        write(out, indent, 0);
        return out;
    }

private:
    enum class Kind { Null, Bool, Integer, Number, String, Object };

    static void writeString(std::string& out, const std::string& s)
    {
        out += '"';
        for (unsigned char c : s) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += char(c);
            } else if (c < 0x20) {
                const char* hex = "0123456789abcdef";
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += char(c);
            }
        }
        out += '"';
    }

    void write(std::string& out, int indent, int depth) const
    {
        char buf[32];
        switch (m_kind) {
        case Kind::Null:
            out += "null";
            return;
        case Kind::Bool:
            out += m_bool ? "true" : "false";
            return;
        case Kind::Integer:
            out.append(buf, std::to_chars(buf, buf + sizeof buf, m_integer).ptr);
            return;
        case Kind::Number:
            if (!std::isfinite(m_number))
                out += "null";
            else
                out.append(buf, std::to_chars(buf, buf + sizeof buf, m_number).ptr);
            return;
        case Kind::String:
            writeString(out, m_string);
            return;
        case Kind::Object:
            if (m_members.empty()) {
                out += "{}";
                return;
            }
            out += "{\n";
            for (std::size_t i = 0; i < m_members.size(); ++i) {
                out.append(std::size_t(indent) * (depth + 1), ' ');
                writeString(out, m_members[i].first);
                out += ": ";
                m_members[i].second.write(out, indent, depth + 1);
                out += i + 1 < m_members.size() ? ",\n" : "\n";
            }
            out.append(std::size_t(indent) * depth, ' ');
            out += '}';
            return;
        }
    }

    Kind m_kind = Kind::Null;
    bool m_bool = false;
    double m_number = 0;
    long long m_integer = 0;
    std::string m_string;
    std::vector<std::pair<std::string, Json>> m_members;
};

} // namespace paretoscope::probe
