#include "core/analysis/planmix.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "core/analysis/numberformat.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"

namespace paretoscope {
namespace {

using json = nlohmann::json;

constexpr int kMaxLength = 10'000'000; // tokens: past any context window
constexpr double kMaxTarget = 1e6; // tok/s/user

// Spaces around a field are not part of it ("0.7, 8192/1024:0.3").
std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<double> number(std::string_view s)
{
    s = trimmed(s);
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<int> length(std::string_view s)
{
    s = trimmed(s);
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v <= 0 || v > kMaxLength)
        return std::nullopt;
    return v;
}

std::string lengthsLabel(int isl, int osl)
{
    return std::to_string(isl) + "/" + std::to_string(osl);
}

// Shares in (0, 1] that add up to 1; the parts' scopes each a distinct workload.
Status checkParts(const std::vector<MixPart>& parts, const std::string& where)
{
    if (parts.empty())
        return Error { where + "a mix needs at least one part" };
    if (parts.size() > kMaxMixParts)
        return Error { where + "a mix has at most " + std::to_string(kMaxMixParts) + " parts, this one "
            + std::to_string(parts.size()) };
    double sum = 0;
    for (const MixPart& p : parts)
        sum += p.share;
    if (std::abs(sum - 1) > 1e-6)
        return Error { where + "the parts' shares add up to " + shortNumber(sum) + ", not 1" };
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (parts[i].scope.model == parts[j].scope.model && parts[i].scope.isl == parts[j].scope.isl
                && parts[i].scope.osl == parts[j].scope.osl)
                return Error { where + "parts " + std::to_string(j + 1) + " and " + std::to_string(i + 1)
                    + " are the same workload (" + printable(parts[i].label) + "): give it one part" };
    return ok();
}

} // namespace

Result<std::vector<MixPart>> parseMixSpec(std::string_view spec, const Scope& base)
{
    std::vector<MixPart> parts;
    std::size_t start = 0;
    int index = 0;
    while (start <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', start), spec.size());
        const std::string_view item = trimmed(spec.substr(start, comma - start));
        start = comma + 1;
        ++index;
        const std::string where = "--mix part " + std::to_string(index) + " '" + printable(item) + "': ";
        if (parts.size() >= kMaxMixParts)
            return Error { "--mix: at most " + std::to_string(kMaxMixParts) + " parts" };
        const std::size_t slash = item.find('/'), colon = item.find(':'), at = item.find('@');
        if (slash == std::string_view::npos || colon == std::string_view::npos || colon < slash)
            return Error { where + "must be ISL/OSL:SHARE (e.g. 1024/1024:0.7), optionally @TARGET" };
        const auto isl = length(item.substr(0, slash));
        const auto osl = length(item.substr(slash + 1, colon - slash - 1));
        const std::size_t shareEnd = at == std::string_view::npos ? item.size() : at;
        std::optional<double> share;
        if (at == std::string_view::npos || at > colon)
            share = number(item.substr(colon + 1, shareEnd - colon - 1));
        if (!isl || !osl)
            return Error { where + "the lengths must be whole numbers of tokens above zero, at most "
                + withThousands(kMaxLength) };
        const double shareValue = share.value_or(0);
        if (!(shareValue > 0) || shareValue > 1)
            return Error { where + "the share must be a number above 0 and at most 1" };
        MixPart p;
        p.scope = base;
        p.scope.isl = *isl;
        p.scope.osl = *osl;
        p.scope.workload.clear();
        p.share = shareValue;
        p.label = lengthsLabel(*isl, *osl);
        if (at != std::string_view::npos) {
            const auto t = number(item.substr(at + 1));
            if (!t || !(*t > 0) || *t > kMaxTarget)
                return Error { where + "the target after @ must be a number above zero and at most "
                    + withThousands(kMaxTarget) + " (tok/s/user)" };
            p.target = *t;
        }
        parts.push_back(std::move(p));
        if (comma == spec.size())
            break;
    }
    if (auto s = checkParts(parts, "--mix: "); !s)
        return Error { s.error() };
    return parts;
}

Result<std::vector<MixPart>> parseMixFile(std::string_view text, const std::string& name, const Scope& base)
{
    auto doc = parseOutsideJson(text, name, 8);
    if (!doc)
        return Error { doc.error() };
    const std::string file = printable(name) + ": ";
    if (!doc->is_object() || !doc->contains("parts") || !(*doc)["parts"].is_array())
        return Error { file + "parts: must be an array of the mix's parts" };
    for (const auto& [key, value] : doc->items())
        if (key != "parts" && key != "note")
            return Error { file + printable(key) + ": not a field of a mix file (parts, note)" };
    const json& list = (*doc)["parts"];
    if (list.size() > kMaxMixParts)
        return Error { file + "parts: at most " + std::to_string(kMaxMixParts) + " parts" };
    std::vector<MixPart> parts;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& o = list[i];
        const std::string where = file + "parts[" + std::to_string(i) + "]";
        if (!o.is_object())
            return Error { where + ": must be an object" };
        for (const auto& [key, value] : o.items())
            if (key != "label" && key != "model" && key != "isl" && key != "osl" && key != "share" && key != "target")
                return Error { where + "." + printable(key)
                    + ": not a field of a part (label, model, isl, osl, "
                      "share, target)" };
        MixPart p;
        p.scope = base;
        p.scope.workload.clear();
        for (const char* key : { "isl", "osl" }) {
            const auto it = o.find(key);
            if (it == o.end() || !it->is_number_integer() || it->get<long long>() <= 0
                || it->get<long long>() > kMaxLength)
                return Error { where + "." + key + ": must be a whole number of tokens above zero, at most "
                    + withThousands(kMaxLength) };
            (std::string_view(key) == "isl" ? p.scope.isl : p.scope.osl) = int(it->get<long long>());
        }
        const auto share = o.find("share");
        if (share == o.end() || !share->is_number() || !(share->get<double>() > 0) || share->get<double>() > 1)
            return Error { where + ".share: must be a number above 0 and at most 1" };
        p.share = share->get<double>();
        if (const auto t = o.find("target"); t != o.end()) {
            if (!t->is_number() || !(t->get<double>() > 0) || t->get<double>() > kMaxTarget)
                return Error { where + ".target: must be a number above zero and at most " + withThousands(kMaxTarget)
                    + " (tok/s/user)" };
            p.target = t->get<double>();
        }
        if (const auto m = o.find("model"); m != o.end()) {
            if (!m->is_string() || m->get<std::string>().empty() || m->get<std::string>().size() > 200)
                return Error { where + ".model: must be a model name" };
            p.scope.model = m->get<std::string>();
        }
        p.label = lengthsLabel(*p.scope.isl, *p.scope.osl);
        if (const auto l = o.find("label"); l != o.end()) {
            if (!l->is_string() || l->get<std::string>().size() > 200)
                return Error { where + ".label: must be text (at most 200 characters)" };
            p.label = l->get<std::string>();
        }
        parts.push_back(std::move(p));
    }
    if (auto s = checkParts(parts, file); !s)
        return Error { s.error() };
    return parts;
}

std::string mixSpecText(const std::vector<MixPart>& parts, const Scope& base)
{
    std::string out;
    for (const MixPart& p : parts) {
        if (p.scope.model != base.model || !p.scope.isl || !p.scope.osl)
            return {};
        out += (out.empty() ? "" : ",") + lengthsLabel(*p.scope.isl, *p.scope.osl) + ":" + exactNumber(p.share)
            + (p.target ? "@" + exactNumber(*p.target) : "");
    }
    return out;
}

Result<MixPlan> computeMixPlan(const std::vector<const PlanFrontiers*>& data, const PlanRequest& request,
    const std::vector<MixPart>& parts, const PricingCatalog& pricing, const HardwarePowerCatalog& power)
{
    if (data.size() != parts.size())
        return Error { "a mix plan needs the frontiers of each part" };
    if (auto s = checkParts(parts, ""); !s)
        return Error { s.error() };
    MixPlan out;
    out.parts = parts;
    std::map<std::string, MixHardware> byHardware;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        PlanRequest r = request;
        r.scope = parts[i].scope;
        r.scope.hardware = request.scope.hardware;
        r.demand = request.demand * parts[i].share;
        r.target = parts[i].target.value_or(request.target);
        auto plan = computePlan(*data[i], r, pricing, power);
        if (!plan)
            return Error { "part " + std::to_string(i + 1) + " (" + printable(parts[i].label) + "): " + plan.error() };
        for (const HardwarePlan& h : plan->hardware) {
            MixHardware& m = byHardware[h.hardware];
            m.hardware = h.hardware;
        }
        out.plans.push_back(std::move(*plan));
    }
    for (auto& entry : byHardware) {
        const std::string& hw = entry.first; // a name, not a structured binding: lambdas below capture it
        MixHardware& m = entry.second;
        m.complete = true;
        bool withPower = true, withCost = true;
        double mw = 0, usd = 0;
        for (const Plan& p : out.plans) {
            const auto it = std::find_if(
                p.hardware.begin(), p.hardware.end(), [&](const HardwarePlan& h) { return h.hardware == hw; });
            if (it == p.hardware.end() || !it->sized()) {
                m.complete = false;
                continue;
            }
            m.gpus += it->gpus;
            m.nodes += it->nodes;
            withPower = withPower && it->powerMw;
            withCost = withCost && it->costPerMonth;
            mw += it->powerMw.value_or(0);
            usd += it->costPerMonth.value_or(0);
        }
        if (m.gpus > 0 && withPower)
            m.powerMw = mw;
        if (m.gpus > 0 && withCost)
            m.costPerMonth = usd;
        out.hardware.push_back(m);
    }
    MixHardware* cheapest = nullptr;
    for (MixHardware& m : out.hardware)
        if (m.complete && m.costPerMonth && (!cheapest || *m.costPerMonth < *cheapest->costPerMonth))
            cheapest = &m;
    if (cheapest)
        cheapest->cheapest = true;
    // the cheapest per part, and the mix of hardware they make
    double mixed = 0;
    bool whole = true;
    for (const Plan& p : out.plans) {
        const HardwarePlan* c = p.cheapest();
        out.cheapestPerPart.push_back(c ? c->hardware : std::string());
        if (!c) {
            whole = false;
            continue;
        }
        mixed += *c->costPerMonth;
        out.mixedGpus += c->gpus;
    }
    if (whole)
        out.mixedCostPerMonth = mixed;
    if (whole)
        for (const std::string& hw : out.cheapestPerPart)
            out.mixedDiffers = out.mixedDiffers || hw != out.cheapestPerPart.front();
    return out;
}

} // namespace paretoscope
