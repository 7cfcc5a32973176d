#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/live/matrix.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope {

class RunStore;

/// A program's output, run without a shell.
struct ProgramOutput {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// The most of a program's output runProgram keeps, per stream.
constexpr std::size_t kMaxProgramOutput = 16u << 20;

/// Runs argv (argv[0] looked up on PATH) and waits for it, at most timeoutSeconds (then it is killed); an error when
/// it cannot be started or did not end in time. Output past kMaxProgramOutput is dropped.
Result<ProgramOutput> runProgram(const std::vector<std::string>& argv, int timeoutSeconds = 120);

/// The Slurm array job of a matrix (docs/architecture.md section 13): one task per configuration, each running its
/// bench into a store of its own under DIR/work/TASK, exporting DIR/results/TASK.json (a temporary name renamed when
/// complete) and writing DIR/status/TASK ("finished" or "failed: reason"). dir and cli are absolute paths.
std::string arrayScript(const Matrix& matrix, const std::string& dir, const std::string& cli);

/// The sbatch command lines that submit the script: one when every task asks for the same nodes and GPUs, else one
/// per shape with that shape's tasks (sbatch's --array, --nodes and --gpus-per-node override the script's lines).
std::vector<std::vector<std::string>> submitCommands(const Matrix& matrix, const std::string& script);

/// Writes DIR/array.sbatch, DIR/submit.sh (the commands of submitCommands), DIR/matrix.json (the matrix as given)
/// and the folders the tasks write to. dir is made absolute.
Status writeArray(const Matrix& matrix, const std::string& matrixText, const std::string& dir, const std::string& cli);

/// Submits a written array with sbatch; returns the job ids, also kept in DIR/jobs.
Result<std::vector<std::string>> submitArray(const std::string& dir);

/// Whether a record can be a result of this configuration's task: its model, precision, sequence lengths (or
/// workload), concurrency (one of the matrix's levels unless the sweep is adaptive), tp, ep, attention data
/// parallel and GPU count, and for a recipe that runs a real engine its engine and hardware. The error names the
/// field, what the record says and what the task ran.
Status checkTaskResult(const MatrixConfig& config, const RunRecord& record);

/// Where a task is: pending, running, finished, failed (with the reason) or unknown (the scheduler cannot be asked).
struct TaskStatus {
    int task = 0;
    std::string name;
    std::string state;
    std::string reason;
    std::string results; ///< DIR/results/TASK.json when finished
    bool collected = false; ///< into the store collect was last run with
};

struct ArrayStatus {
    Matrix matrix; ///< as DIR/matrix.json gives it
    std::vector<std::string> jobIds;
    std::vector<TaskStatus> tasks;
    bool ended = false; ///< every task finished or failed
    std::string note; ///< what the scheduler could not tell
};

/// A task's state from the text of its status file: "finished" (its results at `results`), or "failed: REASON";
/// any other text fails it with that text as the reason.
void applyStatusText(TaskStatus& task, std::string_view text, const std::string& results);

/// Scheduler states per array task from `squeue -h -r -t all -o %K|%T` output, or `sacct -n -P -X -o JobID,State`
/// output (JobID 123_4; ranges of pending tasks 123_[5-7] are expanded).
std::map<int, std::string> parseSchedulerStates(const std::string& text, bool sacct);

/// The tasks' state from the status files first, then squeue and sacct for those without one. collectedBy: a store
/// path whose collected tasks are marked.
Result<ArrayStatus> arrayStatus(const std::string& dir, const std::string& collectedBy = {});

/// One task's import.
struct Collected {
    int task = 0;
    std::size_t imported = 0;
    std::size_t duplicates = 0;
    std::string error;
};

/// Imports each finished task's results not yet collected into this store (DIR/collected keeps the record; the
/// import itself dedupes by content too). A result must be Paretoscope JSON of the task's own configuration
/// (checkTaskResult); anything else is refused, naming the task and the field.
std::vector<Collected> collectFinished(RunStore& store, const std::string& dir, ArrayStatus& status);

} // namespace paretoscope
