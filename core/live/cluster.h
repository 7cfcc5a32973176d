#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/live/matrix.h"
#include "core/model/result.h"

namespace paretoscope {

class RunStore;

/// A program's output, run without a shell.
struct ProgramOutput {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs argv (argv[0] looked up on PATH) and waits for it; an error only when it cannot be started.
Result<ProgramOutput> runProgram(const std::vector<std::string>& argv);

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
    std::vector<std::string> jobIds;
    std::vector<TaskStatus> tasks;
    bool ended = false; ///< every task finished or failed
    std::string note; ///< what the scheduler could not tell
};

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
/// import itself dedupes by content too).
std::vector<Collected> collectFinished(RunStore& store, const std::string& dir, ArrayStatus& status);

} // namespace paretoscope
