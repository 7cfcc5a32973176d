#include "core/live/recipe.h"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/model/embedded.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"

namespace paretoscope {

namespace {

using nlohmann::json;

bool isIntegerIn(const std::string& s, long long lo, long long hi)
{
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    long long v = std::stoll(s);
    return v >= lo && v <= hi;
}

// Why a parameter's value is refused, or empty.
std::string checkParameter(const std::string& key, const std::string& v)
{
    static const std::regex model("^[A-Za-z0-9_.][A-Za-z0-9_.:/@+-]*$");
    static const std::regex devices("^([0-9]+(,[0-9]+)*)?$");
    static const std::regex profile("^[a-z0-9][a-z0-9-]*$");
    static const std::set<std::string> kvTypes { "auto", "fp8", "fp8_e4m3", "fp8_e5m2", "bf16", "bfloat16", "fp16" };
    if (key == "model")
        return std::regex_match(v, model) ? ""
                                          : "a model name or path of letters, digits and ._:/@+- not starting with -";
    if (key == "tp" || key == "ep")
        return isIntegerIn(v, 1, 1024) ? "" : "an integer from 1 to 1024";
    if (key == "max_seqs")
        return isIntegerIn(v, 1, 1'000'000) ? "" : "an integer from 1 to 1000000";
    if (key == "port")
        return isIntegerIn(v, 1, 65535) ? "" : "a port from 1 to 65535";
    if (key == "max_model_len")
        return isIntegerIn(v, 1, 100'000'000) ? "" : "a positive integer";
    if (key == "kv_cache_dtype")
        return kvTypes.count(v) ? "" : "one of auto, fp8, fp8_e4m3, fp8_e5m2, bf16, bfloat16, fp16";
    if (key == "devices")
        return std::regex_match(v, devices) ? "" : "GPU indices separated by commas, e.g. 0,1,2,3";
    if (key == "profile")
        return std::regex_match(v, profile) ? "" : "a profile name of lower-case letters, digits and -";
    return "not a recipe parameter";
}

// Every {name} in the text, checked against the known parameters.
std::string unknownPlaceholder(const std::string& text)
{
    const auto& known = recipeParameters();
    for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        std::size_t close = text.find('}', open);
        if (close == std::string::npos)
            return text.substr(open);
        std::string name = text.substr(open + 1, close - open - 1);
        if (std::find(known.begin(), known.end(), name) == known.end())
            return "{" + name + "}";
    }
    return {};
}

bool isOption(const std::string& arg)
{
    return arg.size() > 1 && arg[0] == '-';
}

// Appends options (each followed by its values, up to the next option) to argv; an option argv already has after
// argv[0] is taken out first, with as many values after it as the new one has, so that each is given once.
void replaceOrAppend(std::vector<std::string>& argv, const std::vector<std::string>& options)
{
    for (std::size_t i = 0; i < options.size();) {
        std::size_t end = i + 1;
        while (end < options.size() && !isOption(options[end]))
            ++end;
        const std::size_t values = end - i - 1;
        for (std::size_t at = 1; at < argv.size();) {
            if (argv[at] == options[i])
                argv.erase(argv.begin() + static_cast<std::ptrdiff_t>(at),
                    argv.begin() + static_cast<std::ptrdiff_t>(std::min(argv.size(), at + 1 + values)));
            else
                ++at;
        }
        argv.insert(argv.end(), options.begin() + static_cast<std::ptrdiff_t>(i),
            options.begin() + static_cast<std::ptrdiff_t>(end));
        i = end;
    }
}

std::string fill(const std::string& text, const std::map<std::string, std::string>& values)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '{') {
            std::size_t close = text.find('}', i);
            auto it = values.find(text.substr(i + 1, close - i - 1));
            out += it->second;
            i = close + 1;
        } else {
            out += text[i++];
        }
    }
    return out;
}

// Reads the text and list fields; the error of the first refused one (in the order below), or empty.
std::string readTextFields(const json& r, const std::string& where, Recipe& rec)
{
    auto text = [&](const char* key, std::string& dst, bool required) -> std::string {
        auto it = r.find(key);
        if (it == r.end())
            return required ? where + ", field " + key + ": missing" : "";
        if (!it->is_string())
            return where + ", field " + key + ": not a string";
        dst = it->get<std::string>();
        return "";
    };
    auto strings = [&](const char* key, std::vector<std::string>& dst, bool required) -> std::string {
        auto it = r.find(key);
        if (it == r.end())
            return required ? where + ", field " + key + ": missing" : "";
        if (!it->is_array())
            return where + ", field " + key + ": not an array of strings";
        for (const json& s : *it) {
            if (!s.is_string())
                return where + ", field " + key + ": not an array of strings";
            dst.push_back(s.get<std::string>());
            if (auto bad = unknownPlaceholder(dst.back()); !bad.empty())
                return where + ", field " + key + ": " + bad + " is not a recipe parameter";
        }
        return "";
    };
    for (const std::string& e : { text("name", rec.name, true), text("description", rec.description, false),
             text("engine", rec.engine, true), text("hardware", rec.hardware, true),
             text("precision", rec.precision, true), text("program", rec.program, true),
             strings("args", rec.args, true), strings("expert_parallel_args", rec.expertParallelArgs, false),
             strings("dp_attention_args", rec.dpAttentionArgs, false), strings("health", rec.health, false) })
        if (!e.empty())
            return e;
    return "";
}

// What is wrong with the fields read so far, or empty; `seen` holds the names of the recipes before, and this one's
// name is added to it.
std::string checkTextFields(const Recipe& rec, const std::string& where, std::set<std::string>& seen)
{
    if (!rec.dpAttentionArgs.empty() && !isOption(rec.dpAttentionArgs.front()))
        return where + ", field dp_attention_args: starts with an option (-...), its values after it";
    if (rec.name.empty() || !seen.insert(rec.name).second)
        return where + ", field name: empty or used twice";
    if (rec.program.empty() || rec.program.find('/') != std::string::npos)
        return where + ", field program: a program name looked up on PATH, without a path";
    if (auto bad = unknownPlaceholder(rec.program); !bad.empty())
        return where + ", field program: no placeholders allowed";
    for (const std::string& h : rec.health)
        if (!h.starts_with("/"))
            return where + ", field health: paths start with /";
    return "";
}

// Each member of r's optional object `field` through `take` (its name and string value), which says why it refuses
// one ("" to take it); a member that is not a string is told `notString`.
std::string readStrings(const json& r, const std::string& field, const std::string& where, const char* notString,
    const std::function<std::string(const std::string&, const std::string&)>& take)
{
    const auto it = r.find(field);
    if (it == r.end())
        return "";
    if (!it->is_object())
        return where + ", field " + field + ": not an object";
    for (auto m = it->begin(); m != it->end(); ++m) {
        const std::string why = m->is_string() ? take(m.key(), m->get<std::string>()) : notString;
        if (!why.empty())
            return where + ", field " + field + "." + m.key() + ": " + why;
    }
    return "";
}

std::string readEnv(const json& r, const std::string& where, Recipe& rec)
{
    return readStrings(r, "env", where, "not a string variable", [&](const std::string& name, const std::string& v) {
        if (name.empty() || name.find('=') != std::string::npos)
            return std::string("not a string variable");
        if (auto bad = unknownPlaceholder(v); !bad.empty())
            return bad + " is not a recipe parameter";
        rec.env.emplace_back(name, v);
        return std::string();
    });
}

std::string readDefaults(const json& r, const std::string& where, Recipe& rec)
{
    return readStrings(r, "defaults", where, "not a string", [&](const std::string& name, const std::string& v) {
        if (auto why = checkParameter(name, v); !why.empty())
            return why;
        rec.defaults[name] = v;
        return std::string();
    });
}

// One entry of the recipes array; `where` names it, `seen` holds the names of the recipes before it.
Result<Recipe> parseRecipe(const json& r, const std::string& where, bool custom, std::set<std::string>& seen)
{
    static const std::set<std::string> keys { "name", "description", "engine", "hardware", "precision", "program",
        "args", "expert_parallel_args", "dp_attention_args", "env", "defaults", "health", "startup_timeout_s" };
    if (!r.is_object())
        return Error { where + ": not an object" };
    for (auto it = r.begin(); it != r.end(); ++it)
        if (!keys.count(it.key()))
            return Error { where + ", field " + it.key() + ": unknown key" };
    Recipe rec;
    rec.custom = custom;
    if (auto e = readTextFields(r, where, rec); !e.empty())
        return Error { e };
    if (auto e = checkTextFields(rec, where, seen); !e.empty())
        return Error { e };
    if (rec.health.empty())
        rec.health = { "/health" };
    if (auto e = readEnv(r, where, rec); !e.empty())
        return Error { e };
    if (auto e = readDefaults(r, where, rec); !e.empty())
        return Error { e };
    if (auto it = r.find("startup_timeout_s"); it != r.end()) {
        if (!it->is_number() || it->get<double>() <= 0 || it->get<double>() > 86400)
            return Error { where + ", field startup_timeout_s: a number of seconds up to 86400" };
        rec.startupTimeout = it->get<double>();
    }
    return rec;
}

} // namespace

const std::vector<std::string>& recipeParameters()
{
    static const std::vector<std::string> names { "model", "tp", "ep", "max_seqs", "kv_cache_dtype", "port",
        "max_model_len", "devices", "profile" };
    return names;
}

Result<std::vector<Recipe>> parseRecipes(std::string_view document, const std::string& name, bool custom)
{
    auto parsed = parseOutsideJson(document, name, limits::kJsonDepth);
    if (!parsed)
        return Error { parsed.error() };
    json j = std::move(*parsed);
    if (!j.is_object())
        return Error { name + ": not a JSON object" };
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "source" && it.key() != "recipes")
            return Error { name + ": field " + it.key() + ": unknown key (known: source, recipes)" };
    if (!j.contains("recipes") || !j["recipes"].is_array())
        return Error { name + ": field recipes: missing or not an array" };
    std::vector<Recipe> out;
    std::set<std::string> seen;
    std::size_t index = 0;
    for (const json& r : j["recipes"]) {
        auto rec = parseRecipe(r, name + ": recipe " + std::to_string(index++), custom, seen);
        if (!rec)
            return Error { rec.error() };
        out.push_back(std::move(*rec));
    }
    return out;
}

const std::vector<Recipe>& bundledRecipes()
{
    static const std::vector<Recipe> recipes = [] {
        auto r = parseRecipes(embedded::engine_recipes_json(), "resources/engine_recipes.json", false);
        return r ? *r : std::vector<Recipe> {};
    }();
    return recipes;
}

Result<Recipe> bundledRecipe(const std::string& name)
{
    std::string names;
    for (const Recipe& r : bundledRecipes()) {
        if (r.name == name)
            return r;
        names += (names.empty() ? "" : ", ") + r.name;
    }
    return Error { "no recipe named " + name + " (shipped: " + names + ")" };
}

Result<LaunchPlan> renderRecipe(
    const Recipe& recipe, const std::map<std::string, std::string>& parameters, bool confirmedCustom, bool dpAttention)
{
    if (recipe.custom && !confirmedCustom)
        return Error { "recipe " + recipe.name
            + " is a custom command (not shipped with Paretoscope): confirm it as a custom command to run it" };
    std::map<std::string, std::string> values = recipe.defaults;
    for (const auto& [k, v] : parameters) {
        if (auto why = checkParameter(k, v); !why.empty())
            return Error { "recipe " + recipe.name + ", parameter " + k + " = '" + v + "': " + why };
        values[k] = v;
    }
    values.try_emplace("profile", ""); // only the emulator's recipes use it
    for (const std::string& k : recipeParameters())
        if (!values.count(k))
            return Error { "recipe " + recipe.name + ": parameter " + k + " has no value and no default" };
    if (dpAttention && recipe.dpAttentionArgs.empty())
        return Error { "dp_attention: recipe " + recipe.name + " (" + recipe.engine
            + ") has no dp_attention_args: it cannot run attention data parallel" };
    LaunchPlan plan;
    plan.program = recipe.program;
    plan.argv.push_back(recipe.program);
    for (const std::string& a : recipe.args)
        plan.argv.push_back(fill(a, values));
    if (std::stoll(values["ep"]) > 1)
        for (const std::string& a : recipe.expertParallelArgs)
            plan.argv.push_back(fill(a, values));
    if (dpAttention) {
        std::vector<std::string> dp;
        dp.reserve(recipe.dpAttentionArgs.size());
        for (const std::string& a : recipe.dpAttentionArgs)
            dp.push_back(fill(a, values));
        replaceOrAppend(plan.argv, dp);
    }
    for (const auto& [k, v] : recipe.env)
        plan.env.emplace_back(k, fill(v, values));
    plan.baseUrl = "http://127.0.0.1:" + values["port"];
    plan.health = recipe.health;
    plan.startupTimeout = recipe.startupTimeout;
    return plan;
}

} // namespace paretoscope
