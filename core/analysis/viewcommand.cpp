// The view as a command line and back: what "Copy view as command" writes and `paretoscope --view` reads.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/analysis/viewoptions.h"
#include "core/model/asciitext.h"
#include "core/model/runselection.h"

namespace paretoscope {

Result<std::vector<std::string>> splitCommandLine(std::string_view text)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
            continue;
        }
        if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
            ++i; // a line continued, as a shell reads a command copied over several lines
            continue;
        }
        inWord = true;
        if (c == '\'') {
            const std::size_t end = text.find('\'', i + 1);
            if (end == std::string_view::npos)
                return Error { "the command line has an unclosed ' quote" };
            word += text.substr(i + 1, end - i - 1);
            i = end;
        } else if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\' && i + 1 < text.size()
                    && std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
                    ++i;
                word += text[i];
            }
            if (i >= text.size())
                return Error { "the command line has an unclosed \" quote" };
        } else if (c == '\\' && i + 1 < text.size()) {
            word += text[++i];
        } else {
            word += c;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

Result<ViewOptions> parseViewArgs(const std::vector<std::string>& args)
{
    std::size_t i = 0;
    if (i < args.size() && !args[i].starts_with("--") && args[i].find("paretoscope") != std::string::npos)
        ++i;
    if (i < args.size() && args[i] == "ladder")
        ++i;
    OptionMap options;
    const auto& spec = viewOptionSpec();
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (!arg.starts_with("--") || arg.size() < 3)
            return Error { "a view takes only --options, got '" + arg + "'" };
        std::string name = arg.substr(2), value;
        const auto eq = name.find('=');
        if (eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        auto known = spec.find(name);
        if (known == spec.end())
            return Error { "a view has no option --" + name };
        if (!known->second) {
            if (eq != std::string::npos)
                return Error { "--" + name + " takes no value" };
            options[name];
            continue;
        }
        if (eq == std::string::npos) {
            if (i + 1 >= args.size())
                return Error { "--" + name + " needs a value" };
            value = args[++i];
        }
        options[name].push_back(value);
    }
    return viewFromOptions(options);
}

std::string shellQuote(std::string_view word)
{
    const bool safe = !word.empty()
        && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789-_./,:=+@%")
            == std::string_view::npos;
    if (safe)
        return std::string(word);
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

namespace {

std::string numberText(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // the shortest text that reads back as the same double, without an exponent where a person would write none
    // (50, not 5e+01)
    if (std::abs(v) >= 1e-4 && std::abs(v) < 1e15)
        for (int decimals = 0; decimals <= 17; ++decimals) {
            char fixed[64];
            std::snprintf(fixed, sizeof fixed, "%.*f", decimals, v);
            if (std::strtod(fixed, nullptr) == v)
                return fixed;
        }
    for (int digits = 1; digits <= 17; ++digits) {
        char shorter[64];
        std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
        if (std::strtod(shorter, nullptr) == v)
            return shorter;
    }
    return buf;
}

} // namespace

std::string viewCommand(const ViewOptions& view)
{
    const LadderRequest& r = view.request;
    const Scope& s = r.scope;
    std::string out = "paretoscope-cli ladder";
    auto add
        = [&out](const std::string& name, const std::string& value) { out += " --" + name + " " + shellQuote(value); };
    add("model", s.model);
    if (s.isl)
        add("isl", std::to_string(*s.isl));
    if (s.osl)
        add("osl", std::to_string(*s.osl));
    if (!s.workload.empty())
        add("workload", s.workload);
    // one value per option: a comma inside a value would be split on the way back
    for (auto [name, values] : { std::pair { "hardware", &s.hardware }, std::pair { "engine", &s.engines },
             std::pair { "precision", &s.precisions }, std::pair { "spec", &s.specDecoding } })
        for (const std::string& v : *values)
            add(name, v);
    for (auto [name, value] :
        { std::pair { "from", &s.dateFrom }, std::pair { "to", &s.dateTo }, std::pair { "as-of", &s.asOf } })
        if (!value->empty())
            add(name, *value);
    add("runs", std::string(runSelectionName(s.runs)));
    if (s.basis == TputBasis::AllGpus)
        add("basis", "all");
    if (s.includeMarked)
        out += " --include-marked";
    if (s.ttftMax) {
        add("ttft-max", numberText(*s.ttftMax));
        if (s.ttftStat == LatencyStat::P99)
            add("ttft-stat", "p99");
    }
    if (s.tpotMax)
        add("tpot-max", numberText(*s.tpotMax));
    if (s.excludeFlagged)
        out += " --exclude-flagged";
    if (r.targets != defaultTargets()) {
        std::vector<std::string> targets;
        targets.reserve(r.targets.size());
        for (double t : r.targets)
            targets.push_back(numberText(t));
        add("targets", joinedWith(targets, ","));
    }
    if (r.energy != EnergyMetric::None)
        add("metric", std::string(energyMetricName(r.energy)));
    else if (r.metric != TputMetric::Total)
        add("metric", std::string(metricName(r.metric)));
    if (r.clamp)
        out += " --clamp";
    if (r.hideSparse)
        out += " --hide-sparse";
    if (r.reading != Reading::Deployable)
        add("reading", std::string(readingName(r.reading)));
    if (r.accuracy) {
        add("min-accuracy", accuracyRequirementText(*r.accuracy));
        if (r.accuracy->allowUnevaluated)
            out += " --allow-unevaluated";
    }
    if (!r.accuracyTask.empty())
        add("accuracy-task", r.accuracyTask);
    if (r.price.customUsdPerGpuHour)
        add("price", numberText(*r.price.customUsdPerGpuHour));
    else if (!r.price.tierKey.empty())
        add("tier", r.price.tierKey);
    if (!view.baseline.empty())
        add("baseline", view.baseline);
    return out;
}

} // namespace paretoscope
