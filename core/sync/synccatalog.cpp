#include "core/sync/synccatalog.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/model/modelnames.h"
#include "core/model/outsidejson.h"
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
    auto doc = parseOutsideJson(json, name, 8);
    if (!doc)
        return Error { doc.error() };
    if (!doc->is_array())
        return Error { name + ": not the availability route's answer: expected an array of rows, got "
            + std::string(doc->type_name()) };
    if (doc->size() > kMaxAvailabilityRows)
        return Error { name + ": more than " + std::to_string(kMaxAvailabilityRows) + " rows: refused" };
    struct Grouped {
        std::set<std::string> keys;
        std::set<std::string> dates;
    };
    std::map<std::pair<std::string, SyncSequence>, Grouped> units;
    std::set<std::string> unnamed;
    std::size_t index = 0;
    for (const nlohmann::json& row : *doc) {
        ++index;
        const std::string where = name + ": row " + std::to_string(index) + ": ";
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
    }
    SyncCatalog out;
    for (auto& [id, g] : units)
        out.units.push_back(
            SyncUnit { id.first, { g.keys.begin(), g.keys.end() }, id.second, { g.dates.begin(), g.dates.end() } });
    for (const std::string& key : unnamed)
        out.notes.push_back("model key '" + key + "' is not in the model name table: synced under its key");
    return out;
}

} // namespace paretoscope
