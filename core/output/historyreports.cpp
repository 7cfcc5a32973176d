#include "core/output/historyreports.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/baseline.h"
#include "core/analysis/numberformat.h"
#include "core/model/runselection.h"
#include "core/output/celljson.h"
#include "core/output/csvwriter.h"

namespace paretoscope {
namespace {

using json = nlohmann::ordered_json;

json readingJson(const LadderRow& r)
{
    const auto& g = r.entry.group;
    json o;
    o["status"] = std::string(statusName(r.entry.status));
    o["tput_per_gpu"] = optionalNumberJson(r.entry.value);
    o["engine"] = g ? json(g->engine) : json(nullptr);
    o["precision"] = g ? json(g->precision) : json(nullptr);
    o["spec_decoding"] = g ? json(g->specDecoding) : json(nullptr);
    o["cost_per_mtok"] = optionalNumberJson(r.costPerMTok);
    o["tput_low"] = optionalNumberJson(r.entry.low);
    o["tput_high"] = optionalNumberJson(r.entry.high);
    return o;
}

std::vector<std::string> readingCells(const LadderRow& r)
{
    const auto& g = r.entry.group;
    auto num = [](const std::optional<double>& v) { return v ? csvNumber(*v) : std::string(); };
    return { std::string(statusName(r.entry.status)), num(r.entry.value), g ? csvText(g->engine) : "",
        g ? csvText(g->precision) : "", g ? csvText(g->specDecoding) : "", num(r.costPerMTok), num(r.entry.low),
        num(r.entry.high) };
}

std::string valueText(const LadderRow& r)
{
    if (!r.entry.value)
        return "-";
    std::string v = withThousands(*r.entry.value);
    if (r.entry.low && r.entry.high)
        v += " [" + withThousands(*r.entry.low) + " - " + withThousands(*r.entry.high) + "]";
    return v;
}

std::string changeText(const DiffRow& d)
{
    if (!d.changePct)
        return "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.1f%%", *d.changePct);
    return d.withinSpread ? std::string(buf) + " (" + kWithinSpreadWords + ")" : buf;
}

std::string aligned(const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], displayWidth(row[i]));
    std::string out;
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            out += (i ? "  " : "") + row[i] + std::string(width[i] - row[i].size(), ' ');
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        out += "\n";
    }
    return out;
}

} // namespace

std::string historyJson(const std::vector<HardwareHistory>& history)
{
    json root = json::object();
    for (const HardwareHistory& h : history) {
        json points = json::array();
        for (const HistoryPoint& p : h.points) {
            json o;
            o["date"] = dayText(p.day);
            o.update(readingJson(p.row));
            points.push_back(std::move(o));
        }
        root[h.hardware] = std::move(points);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string historyCsv(const std::vector<HardwareHistory>& history)
{
    std::string out = csvLine({ "hardware", "date", "status", "tput_per_gpu_tok_s", "engine", "precision",
        "spec_decoding", "cost_usd_per_mtok", "tput_low_tok_s", "tput_high_tok_s" });
    for (const HardwareHistory& h : history)
        for (const HistoryPoint& p : h.points) {
            std::vector<std::string> cells { csvText(h.hardware), dayText(p.day) };
            for (std::string& c : readingCells(p.row))
                cells.push_back(std::move(c));
            out += csvLine(cells);
        }
    return out;
}

std::string historyTable(const std::vector<HardwareHistory>& history, TputMetric metric)
{
    std::vector<std::vector<std::string>> rows { { "hardware", "date", std::string(metricName(metric)) + " tok/s/GPU",
        "engine", "precision", "spec", "$/1M tok", "status" } };
    for (const HardwareHistory& h : history) {
        const LadderRow* before = nullptr;
        for (const HistoryPoint& p : h.points) {
            const auto& g = p.row.entry.group;
            // an engine or precision that differs from the reading before is where a frontier changed hands
            auto mark = [&](const std::string& now, std::string GroupKey::*field) {
                const bool changed = before && before->entry.group && g && (*before->entry.group).*field != now;
                return changed ? now + " *" : now;
            };
            rows.push_back({ h.hardware, dayText(p.day), valueText(p.row), g ? mark(g->engine, &GroupKey::engine) : "-",
                g ? mark(g->precision, &GroupKey::precision) : "-", g ? g->specDecoding : "-",
                p.row.costPerMTok ? money(*p.row.costPerMTok) : "-", std::string(statusName(p.row.entry.status)) });
            if (g)
                before = &p.row;
        }
    }
    return aligned(rows);
}

std::string diffJson(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after)
{
    json root = json::object();
    for (const HardwareDiff& h : diff) {
        json rows = json::array();
        for (const DiffRow& d : h.rows) {
            json o;
            o["target"] = d.before.entry.target;
            o["before"] = readingJson(d.before);
            o["before"]["date"] = before;
            o["after"] = readingJson(d.after);
            o["after"]["date"] = after;
            o["change_pct"] = optionalNumberJson(d.changePct);
            o["within_spread"] = d.withinSpread;
            rows.push_back(std::move(o));
        }
        root[h.hardware] = std::move(rows);
    }
    return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string diffCsv(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after)
{
    std::vector<std::string> header { "hardware", "target_tok_s_user" };
    for (const std::string& side : { before, after })
        for (const char* c : { "status", "tput_per_gpu_tok_s", "engine", "precision", "spec_decoding",
                 "cost_usd_per_mtok", "tput_low_tok_s", "tput_high_tok_s" })
            header.push_back(std::string(c) + "@" + side);
    header.insert(header.end(), { "change_pct", "within_spread" });
    std::string out = csvLine(header);
    for (const HardwareDiff& h : diff)
        for (const DiffRow& d : h.rows) {
            std::vector<std::string> cells { csvText(h.hardware), csvNumber(d.before.entry.target) };
            for (const LadderRow* r : { &d.before, &d.after })
                for (std::string& c : readingCells(*r))
                    cells.push_back(std::move(c));
            cells.push_back(d.changePct ? csvNumber(*d.changePct) : "");
            cells.push_back(d.withinSpread ? "true" : "false");
            out += csvLine(cells);
        }
    return out;
}

std::string diffTable(const std::vector<HardwareDiff>& diff, const std::string& before, const std::string& after)
{
    std::vector<std::vector<std::string>> rows { { "hardware", "tok/s/user", "as of " + before, "engine",
        "as of " + after, "engine", "change" } };
    for (const HardwareDiff& h : diff)
        for (const DiffRow& d : h.rows) {
            char target[32];
            std::snprintf(target, sizeof target, "%g", d.before.entry.target);
            rows.push_back(
                { h.hardware, target, valueText(d.before), d.before.entry.group ? d.before.entry.group->engine : "-",
                    valueText(d.after), d.after.entry.group ? d.after.entry.group->engine : "-", changeText(d) });
        }
    return aligned(rows);
}

} // namespace paretoscope
