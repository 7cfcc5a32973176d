#include "core/analysis/viewoptions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/analysis/pricing.h"
#include "core/model/hardware.h"
#include "core/model/runselection.h"

namespace paretoscope {
namespace {

std::optional<std::string> last(const OptionMap& o, const std::string& name)
{
    auto it = o.find(name);
    if (it == o.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

bool has(const OptionMap& o, const std::string& name)
{
    return o.count(name) > 0;
}

std::optional<double> number(const std::string& s)
{
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// An optional whole number above zero; 0 when not given.
Result<int> positiveInt(const OptionMap& o, const std::string& name)
{
    auto v = last(o, name);
    if (!v)
        return 0;
    int n = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || p != v->data() + v->size() || n <= 0)
        return Error { "--" + name + " must be a whole number above zero, got '" + *v + "'" };
    return n;
}

Status dateOptions(const OptionMap& o, Scope& s)
{
    for (auto [name, into] :
        { std::pair { "from", &s.dateFrom }, std::pair { "to", &s.dateTo }, std::pair { "as-of", &s.asOf } }) {
        auto d = last(o, name);
        if (!d)
            continue;
        if (!isIsoDate(*d))
            return Error { std::string("--") + name + " must be a date like 2026-07-31, got '" + *d + "'" };
        *into = *d;
    }
    if (auto r = last(o, "runs")) {
        const auto selection = parseRunSelection(*r);
        if (!selection)
            return Error { "--runs must be latest (per curve, the InferenceX site's rule), latest-per-configuration "
                           "or all, got '"
                + *r + "'" };
        s.runs = *selection;
    }
    if (auto b = last(o, "basis")) {
        if (*b != "serving" && *b != "all")
            return Error { "--basis must be serving (the InferenceX site's: output tokens per decode GPU, input "
                           "tokens per prefill GPU) or all (every metric per all GPUs), got '"
                + *b + "'" };
        s.basis = *b == "all" ? TputBasis::AllGpus : TputBasis::Serving;
    }
    return ok();
}

// --ttft-max S [--ttft-stat median|p99] and --tpot-max S: service-level limits in seconds, above zero.
Status limitOptions(const OptionMap& o, Scope& s)
{
    for (auto [name, into] : { std::pair { "ttft-max", &s.ttftMax }, std::pair { "tpot-max", &s.tpotMax } }) {
        auto v = last(o, name);
        if (!v)
            continue;
        auto seconds = number(*v);
        if (!seconds || *seconds <= 0)
            return Error { std::string("--") + name + " must be a number of seconds above zero, got '" + *v + "'" };
        *into = *seconds;
    }
    if (auto stat = last(o, "ttft-stat")) {
        if (*stat != "median" && *stat != "p99")
            return Error { "--ttft-stat must be median or p99, got '" + *stat + "'" };
        if (!s.ttftMax)
            return Error { "--ttft-stat says which TTFT --ttft-max limits: give --ttft-max too" };
        s.ttftStat = *stat == "p99" ? LatencyStat::P99 : LatencyStat::Median;
    }
    return ok();
}

} // namespace

const std::map<std::string, bool>& viewOptionSpec()
{
    static const std::map<std::string, bool> spec { { "model", true }, { "isl", true }, { "osl", true },
        { "workload", true }, { "hardware", true }, { "engine", true }, { "precision", true }, { "spec", true },
        { "from", true }, { "to", true }, { "as-of", true }, { "runs", true }, { "basis", true },
        { "include-marked", false }, { "exclude-flagged", false }, { "targets", true }, { "metric", true },
        { "clamp", false }, { "hide-sparse", false }, { "reading", true }, { "tier", true }, { "price", true },
        { "baseline", true }, { "ttft-max", true }, { "tpot-max", true }, { "ttft-stat", true },
        { "min-accuracy", true }, { "allow-unevaluated", false }, { "accuracy-task", true } };
    return spec;
}

Result<Scope> scopeFromOptions(const OptionMap& o)
{
    Scope s;
    auto model = last(o, "model");
    if (!model)
        return Error { "--model is required" };
    s.model = *model;
    s.workload = last(o, "workload").value_or("");
    auto isl = positiveInt(o, "isl");
    if (!isl)
        return Error { isl.error() };
    auto osl = positiveInt(o, "osl");
    if (!osl)
        return Error { osl.error() };
    if (s.workload.empty() && (*isl == 0 || *osl == 0))
        return Error { "--isl and --osl are required (or --workload for a workload without fixed lengths)" };
    if (*isl)
        s.isl = *isl;
    if (*osl)
        s.osl = *osl;
    for (const std::string& h : optionList(o, "hardware"))
        s.hardware.push_back(normalizedKey(h));
    s.engines = optionList(o, "engine");
    s.precisions = optionList(o, "precision");
    s.specDecoding = optionList(o, "spec");
    s.includeMarked = has(o, "include-marked");
    s.excludeFlagged = has(o, "exclude-flagged");
    if (auto st = dateOptions(o, s); !st)
        return Error { st.error() };
    if (auto st = limitOptions(o, s); !st)
        return Error { st.error() };
    return s;
}

namespace {

Status ladderOptions(const OptionMap& o, LadderRequest& req)
{
    if (has(o, "targets")) {
        req.targets.clear();
        for (const std::string& t : optionList(o, "targets")) {
            auto v = number(t);
            if (!v || *v <= 0)
                return Error { "--targets must be numbers above zero (tok/s/user), got '" + t + "'" };
            req.targets.push_back(*v);
        }
        if (req.targets.empty())
            return Error { "--targets is empty" };
    }
    if (auto m = last(o, "metric")) {
        auto parsed = parseMetric(*m);
        auto energy = parseEnergyMetric(*m);
        if (!parsed && !energy)
            return Error { "--metric must be total, input, output, tok-per-mw, j-per-token or measured-j-per-token, "
                           "got '"
                + *m + "'" };
        req.metric = parsed.value_or(TputMetric::Total);
        req.energy = energy.value_or(EnergyMetric::None);
    }
    req.clamp = has(o, "clamp");
    req.hideSparse = has(o, "hide-sparse");
    if (auto r = last(o, "reading")) {
        auto parsed = parseReading(*r);
        if (!parsed)
            return Error { "--reading must be deployable (what one configuration delivers) or frontier (the site's "
                           "reading across configurations), got '"
                + *r + "'" };
        req.reading = *parsed;
    }
    if (auto a = last(o, "min-accuracy")) {
        auto r = parseAccuracyRequirement(*a);
        if (!r)
            return Error { r.error() };
        r->allowUnevaluated = has(o, "allow-unevaluated");
        req.accuracy = std::move(*r);
    } else if (has(o, "allow-unevaluated")) {
        return Error { "--allow-unevaluated goes with --min-accuracy" };
    }
    if (auto t = last(o, "accuracy-task")) {
        auto task = accuracyTaskName(*t);
        if (!task)
            return Error { task.error() };
        req.accuracyTask = *task;
    }
    if (has(o, "tier") && has(o, "price"))
        return Error { "give --tier or --price, not both" };
    req.price.tierKey = last(o, "tier").value_or("");
    if (auto p = last(o, "price")) {
        auto v = number(*p);
        if (!v || *v <= 0 || *v > kMaxUsdPerGpuHour)
            return Error { "--price must be a number of $/GPU/hr above zero and at most 10,000, got '" + *p + "'" };
        req.price.customUsdPerGpuHour = *v;
    }
    return ok();
}

} // namespace

Result<ViewOptions> viewFromOptions(const OptionMap& o)
{
    auto scope = scopeFromOptions(o);
    if (!scope)
        return Error { scope.error() };
    ViewOptions view;
    view.request.scope = std::move(*scope);
    if (auto st = ladderOptions(o, view.request); !st)
        return Error { st.error() };
    view.baseline = normalizedKey(last(o, "baseline").value_or(""));
    if (has(o, "baseline") && view.baseline.empty())
        return Error { "--baseline needs a hardware name" };
    Scope& s = view.request.scope;
    // a ratio needs the baseline's own reading: a scope that names its hardware gets it too
    if (!view.baseline.empty() && !s.hardware.empty()
        && std::find(s.hardware.begin(), s.hardware.end(), view.baseline) == s.hardware.end())
        s.hardware.push_back(view.baseline);
    return view;
}

std::vector<std::string> optionList(const OptionMap& o, const std::string& name)
{
    std::vector<std::string> out;
    auto it = o.find(name);
    if (it == o.end())
        return out;
    for (const std::string& v : it->second) {
        std::size_t from = 0;
        while (from <= v.size()) {
            std::size_t comma = v.find(',', from);
            if (comma == std::string::npos)
                comma = v.size();
            if (comma > from)
                out.push_back(v.substr(from, comma - from));
            from = comma + 1;
        }
    }
    return out;
}

} // namespace paretoscope
