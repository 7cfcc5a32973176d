#include "core/import/formats/fieldrules.h"
#include "core/model/asciitext.h"
#include "core/model/runselection.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace paretoscope::fields {
namespace {

Error fieldError(std::string_view key, const std::string& what)
{
    return Error { "field '" + std::string(key) + "': " + what };
}

std::string shown(const FieldValue& v)
{
    if (v.kind == FieldValue::Kind::Text) {
        std::string t(v.text.substr(0, 40));
        return "\"" + t + (v.text.size() > 40 ? "...\"" : "\"");
    }
    if (v.kind == FieldValue::Kind::Number) {
        if (!v.text.empty())
            return std::string(v.text.substr(0, 40));
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v.number);
        return buf;
    }
    return v.kindName();
}

// A JSON number that positive() accepts as it is: above zero and finite (NaN fails both comparisons).
bool isPositiveNumber(const FieldValue& v)
{
    return v.kind == FieldValue::Kind::Number && v.number > 0 && v.number <= std::numeric_limits<double>::max();
}

// A number from a JSON number, or from a CSV cell's text.
Result<std::optional<double>> number(std::string_view key, const FieldValue& v)
{
    if (v.kind == FieldValue::Kind::Null)
        return std::optional<double>();
    if (v.kind == FieldValue::Kind::Number)
        return std::optional<double>(v.number);
    if (v.kind == FieldValue::Kind::Text && v.fromCsv) {
        std::string_view t = v.text;
        if (t.empty())
            return std::optional<double>();
        double d = 0;
        auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
        if (ec == std::errc::result_out_of_range)
            return fieldError(key, "number out of range: " + shown(v));
        if (ec != std::errc() || ptr != t.data() + t.size())
            return fieldError(key, "expected a number, got " + shown(v));
        return std::optional<double>(d);
    }
    return fieldError(key, "expected a number, got " + shown(v));
}

} // namespace

Result<std::optional<double>> positive(std::string_view key, const FieldValue& v)
{
    auto n = number(key, v);
    if (!n || !*n)
        return n;
    double d = **n;
    if (std::isnan(d))
        return fieldError(key, "is NaN");
    if (!std::isfinite(d))
        return fieldError(key, "is infinite or out of range");
    if (d <= 0)
        return fieldError(
            key, std::string(d == 0 ? "is zero" : "is negative") + ", must be above zero (got " + shown(v) + ")");
    return n;
}

Result<std::optional<long long>> count(std::string_view key, const FieldValue& v)
{
    auto n = number(key, v);
    if (!n)
        return Error { n.error() };
    if (!*n)
        return std::optional<long long>();
    double d = **n;
    if (!std::isfinite(d) || d < 0 || d > 9.0e15 || d != std::floor(d))
        return fieldError(key, "expected a whole number at least zero, got " + shown(v));
    return std::optional<long long>(static_cast<long long>(d));
}

Result<std::optional<std::string>> text(std::string_view key, const FieldValue& v)
{
    switch (v.kind) {
    case FieldValue::Kind::Null:
        return std::optional<std::string>();
    case FieldValue::Kind::Text:
        if (v.fromCsv && v.text.empty())
            return std::optional<std::string>();
        return std::optional<std::string>(std::string(v.text));
    case FieldValue::Kind::Number:
        return std::optional<std::string>(std::string(v.text));
    default:
        return fieldError(key, "expected a string, got " + v.kindName());
    }
}

Result<std::optional<bool>> flag(std::string_view key, const FieldValue& v)
{
    switch (v.kind) {
    case FieldValue::Kind::Null:
        return std::optional<bool>();
    case FieldValue::Kind::Bool:
        return std::optional<bool>(v.boolean);
    case FieldValue::Kind::Number:
        if (v.number == 0 || v.number == 1)
            return std::optional<bool>(v.number == 1);
        break;
    case FieldValue::Kind::Text: {
        std::string t = asciiLower(v.text);
        if (t.empty() && v.fromCsv)
            return std::optional<bool>();
        if (t == "true" || t == "1")
            return std::optional<bool>(true);
        if (t == "false" || t == "0")
            return std::optional<bool>(false);
        break;
    }
    default:
        break;
    }
    return fieldError(key, "expected true or false, got " + shown(v));
}

Status assignPositive(std::string_view key, const FieldValue& v, std::optional<double>& out)
{
    if (isPositiveNumber(v)) { // the common case, decided as positive() would, without its result objects
        out = v.number;
        return ok();
    }
    auto n = positive(key, v);
    if (!n)
        return Error { n.error() };
    out = *n;
    return ok();
}

Status assignCount(std::string_view key, const FieldValue& v, int& out)
{
    // the common case, decided as count() and the bound below would, without their result objects
    if (v.kind == FieldValue::Kind::Number && v.number >= 0 && v.number <= 100000000
        && v.number == std::floor(v.number)) {
        out = static_cast<int>(v.number);
        return ok();
    }
    auto n = count(key, v);
    if (!n)
        return Error { n.error() };
    if (*n && **n > 100000000)
        return fieldError(key, "implausibly large (" + std::to_string(**n) + ")");
    out = static_cast<int>(n->value_or(0));
    return ok();
}

Status assignFraction(std::string_view key, const FieldValue& v, std::optional<double>& out, bool errorOfIt)
{
    if (v.kind == FieldValue::Kind::Null) {
        out.reset();
        return ok();
    }
    double x = v.number;
    if (v.kind == FieldValue::Kind::Text) {
        if (v.fromCsv && v.text.empty()) { // an empty cell: no value
            out.reset();
            return ok();
        }
        std::string text(v.text);
        char* end = nullptr;
        x = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size())
            return fieldError(key, "'" + text.substr(0, 64) + "' is not a number");
    } else if (v.kind != FieldValue::Kind::Number) {
        return fieldError(key, v.kindName() + ", expected a number");
    }
    // a fraction of the questions answered, or its standard error: 0 to 1 (a percentage would read 95.8)
    if (!std::isfinite(x) || x < 0 || x > 1)
        return fieldError(key,
            std::to_string(x) + " is outside 0 to 1 (a " + (errorOfIt ? "standard error" : "fraction of the questions")
                + ")");
    out = x;
    return ok();
}

std::optional<LatencyTarget> latencyTarget(std::string_view key)
{
    LatencyTarget out;
    if (key.ends_with("_ms")) {
        out.scale = 1e-3;
        key.remove_suffix(3);
    }
    auto us = key.find('_');
    if (us == std::string_view::npos)
        return std::nullopt;
    std::string_view stat = key.substr(0, us), metric = key.substr(us + 1);
    LatencyStats RunRecord::*m = nullptr;
    if (metric == "ttft")
        m = &RunRecord::ttft;
    else if (metric == "tpot")
        m = &RunRecord::tpot;
    else if (metric == "itl")
        m = &RunRecord::itl;
    else if (metric == "e2el" || metric == "e2e_latency")
        m = &RunRecord::e2el;
    else if (metric != "intvty")
        return std::nullopt;
    std::optional<double> LatencyStats::*st = nullptr;
    if (stat == "mean")
        st = &LatencyStats::mean;
    else if (stat == "median")
        st = &LatencyStats::median;
    else if (stat == "p90")
        st = &LatencyStats::p90;
    else if (stat == "p99")
        st = &LatencyStats::p99;
    else if (stat == "p99.9")
        st = &LatencyStats::p999;
    else if (stat != "std" && !(stat.size() > 1 && stat[0] == 'p'))
        return std::nullopt;
    // std is not kept (a source's std_intvty is meaningless); p95 and other percentiles are not kept either
    if (m && st) {
        out.metric = m;
        out.stat = st;
    }
    return out;
}

Status setLatency(RunRecord& r, const LatencyTarget& target, std::string_view key, const FieldValue& v)
{
    if (!target.metric)
        return ok();
    if (isPositiveNumber(v)) { // the common case, as assignPositive()
        (r.*target.metric).*target.stat = v.number * target.scale;
        return ok();
    }
    auto n = positive(key, v);
    if (!n)
        return Error { n.error() };
    if (*n)
        (r.*target.metric).*target.stat = **n * target.scale;
    else
        (r.*target.metric).*target.stat = std::nullopt;
    return ok();
}

std::string normaliseDate(std::string_view s)
{
    auto digits = [&](std::size_t from, std::size_t n) {
        if (s.size() < from + n)
            return false;
        for (std::size_t i = from; i < from + n; ++i)
            if (s[i] < '0' || s[i] > '9')
                return false;
        return true;
    };
    if (digits(0, 8) && (s.size() == 8 || s[8] == '-' || s[8] == 'T' || s[8] == '_'))
        return std::string(s.substr(0, 4)) + "-" + std::string(s.substr(4, 2)) + "-" + std::string(s.substr(6, 2));
    if (digits(0, 4) && s.size() >= 10 && s[4] == '-' && digits(5, 2) && s[7] == '-' && digits(8, 2))
        return std::string(s.substr(0, 10));
    return std::string(s);
}

Result<std::string> checkedDate(std::string_view key, std::string_view text)
{
    std::string date = normaliseDate(text);
    if (date.empty())
        return date;
    if (std::string problem = outsideDateProblem(date); !problem.empty())
        return Error { "field '" + std::string(key) + "': " + problem };
    return date;
}

} // namespace paretoscope::fields
