#include "core/live/matrix.h"

#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/live/recipe.h"
#include "core/live/workload.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"

namespace paretoscope {

namespace {

using nlohmann::json;

// Reads one configuration's fields; the first error wins and names the field.
class FieldReader {
public:
    FieldReader(const json& object, std::string where)
        : m_j(object)
        , m_where(std::move(where))
    {
    }
    const std::string& error() const { return m_error; }
    std::string fail(const std::string& field, const std::string& why)
    {
        if (m_error.empty())
            m_error = m_where + ", field " + field + ": " + why;
        return m_error;
    }
    void text(const char* key, std::string& out)
    {
        if (auto it = m_j.find(key); it != m_j.end()) {
            if (!it->is_string() || it->get<std::string>().empty())
                fail(key, "not a non-empty string");
            else
                out = it->get<std::string>();
        }
    }
    void integer(const char* key, int& out, int lo, int hi)
    {
        if (auto it = m_j.find(key); it != m_j.end()) {
            if (!it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi)
                fail(key, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
            else
                out = it->get<int>();
        }
    }
    void boolean(const char* key, bool& out)
    {
        if (auto it = m_j.find(key); it != m_j.end()) {
            if (!it->is_boolean())
                fail(key, "true or false");
            else
                out = it->get<bool>();
        }
    }

private:
    const json& m_j;
    std::string m_where;
    std::string m_error;
};

bool knownKeys(const json& j, const std::set<std::string>& keys, const std::string& where, std::string& error)
{
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!keys.count(it.key())) {
            std::string list;
            for (const std::string& k : keys)
                list += (list.empty() ? "" : ", ") + k;
            error = where + ", field " + it.key() + ": unknown key (known: " + list + ")";
            return false;
        }
    return true;
}

void readConcurrency(const json& c, FieldReader& r, MatrixConfig& out)
{
    auto it = c.find("concurrency");
    if (it == c.end()) {
        r.fail("concurrency", "missing (a list of levels, e.g. [1, 4, 16], or \"auto\")");
    } else if (it->is_string()) {
        if (it->get<std::string>() != "auto")
            r.fail("concurrency", "a list of levels or \"auto\", got \"" + it->get<std::string>() + "\"");
        out.autoConcurrency = true;
    } else if (!it->is_array() || it->empty()) {
        r.fail("concurrency", "a non-empty list of levels or \"auto\"");
    } else {
        for (const json& v : *it) {
            if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 100000) {
                r.fail("concurrency", "levels are integers from 1 to 100000");
                return;
            }
            out.concurrencies.push_back(v.get<int>());
        }
    }
}

void readSide(const json& c, const char* key, FieldReader& r, std::optional<MatrixSide>& out)
{
    auto it = c.find(key);
    if (it == c.end())
        return;
    std::string error;
    if (!it->is_object()) {
        r.fail(key, "an object {\"nodes\": N, \"tp\": N}");
        return;
    }
    for (auto f = it->begin(); f != it->end(); ++f)
        if (f.key() != "nodes" && f.key() != "tp") {
            r.fail(std::string(key) + "." + f.key(), "unknown key (known: nodes, tp)");
            return;
        }
    MatrixSide side;
    for (auto [name, into] : { std::pair { "nodes", &side.nodes }, { "tp", &side.tp } })
        if (auto v = it->find(name); v != it->end()) {
            if (!v->is_number_integer() || v->get<long long>() < 1 || v->get<long long>() > 4096)
                r.fail(std::string(key) + "." + name, "an integer from 1 to 4096");
            else
                *into = v->get<int>();
        }
    out = side;
}

// The recipe's defaults fill what the configuration leaves out; what it gives is checked against the recipe.
void checkAgainstRecipe(FieldReader& r, MatrixConfig& c)
{
    auto recipe = bundledRecipe(c.recipe);
    if (!recipe) {
        r.fail("recipe", recipe.error());
        return;
    }
    if (!c.precision.empty() && c.precision != recipe->precision)
        r.fail("precision", "recipe " + c.recipe + " runs " + recipe->precision + ", not " + c.precision);
    const bool takesProfile = recipe->defaults.count("profile") > 0;
    if (!c.profile.empty() && !takesProfile)
        r.fail("profile", "recipe " + c.recipe + " takes no profile (only the emulator's recipes do)");
    static const std::regex word("^[a-z0-9][a-z0-9-]*$");
    if (!c.profile.empty() && !std::regex_match(c.profile, word))
        r.fail("profile", "a profile name of lower-case letters, digits and -");
    auto fallback = [&](int& v, const char* key) {
        if (v == 0 && recipe->defaults.count(key))
            v = std::stoi(recipe->defaults.at(key));
    };
    fallback(c.tp, "tp");
    fallback(c.ep, "ep");
    if (c.dpAttention && recipe->dpAttentionArgs.empty())
        r.fail("dp_attention",
            "recipe " + c.recipe + " (" + recipe->engine + ") has no dp_attention_args: it cannot run attention data "
                + "parallel");
    if (c.dpAttention && c.tp < 2)
        r.fail("dp_attention", "attention data parallel needs tp above 1 (recipe " + c.recipe + "'s tp is 1)");
    if (c.model.empty() && recipe->defaults.count("model"))
        c.model = recipe->defaults.at("model");
    c.precision = recipe->precision;
    std::map<std::string, std::string> params { { "model", c.model } };
    if (!c.profile.empty())
        params["profile"] = c.profile;
    if (auto plan = renderRecipe(*recipe, params); !plan)
        r.fail("model", plan.error());
}

Result<MatrixConfig> parseConfig(const json& c, const std::string& where)
{
    static const std::set<std::string> keys { "name", "recipe", "profile", "model", "precision", "tp", "ep",
        "dp_attention", "prefill", "decode", "gpus_per_node", "workload", "isl", "osl", "concurrency", "repeats",
        "prompts_per_level", "port", "max_seqs", "max_model_len" };
    std::string error;
    if (!c.is_object())
        return Error { where + ": not an object" };
    if (!knownKeys(c, keys, where, error))
        return Error { error };
    MatrixConfig out;
    FieldReader r(c, where);
    r.text("name", out.name);
    r.text("recipe", out.recipe);
    r.text("profile", out.profile);
    r.text("model", out.model);
    r.text("precision", out.precision);
    r.text("workload", out.workload);
    r.integer("tp", out.tp, 1, 1024);
    r.integer("ep", out.ep, 1, 1024);
    r.boolean("dp_attention", out.dpAttention);
    r.integer("gpus_per_node", out.gpusPerNode, 1, 64);
    r.integer("isl", out.isl, 1, 10'000'000);
    r.integer("osl", out.osl, 1, 10'000'000);
    r.integer("repeats", out.repeats, 1, 100);
    r.integer("prompts_per_level", out.promptsPerLevel, 1, 10'000'000);
    r.integer("port", out.port, 1, 65535);
    r.integer("max_seqs", out.maxSeqs, 1, 1'000'000);
    r.integer("max_model_len", out.maxModelLen, 1, 100'000'000);
    readConcurrency(c, r, out);
    readSide(c, "prefill", r, out.prefill);
    readSide(c, "decode", r, out.decode);
    for (const char* required : { "recipe", "isl", "osl" })
        if (!c.contains(required))
            r.fail(required, "missing");
    if (out.workload != "random" && out.workload != "agentic")
        r.fail("workload", "random or agentic, got \"" + out.workload + "\"");
    if (out.prefill.has_value() != out.decode.has_value())
        r.fail(out.prefill ? "decode" : "prefill", "a disaggregated configuration gives both prefill and decode");
    if (out.dpAttention && out.tp == 1)
        r.fail("dp_attention", "attention data parallel needs tp above 1 (it spreads attention over the tp ranks)");
    if (r.error().empty() && !out.recipe.empty())
        checkAgainstRecipe(r, out);
    if (!r.error().empty())
        return Error { r.error() };
    if (out.name.empty())
        out.name = out.recipe + (out.profile.empty() ? "" : "-" + out.profile) + "-tp" + std::to_string(out.tp)
            + (out.dpAttention ? "-dpattn" : "");
    return out;
}

std::string joined(const std::vector<int>& levels)
{
    std::string s;
    for (int v : levels)
        s += (s.empty() ? "" : ",") + std::to_string(v);
    return s;
}

} // namespace

Result<Matrix> parseMatrix(std::string_view document, const std::string& name)
{
    auto parsed = parseOutsideJson(document, name, limits::kJsonDepth);
    if (!parsed)
        return Error { parsed.error() };
    json j = std::move(*parsed);
    if (!j.is_object())
        return Error { name + ": not a JSON object" };
    std::string error;
    if (!knownKeys(j, { "description", "slurm", "configurations" }, name, error))
        return Error { error };
    Matrix m;
    if (auto it = j.find("description"); it != j.end() && it->is_string())
        m.description = it->get<std::string>();
    if (auto it = j.find("slurm"); it != j.end()) {
        if (!it->is_object() || !knownKeys(*it, { "partition", "account", "time" }, name + ", slurm", error))
            return Error { error.empty() ? name + ", field slurm: not an object" : error };
        FieldReader r(*it, name + ", slurm");
        r.text("partition", m.partition);
        r.text("account", m.account);
        r.text("time", m.time);
        static const std::regex safe("^[A-Za-z0-9_.:,-]+$"); // they become #SBATCH lines
        for (const std::string* v : { &m.partition, &m.account, &m.time })
            if (!v->empty() && !std::regex_match(*v, safe))
                r.fail("partition, account or time", "letters, digits and _.:,- only");
        if (!r.error().empty())
            return Error { r.error() };
    }
    auto list = j.find("configurations");
    if (list == j.end() || !list->is_array() || list->empty())
        return Error { name + ", field configurations: missing or not a non-empty array" };
    std::set<std::string> names;
    for (std::size_t i = 0; i < list->size(); ++i) {
        std::string where = name + ": configuration " + std::to_string(i);
        auto c = parseConfig((*list)[i], where);
        if (!c)
            return Error { c.error() };
        if (!names.insert(c->name).second)
            return Error { where + ", field name: \"" + c->name + "\" is used twice (name the configurations)" };
        m.configurations.push_back(std::move(*c));
    }
    return m;
}

TaskResources taskResources(const MatrixConfig& c)
{
    TaskResources t;
    auto recipe = bundledRecipe(c.recipe);
    const bool simulation = recipe && recipe->engine == "engine-sim";
    if (c.prefill && c.decode) {
        t.nodes = c.prefill->nodes + c.decode->nodes;
        t.gpus = t.nodes * c.gpusPerNode;
    } else {
        t.gpus = std::max(1, c.tp);
        t.nodes = (t.gpus + c.gpusPerNode - 1) / c.gpusPerNode;
    }
    t.gpusPerNode = simulation ? 0 : std::min(c.gpusPerNode, t.gpus);
    return t;
}

std::optional<std::string> unrunnableReason(const MatrixConfig& c)
{
    auto recipe = bundledRecipe(c.recipe);
    if (recipe && recipe->engine == "engine-sim")
        return std::nullopt;
    const TaskResources t = taskResources(c);
    if (c.prefill && c.decode)
        return "a disaggregated configuration (prefill " + std::to_string(c.prefill->nodes) + " + decode "
            + std::to_string(c.decode->nodes)
            + " nodes): recipes start one engine on one node, not prefill and "
              "decode servers with their router; start the deployment yourself and sweep its router with bench "
              "--endpoint";
    if (t.nodes > 1)
        return "tp " + std::to_string(c.tp) + " needs " + std::to_string(t.nodes) + " nodes of "
            + std::to_string(c.gpusPerNode)
            + " GPUs: recipes start one engine on one node (no multi-node launch); "
              "start the deployment yourself and sweep it with bench --endpoint";
    return std::nullopt;
}

std::vector<std::string> benchArguments(const MatrixConfig& c)
{
    std::vector<std::string> a { "--recipe", c.recipe, "--model", c.model, "--isl", std::to_string(c.isl), "--osl",
        std::to_string(c.osl), "--concurrency", c.autoConcurrency ? "auto" : joined(c.concurrencies), "--tp",
        std::to_string(c.tp), "--ep", std::to_string(c.ep), "--gpus", std::to_string(taskResources(c).gpus) };
    if (c.dpAttention)
        a.push_back("--dp-attention");
    if (c.workload != "random")
        a.insert(a.end(), { "--workload", c.workload });
    if (!c.profile.empty())
        a.insert(a.end(), { "--profile", c.profile });
    if (c.repeats > 1)
        a.insert(a.end(), { "--repeats", std::to_string(c.repeats) });
    for (auto [option, v] : { std::pair { "--prompts-per-level", c.promptsPerLevel }, { "--port", c.port },
             { "--max-seqs", c.maxSeqs }, { "--max-model-len", c.maxModelLen } })
        if (v > 0)
            a.insert(a.end(), { option, std::to_string(v) });
    return a;
}

std::vector<std::string> exportArguments(const MatrixConfig& c)
{
    std::vector<std::string> a { "--model", c.model, "--runs", "all", "--include-marked", "--format", "json" };
    if (c.workload == "agentic") { // its scope is the workload's name, as bench makes it of isl and osl
        AgenticOptions o;
        o.turnTokens = c.isl;
        o.outputTokens = c.osl;
        a.insert(a.end(), { "--workload", AgenticWorkload(RequestShape { c.model }, o).name() });
    } else {
        a.insert(a.end(), { "--isl", std::to_string(c.isl), "--osl", std::to_string(c.osl) });
    }
    return a;
}

} // namespace paretoscope
