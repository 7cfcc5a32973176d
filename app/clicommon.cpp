#include "clicommon.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/scopehint.h"
#include "core/import/bundled.h"
#include "core/model/modelnames.h"

namespace paretoscope::cli {

std::optional<int> parseInt(const std::string& s)
{
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<double> parseDouble(const std::string& s)
{
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

int usageError(const std::string& msg)
{
    std::cerr << "paretoscope-cli: " << msg << "\n(run 'paretoscope-cli help' for the commands)\n";
    return kUsageError;
}

NewStoreGuard::NewStoreGuard(const Args& a)
    : m_path(a.value("db").value_or(defaultStorePath()))
{
    std::error_code ec;
    m_new = !std::filesystem::exists(m_path, ec) && !ec;
}

void NewStoreGuard::discard() const
{
    if (!m_new)
        return;
    std::error_code ec;
    for (const char* suffix : { "", "-wal", "-shm", "-journal" })
        std::filesystem::remove(m_path + suffix, ec);
}

std::unique_ptr<RunStore> openFromArgs(const cli::Args& a, std::string& error, StoreAccess access)
{
    auto db = a.value("db");
    auto store = db ? openStore(*db, false, access) : openStore(defaultStorePath(), true, access);
    if (!store) {
        error = store.error();
        return nullptr;
    }
    (*store)->setWaitFn([](const std::string& message, double) {
        std::cerr << "paretoscope-cli: " << message << std::endl;
        return true;
    });
    return std::move(*store);
}

std::unique_ptr<RunStore> Invocation::store(std::string* error) const
{
    const bool write = need == StoreNeed::Write || (need == StoreNeed::WriteToRecover && args.has("recover"));
    std::string why;
    auto opened = openFromArgs(args, why, write ? StoreAccess::ReadWrite : StoreAccess::ReadOnly);
    if (!opened && error)
        *error = why;
    else if (!opened)
        std::cerr << "paretoscope-cli: " << why << "\n";
    return opened;
}

bool readFailed(const RunStore& store)
{
    if (auto st = store.readStatus(); !st) {
        std::cerr << "paretoscope-cli: " << st.error() << "\n";
        return true;
    }
    return false;
}

bool resolveModel(RunStore& store, std::string& model)
{
    const ModelChoice choice = resolveModelName(model, store.models());
    if (!choice.error.empty()) {
        std::cerr << "paretoscope-cli: " << choice.error << "\n";
        return false;
    }
    model = choice.model;
    return true;
}

bool targetOption(const cli::Args& a, double& out, std::string& error)
{
    auto t = a.value("target");
    if (!t)
        return true;
    auto v = parseDouble(*t);
    if (!v || *v <= 0) {
        error = "--target must be a number above zero (tok/s/user), got '" + *t + "'";
        return false;
    }
    out = *v;
    return true;
}

bool intOption(const cli::Args& a, const std::string& name, int& out, std::string& error)
{
    auto v = a.value(name);
    if (!v)
        return true;
    auto n = parseInt(*v);
    if (!n || *n <= 0) {
        error = "--" + name + " must be a whole number above zero, got '" + *v + "'";
        return false;
    }
    out = *n;
    return true;
}

bool formatOption(const cli::Args& a, std::initializer_list<const char*> allowed, std::string& out, std::string& error)
{
    out = a.value("format").value_or(*allowed.begin());
    for (const char* f : allowed)
        if (out == f)
            return true;
    error = "--format must be one of:";
    for (const char* f : allowed)
        error += std::string(" ") + f;
    return false;
}

bool accuracyOption(const cli::Args& a, std::optional<AccuracyRequirement>& out, std::string& error)
{
    out.reset();
    if (auto m = a.value("min-accuracy")) {
        auto r = parseAccuracyRequirement(*m);
        if (!r) {
            error = r.error();
            return false;
        }
        r->allowUnevaluated = a.has("allow-unevaluated");
        out = *r;
    } else if (a.has("allow-unevaluated")) {
        error = "--allow-unevaluated goes with --min-accuracy";
        return false;
    }
    return true;
}

bool accuracyTaskOption(const cli::Args& a, std::string& out, std::string& error)
{
    out.clear();
    if (auto t = a.value("accuracy-task")) {
        auto task = accuracyTaskName(*t);
        if (!task) {
            error = task.error();
            return false;
        }
        out = *task;
    }
    return true;
}

bool accuracyTaskKnown(const EvaluationIndex& evaluations, const std::string& task, const std::string& model)
{
    if (task.empty())
        return true;
    if (auto known = knownAccuracyTask(evaluations, task, model); !known) {
        std::cerr << "paretoscope-cli: " << known.error() << "\n";
        return false;
    }
    return true;
}

bool requirementTaskKnown(
    const EvaluationIndex& evaluations, const std::optional<AccuracyRequirement>& requirement, const std::string& model)
{
    if (!requirement)
        return true;
    if (auto known = knownAccuracyTask(evaluations, requirement->task, model, "--min-accuracy"); !known) {
        std::cerr << "paretoscope-cli: " << known.error() << "\n";
        return false;
    }
    return true;
}

// A scope that holds nothing is an error, not an empty report: say what the store holds and the nearest scope.
int emptyScope(RunStore& store, const Scope& scope)
{
    const ScopeHint hint = emptyScopeHint(scope, store.scopes());
    if (readFailed(store))
        return 1;
    std::cerr << "paretoscope-cli: " << hint.text << "\n";
    if (hint.nearest) {
        auto quoted
            = [](const std::string& s) { return s.find_first_of(" \t'\"") == std::string::npos ? s : "'" + s + "'"; };
        const ScopeSummary& n = *hint.nearest;
        std::cerr << "paretoscope-cli: try --model " << quoted(n.model);
        if (n.isl > 0 && n.osl > 0)
            std::cerr << " --isl " << n.isl << " --osl " << n.osl;
        else
            std::cerr << " --workload " << quoted(n.workload);
        std::cerr << "\n";
    }
    return 1;
}

} // namespace paretoscope::cli
