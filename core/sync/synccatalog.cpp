#include "core/sync/synccatalog.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <set>

#include "core/import/bytesource.h"
#include "core/import/documentstream.h"
#include "core/model/modelnames.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"
#include "core/model/runselection.h"

namespace paretoscope {
namespace {

std::string lengthLabel(int n)
{
    return n % 1024 == 0 ? std::to_string(n / 1024) + "k" : std::to_string(n);
}

std::optional<int> parseLength(std::string_view t)
{
    int scale = 1;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'K')) {
        scale = 1024;
        t.remove_suffix(1);
    }
    int n = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || n <= 0 || n > 4'000'000 / scale)
        return std::nullopt;
    return n * scale;
}

// A length field of a row: a whole number, null or absent (the agentic scenario has none); -1 for any other value.
int lengthOf(const nlohmann::json& row, const char* field)
{
    auto it = row.find(field);
    if (it == row.end() || it->is_null())
        return 0;
    if (!it->is_number_integer() && !it->is_number_unsigned())
        return -1;
    const auto v = it->get<long long>();
    return v >= 0 && v <= 4'000'000 ? static_cast<int>(v) : -1;
}

// The answer as it lies in memory, read as a stream of rows.
class ViewSource final : public ByteSource {
public:
    ViewSource(std::string_view text, std::string name)
        : m_text(text)
        , m_name(std::move(name))
    {
    }
    Result<std::size_t> read(char* dst, std::size_t n) override
    {
        const std::size_t take = std::min(n, m_text.size() - m_at);
        std::memcpy(dst, m_text.data() + m_at, take);
        m_at += take;
        return take;
    }
    std::uint64_t size() const override { return m_text.size(); }
    const std::string& name() const override { return m_name; }

private:
    std::string_view m_text;
    std::string m_name;
    std::size_t m_at = 0;
};

} // namespace

std::string SyncSequence::label() const
{
    if (agentic)
        return "agentic";
    return lengthLabel(isl) + "/" + lengthLabel(osl);
}

Result<SyncSequence> parseSyncSequence(std::string_view text)
{
    if (text == "agentic" || text == "agentic_traces")
        return SyncSequence { 0, 0, true };
    const auto slash = text.find('/');
    if (slash != std::string_view::npos) {
        auto isl = parseLength(text.substr(0, slash));
        auto osl = parseLength(text.substr(slash + 1));
        if (isl && osl)
            return SyncSequence { *isl, *osl, false };
    }
    return Error { "sequence '" + std::string(text)
        + "': give input/output lengths as 1k/1k, 8k/1k, 1024/8192 ..., or agentic" };
}

Result<SyncCatalog> parseAvailability(std::string_view json, const std::string& name)
{
    // read a row at a time (the whole list as one document took 1.4 GB for a 150 MB answer); the row limit holds
    // while reading
    const auto first = json.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || json[first] != '[')
        return Error { name + ": not the availability route's answer: expected an array of rows, got "
            + (first == std::string_view::npos ? std::string("nothing")
                    : json[first] == '{'       ? std::string("an object")
                                               : "text starting " + printable(json.substr(first, 1))) };
    struct Grouped {
        std::set<std::string> keys;
        std::set<std::string> dates;
    };
    std::map<std::pair<std::string, SyncSequence>, Grouped> units;
    std::set<std::string> unnamed;
    std::size_t index = 0;
    ViewSource source(json, name);
    StreamLimits limits;
    limits.maxElementBytes = 1u << 20; // a row is a few hundred bytes
    limits.maxDepth = 8;
    const Status read = forEachJsonElement(
        source, limits,
        [&](const JsonElement& element) -> Status {
            ++index;
            const std::string where = name + ": row " + std::to_string(index) + ": ";
            if (index > kMaxAvailabilityRows)
                return Error { name + ": more than " + std::to_string(kMaxAvailabilityRows) + " rows: refused" };
            auto parsed = parseOutsideJson(element.text, name + ": row " + std::to_string(index), 8);
            if (!parsed)
                return Error { parsed.error() };
            const nlohmann::json& row = *parsed;
            if (!row.is_object())
                return Error { where + "not an object" };
            auto model = row.find("model");
            if (model == row.end() || !model->is_string() || model->get_ref<const std::string&>().empty()
                || model->get_ref<const std::string&>().size() > 200)
                return Error { where + "field 'model': missing, not a name or longer than 200 characters" };
            auto date = row.find("date");
            if (date == row.end() || !date->is_string())
                return Error { where + "field 'date': missing or not a yyyy-mm-dd date" };
            std::string_view day = date->get_ref<const std::string&>();
            if (day.size() > 10 && day[10] == 'T') // a time of day after it
                day = day.substr(0, 10);
            if (std::string problem = outsideDateProblem(day); !problem.empty())
                return Error { where + "field 'date': " + problem };
            const int isl = lengthOf(row, "isl");
            const int osl = lengthOf(row, "osl");
            if (isl < 0 || osl < 0)
                return Error { where + "field '" + (isl < 0 ? "isl" : "osl")
                    + "': not a whole number of tokens from 0 to 4,000,000" };
            const std::string& key = model->get_ref<const std::string&>();
            std::string display = modelDisplayName(key);
            if (display == key)
                unnamed.insert(key);
            // the agentic scenario: rows without lengths, or marked so whatever their lengths
            auto type = row.find("benchmark_type");
            const bool agentic = (isl == 0 && osl == 0)
                || (type != row.end() && type->is_string() && type->get_ref<const std::string&>() == "agentic_traces");
            const SyncSequence seq = agentic ? SyncSequence { 0, 0, true } : SyncSequence { isl, osl, false };
            if (!agentic && (isl == 0 || osl == 0))
                return Error { where + "field '" + (isl == 0 ? "isl" : "osl")
                    + "': missing where the other length is given" };
            Grouped& g = units[{ std::move(display), seq }];
            g.keys.insert(key);
            g.dates.insert(std::string(day));
            return ok();
        },
        nullptr);
    if (!read)
        return Error { read.error() };
    SyncCatalog out;
    for (auto& [id, g] : units)
        out.units.push_back(
            SyncUnit { id.first, { g.keys.begin(), g.keys.end() }, id.second, { g.dates.begin(), g.dates.end() } });
    for (const std::string& key : unnamed)
        out.notes.push_back("model key '" + key + "' is not in the model name table: synced under its key");
    return out;
}

} // namespace paretoscope
