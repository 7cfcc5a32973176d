#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/model/runrecord.h"

namespace paretoscope {

/// The run a point belongs to (docs/architecture.md section 10.2): an InferenceX workflow run, a live session, a
/// cluster task, or else the import it came in with. A chart line is taken from one run.
struct RunIdentity {
    std::string key; ///< "gh:27213443242/1", "session:12", "task:/shared/sweep#3", "import:7"
    /// The run as a number, unique in a store: its kind in the top byte, then the run's own number (workflow run id
    /// and attempt; session id; the import's source id). Of two runs of one line with the same date and start, the
    /// higher wins.
    std::int64_t order = 0;
};

enum class RunKind { InferenceX = 1, Session = 2, Task = 3, Import = 4 };

/// The workflow run of an InferenceX run_url (.../actions/runs/ID[/attempts/N], attempt 1 when not given), or
/// nothing.
std::optional<RunIdentity> workflowRun(std::string_view runUrl);

/// The run a record belongs to once stored from a source: its own `run` where it has one (an InferenceX run as is; a
/// cluster task's, or a session of the store a file was exported from, as a run of this import:
/// "task:DIR#3@import:7", "session:2@import:7"), else its run_url's workflow run, the live session its source is
/// ("session:ID"), or the import itself ("import:7", the source's id).
RunIdentity runIdentity(const RunRecord& record, std::string_view sourcePath, long long sourceId);

/// RunIdentity::order of a stored key.
std::int64_t runOrder(std::string_view key);

/// The kind of a run key.
RunKind runKind(std::string_view key);

/// A run key in words: "InferenceX run 27213443242 (attempt 1)", "live session 12", "cluster task 3 of
/// /shared/sweep", "import 7".
std::string runLabel(std::string_view key);

} // namespace paretoscope
