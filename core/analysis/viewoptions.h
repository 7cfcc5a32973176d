#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/ladder.h"
#include "core/model/result.h"
#include "core/model/scope.h"

namespace paretoscope {

/// A view of the ladder: everything that defines what the CLI's `ladder` prints and what the explorer's readout shows
/// (scope, filters, runs, as-of date, targets, metric, clamp, sparse readings, tier or price, baseline). The CLI and
/// the explorer (`paretoscope --view 'ARGS'`, "Copy view as command") parse and write it with these functions.
struct ViewOptions {
    LadderRequest request;
    std::string baseline; ///< normalised hardware key; empty: no comparison
};

/// Parsed --options: name (without the dashes) -> every value given (empty for a flag), as the CLI's parser keeps them.
using OptionMap = std::map<std::string, std::vector<std::string>>;

/// Every value of a repeatable option, comma-separated lists split ("--hardware b300,mi325x --hardware h200").
std::vector<std::string> optionList(const OptionMap& options, const std::string& name);

/// The option names a view takes, and whether each takes a value.
const std::map<std::string, bool>& viewOptionSpec();

/// The scope of parsed options: --model (required), --isl and --osl (or --workload), --hardware, --engine,
/// --precision, --spec (repeatable, comma-separated), --from, --to, --as-of (yyyy-mm-dd),
/// --runs latest|latest-per-configuration|all, --include-marked, --ttft-max S, --tpot-max S (seconds above zero) and
/// --ttft-stat median|p99 (with --ttft-max). Errors name the option and the value.
Result<Scope> scopeFromOptions(const OptionMap& options);
/// The scope plus --targets, --metric, --clamp, --hide-sparse, --tier or --price, --baseline.
Result<ViewOptions> viewFromOptions(const OptionMap& options);

/// Splits a command line into words as a POSIX shell does: blanks separate, '...' is literal, "..." keeps \" \\ \$
/// and \` escapes, a backslash outside quotes escapes the next character (before a newline it continues the line).
/// An unclosed quote is an error.
Result<std::vector<std::string>> splitCommandLine(std::string_view text);
/// A view from its arguments: "[paretoscope-cli] [ladder] --model M ..." (a leading program name and `ladder` are
/// skipped; `--name=value` and `--name value` both work). Unknown options and positional words are errors.
Result<ViewOptions> parseViewArgs(const std::vector<std::string>& args);
/// The view as a `paretoscope-cli ladder ...` line with every option that differs from the default, each word quoted
/// for a POSIX shell where needed; parseViewArgs(splitCommandLine(it)) gives the same view back.
std::string viewCommand(const ViewOptions& view);
/// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in single quotes ('\'' for
/// a quote inside).
std::string shellQuote(std::string_view word);

} // namespace paretoscope
