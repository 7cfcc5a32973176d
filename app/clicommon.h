#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "app/cliargs.h"
#include "core/analysis/accuracy.h"
#include "core/store/runstore.h"

namespace paretoscope::cli {

constexpr int kUsageError = 2;

std::optional<int> parseInt(const std::string& s);
/// A finite number, or empty.
std::optional<double> parseDouble(const std::string& s);
/// Prints the message and the hint to run help; returns the usage exit code.
int usageError(const std::string& msg);
/// The store of --db, or the default store (seeded when new), to read or to write. A write that waits for another
/// writer of the store says so on stderr every few seconds.
std::unique_ptr<RunStore> openFromArgs(const Args& a, std::string& error, StoreAccess access = StoreAccess::ReadWrite);
/// Whether a read of the store failed (a damaged file): then it prints why on stderr, and the command exits 1
/// without printing a partial answer.
bool readFailed(const RunStore& store);
/// A scope that holds nothing is an error, not an empty report: says what the store holds and the nearest scope on
/// stderr; returns 1.
int emptyScope(RunStore& store, const Scope& scope);
/// What a command needs of the store: nothing (or only its path), to read it, to write it, or to write it only with
/// --recover (`sessions`).
enum class StoreNeed { None, Read, Write, WriteToRecover };

/// A command as it runs: its arguments, argv (for bench's Slurm script) and its store on request.
/// A store a command may be about to create (a --db FILE that does not exist yet, or the default store's first use):
/// removed again by discard() when the command stored nothing, so that a failed import or sync leaves no file.
class NewStoreGuard {
public:
    explicit NewStoreGuard(const Args& a);
    /// Removes the store file with its -wal and -shm when it did not exist before; the store must be closed.
    void discard() const;

private:
    std::string m_path;
    bool m_new = false;
};

struct Invocation {
    const Args& args;
    StoreNeed need = StoreNeed::None;
    int argc = 0;
    char** argv = nullptr;
    /// The store as the command table says (openFromArgs); null after saying why on stderr, or with `error` given,
    /// after putting it there. Commands call it once their options are checked, so a usage error opens no store.
    std::unique_ptr<RunStore> store(std::string* error = nullptr) const;
};

/// The stored model a --model means: the name as stored, or the InferenceX site's name of one stored key
/// (DeepSeek-R1-0528 for dsr1). False after saying why on stderr (a site name of several stored keys).
bool resolveModel(RunStore& store, std::string& model);

/// --target, the interactivity a report or a replay reads at (tok/s/user, above zero); out unchanged without it.
bool targetOption(const Args& a, double& out, std::string& error);
/// An optional whole number above zero.
bool intOption(const Args& a, const std::string& name, int& out, std::string& error);
/// --format, one of allowed (the first is the default).
bool formatOption(const Args& a, std::initializer_list<const char*> allowed, std::string& out, std::string& error);

/// --min-accuracy TASK:MIN|TASK:best-Nse with --allow-unevaluated (docs/evaluations.md); unset without them.
bool accuracyOption(const Args& a, std::optional<AccuracyRequirement>& out, std::string& error);
/// --accuracy-task T: the task whose accuracy is shown (docs/evaluations.md); empty without it.
bool accuracyTaskOption(const Args& a, std::string& out, std::string& error);
/// Whether the task asked (none: true) is one the model has evaluations on; false after saying why on stderr.
bool accuracyTaskKnown(const EvaluationIndex& evaluations, const std::string& task, const std::string& model);
/// The same for the task of --min-accuracy (none: true): a task the store has no evaluation of would leave every
/// reading without data and no word why.
bool requirementTaskKnown(const EvaluationIndex& evaluations, const std::optional<AccuracyRequirement>& requirement,
    const std::string& model);

} // namespace paretoscope::cli
