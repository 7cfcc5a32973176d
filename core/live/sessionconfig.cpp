#include "core/live/sessionconfig.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"

#include <cctype>
#include <charconv>
#include <set>

#include <nlohmann/json.hpp>

namespace paretoscope {

namespace {

using nlohmann::json;

json sloJson(const Slo& s)
{
    json j = json::object();
    if (s.ttft)
        j["ttft"] = *s.ttft;
    if (s.tpot)
        j["tpot"] = *s.tpot;
    if (s.e2el)
        j["e2el"] = *s.e2el;
    return j;
}

// Typed reads that name the key on failure.
struct Fields {
    const json& j;
    std::string name;
    std::string error;
    std::string prefix; ///< the enclosing object's key and a dot, for nested fields

    bool fail(const std::string& key, const std::string& what)
    {
        if (error.empty())
            error = name + ": field " + prefix + key + ": " + what;
        return false;
    }
    void str(const char* key, std::string& out)
    {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_string())
                fail(key, "not a string");
            else
                out = it->get<std::string>();
        }
    }
    void integer(const char* key, int& out, long long lo, long long hi)
    {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
                fail(key, "not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
            else
                out = static_cast<int>(it->get<long long>());
        }
    }
    void number(const char* key, double& out, double lo, double hi)
    {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_number() || !(it->get<double>() >= lo && it->get<double>() <= hi))
                fail(key, "not a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
            else
                out = it->get<double>();
        }
    }
    void optNumber(const char* key, std::optional<double>& out, double lo, double hi)
    {
        if (auto it = j.find(key); it != j.end() && !it->is_null()) {
            double v = 0;
            number(key, v, lo, hi);
            if (error.empty())
                out = v;
        }
    }
    void boolean(const char* key, bool& out)
    {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_boolean())
                fail(key, "not true or false");
            else
                out = it->get<bool>();
        }
    }
    void onlyKeys(const std::set<std::string>& known)
    {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!known.count(it.key()))
                fail(it.key(), "unknown key");
    }
};

// The top-level strings, numbers and flags; only the first error is kept, so the order of the reads matters.
void readScalars(Fields& f, SessionConfig& c)
{
    f.str("endpoint", c.endpoint);
    f.str("recipe", c.recipe);
    f.str("model", c.model);
    f.str("hardware", c.hardware);
    f.str("engine", c.engine);
    f.str("precision", c.precision);
    f.integer("tp", c.tp, 1, 1024);
    f.integer("ep", c.ep, 1, 1024);
    f.boolean("dp_attention", c.dpAttention);
    f.integer("gpus", c.gpus, 1, 100000);
    f.str("workload", c.workload);
    f.integer("isl", c.isl, 1, 10'000'000);
    f.integer("osl", c.osl, 1, 10'000'000);
    f.integer("prompts_per_level", c.promptsPerLevel, 0, 100'000'000);
    f.integer("warmups", c.warmups, -1, 100'000'000);
    f.boolean("chat", c.chat);
    f.number("request_timeout_s", c.requestTimeout, 0.001, 1e7);
    f.number("stall_timeout_s", c.stallTimeout, 1, 1e7);
    f.integer("client_threads", c.clientThreads, 0, 1024);
    f.optNumber("request_rate", c.requestRate, 1e-9, 1e9);
}

void readPrompt(Fields& f, SessionConfig& c)
{
    if (auto it = f.j.find("prompt"); it != f.j.end()) {
        if (*it == "ids")
            c.prompt = PromptKind::TokenIds;
        else if (*it == "text")
            c.prompt = PromptKind::Text;
        else
            f.fail("prompt", "not \"ids\" or \"text\"");
    }
}

void readConcurrencies(Fields& f, SessionConfig& c)
{
    if (auto it = f.j.find("concurrencies"); it != f.j.end()) {
        c.concurrencies.clear();
        if (!it->is_array())
            f.fail("concurrencies", "not an array");
        else
            for (const json& v : *it) {
                if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > kMaxConcurrency) {
                    f.fail("concurrencies", "every entry must be an integer in [1, 1000000]");
                    break;
                }
                c.concurrencies.push_back(v.get<int>());
            }
    }
}

// Reads the object under `key`, if there is one, with `read` on Fields of its own whose errors name "key.field";
// the first error of the two is kept.
template <typename Read> void readObject(Fields& f, const char* key, Read read)
{
    auto it = f.j.find(key);
    if (it == f.j.end())
        return;
    if (!it->is_object()) {
        f.fail(key, "not an object");
        return;
    }
    Fields g { *it, f.name, {}, std::string(key) + "." };
    read(g);
    if (!g.error.empty() && f.error.empty())
        f.error = g.error;
}

void readConcurrencyAuto(Fields& g, SessionConfig& c)
{
    g.onlyKeys({ "targets", "max_levels" });
    g.integer("max_levels", c.maxLevels, 1, 10'000);
    if (auto t = g.j.find("targets"); t != g.j.end()) {
        if (!t->is_array())
            g.fail("targets", "not an array");
        else
            for (const json& v : *t) {
                if (!v.is_number() || v.get<double>() <= 0) {
                    g.fail("targets", "every entry must be a number above 0");
                    break;
                }
                c.targets.push_back(v.get<double>());
            }
    }
}

void readAgentic(Fields& g, AgenticOptions& a)
{
    g.onlyKeys({ "prefix_tokens", "turn_tokens", "output_tokens", "turns", "mean_think_s", "context_cap" });
    g.integer("prefix_tokens", a.prefixTokens, 0, 10'000'000);
    g.integer("turn_tokens", a.turnTokens, 1, 10'000'000);
    g.integer("output_tokens", a.outputTokens, 1, 10'000'000);
    g.integer("turns", a.turns, 1, 100'000);
    g.number("mean_think_s", a.meanThinkSeconds, 0, 1e6);
    g.integer("context_cap", a.contextCap, 1, 100'000'000);
}

void readSlo(Fields& g, Slo& s)
{
    g.onlyKeys({ "ttft", "tpot", "e2el" });
    g.optNumber("ttft", s.ttft, 0, 1e6);
    g.optNumber("tpot", s.tpot, 0, 1e6);
    g.optNumber("e2el", s.e2el, 0, 1e6);
}

} // namespace

std::string sessionConfigJson(const SessionConfig& c)
{
    json j = { { "endpoint", c.endpoint }, { "recipe", c.recipe }, { "model", c.model }, { "hardware", c.hardware },
        { "engine", c.engine }, { "precision", c.precision }, { "tp", c.tp }, { "ep", c.ep }, { "gpus", c.gpus },
        { "workload", c.workload }, { "isl", c.isl }, { "osl", c.osl },
        { "agentic",
            { { "prefix_tokens", c.agentic.prefixTokens }, { "turn_tokens", c.agentic.turnTokens },
                { "output_tokens", c.agentic.outputTokens }, { "turns", c.agentic.turns },
                { "mean_think_s", c.agentic.meanThinkSeconds }, { "context_cap", c.agentic.contextCap } } },
        { "concurrencies", c.concurrencies }, { "prompts_per_level", c.promptsPerLevel }, { "warmups", c.warmups },
        { "chat", c.chat }, { "prompt", c.prompt == PromptKind::TokenIds ? "ids" : "text" }, { "slo", sloJson(c.slo) },
        { "request_timeout_s", c.requestTimeout }, { "stall_timeout_s", c.stallTimeout } };
    j["request_rate"] = c.requestRate ? json(*c.requestRate) : json(nullptr);
    if (c.dpAttention) // only when on, so that the configurations stored before read as they always did
        j["dp_attention"] = true;
    if (c.clientThreads > 0) // only when given, as concurrency_auto
        j["client_threads"] = c.clientThreads;
    if (c.concurrencyAuto) // only then, so that the configurations of fixed sweeps read as they always did
        j["concurrency_auto"] = { { "targets", c.targets }, { "max_levels", c.maxLevels } };
    return jsonText(j);
}

Result<SessionConfig> parseSessionConfig(const std::string& text, const std::string& name)
{
    auto parsed = parseOutsideJson(text, name, limits::kJsonDepth);
    if (!parsed)
        return Error { parsed.error() };
    json j = std::move(*parsed);
    if (!j.is_object())
        return Error { name + ": not a JSON object" };
    SessionConfig c;
    Fields f { j, name, {}, {} };
    f.onlyKeys({ "endpoint", "recipe", "model", "hardware", "engine", "precision", "tp", "ep", "gpus", "workload",
        "isl", "osl", "agentic", "concurrencies", "request_rate", "prompts_per_level", "warmups", "chat", "prompt",
        "slo", "request_timeout_s", "stall_timeout_s", "concurrency_auto", "client_threads", "dp_attention" });
    readScalars(f, c);
    readPrompt(f, c);
    readConcurrencies(f, c);
    readObject(f, "concurrency_auto", [&](Fields& g) {
        c.concurrencyAuto = true;
        readConcurrencyAuto(g, c);
    });
    readObject(f, "agentic", [&](Fields& g) { readAgentic(g, c.agentic); });
    readObject(f, "slo", [&](Fields& g) { readSlo(g, c.slo); });
    if (!f.error.empty())
        return Error { f.error };
    return c;
}

Status validateSessionConfig(const SessionConfig& c)
{
    std::vector<std::string> problems;
    if (c.endpoint.empty() && c.recipe.empty())
        problems.push_back("an endpoint URL or a recipe");
    if (c.concurrencies.empty() && !c.concurrencyAuto)
        problems.push_back("at least one concurrency (or auto)");
    if (c.concurrencyAuto && c.maxLevels < 1)
        problems.push_back("a level budget of at least 1");
    if (c.workload != "random" && c.workload != "agentic")
        problems.push_back("a workload of \"random\" or \"agentic\" (not \"" + c.workload + "\")");
    if (c.workload == "agentic" && c.requestRate)
        problems.push_back("a closed loop for the agentic workload (a request rate applies to random only)");
    if (c.gpus < 1)
        problems.push_back("a GPU count of at least 1");
    if (c.dpAttention && c.tp < 2)
        problems.push_back("tp above 1 for attention data parallel (dp_attention spreads attention over the tp ranks)");
    if (c.clientThreads < 0 || c.clientThreads > 1024)
        problems.push_back("client threads from 1 to 1024 (0: chosen per level)");
    if (problems.empty())
        return ok();
    std::string message = "the session needs ";
    for (std::size_t i = 0; i < problems.size(); ++i)
        message += (i ? "; " : "") + problems[i];
    return Error { message };
}

Result<ConcurrencyList> parseConcurrencyList(std::string_view text)
{
    auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t'))
            v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t'))
            v.remove_suffix(1);
        return v;
    };
    const std::string_view all = trim(text);
    ConcurrencyList out;
    if (all.size() == 4) {
        std::string lower(all);
        for (char& ch : lower)
            ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (lower == "auto") {
            out.automatic = true;
            return out;
        }
    }
    auto refuse = [](std::string_view part) {
        return Error { "concurrency levels are whole numbers above zero, e.g. 1,4,16,64, or auto (not '"
            + printable(part.substr(0, 40)) + "')" };
    };
    std::size_t i = 0;
    while (i < all.size()) {
        std::size_t end = all.find_first_of(", \t", i);
        if (end == std::string_view::npos)
            end = all.size();
        const std::string_view part = all.substr(i, end - i);
        i = end + 1;
        if (part.empty())
            continue;
        int v = 0;
        const auto [stop, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (ec != std::errc() || stop != part.data() + part.size() || v < 1 || v > kMaxConcurrency)
            return refuse(part);
        if (out.levels.size() >= std::size_t(kMaxLevels))
            return Error { "at most " + std::to_string(kMaxLevels) + " concurrency levels" };
        out.levels.push_back(v);
    }
    if (out.levels.empty())
        return Error { "no concurrency levels: give them (e.g. 1,4,16,64) or auto" };
    return out;
}

std::string concurrencyListText(const ConcurrencyList& list)
{
    if (list.automatic)
        return "auto";
    std::string out;
    for (int v : list.levels)
        out += (out.empty() ? "" : ",") + std::to_string(v);
    return out;
}

} // namespace paretoscope
