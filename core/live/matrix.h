#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// One side of a disaggregated configuration: its nodes (each with the configuration's GPUs per node) and its tp.
struct MatrixSide {
    int nodes = 1;
    int tp = 1;
};

/// One configuration of a sweep matrix: a recipe and its layout, swept over its concurrency levels (docs/cluster.md,
/// sweeps"). A count not given is 0 (the recipe's default).
struct MatrixConfig {
    std::string name;
    std::string recipe;
    std::string profile; ///< the emulator's profile (a recipe with a {profile} parameter, e.g. sim)
    std::string model;
    std::string precision;
    int tp = 0;
    int ep = 0;
    bool dpAttention = false;
    std::optional<MatrixSide> prefill; ///< with decode: a disaggregated configuration
    std::optional<MatrixSide> decode;
    int gpusPerNode = 8;
    std::string workload = "random";
    int isl = 0;
    int osl = 0;
    std::vector<int> concurrencies;
    bool autoConcurrency = false; ///< "concurrency": "auto": bench finds the levels itself
    int repeats = 1;
    int promptsPerLevel = 0;
    int port = 0;
    int maxSeqs = 0;
    int maxModelLen = 0;
};

/// A sweep matrix: its configurations and the Slurm options every task shares.
struct Matrix {
    std::string description;
    std::string partition;
    std::string account;
    std::string time = "04:00:00";
    std::vector<MatrixConfig> configurations;
};

/// What one task asks of the scheduler. A simulation asks for no GPU.
struct TaskResources {
    int nodes = 1;
    int gpusPerNode = 0; ///< 0: no GPU requested
    int gpus = 0; ///< the GPUs the configuration's runs are labelled with
    bool operator==(const TaskResources&) const = default;
};

/// Reads a matrix: only known keys; a recipe must be shipped and its precision match; every error names the
/// configuration's index and the field.
Result<Matrix> parseMatrix(std::string_view json, const std::string& name);
/// The nodes and GPUs of a configuration's task: tp (or the recipe's) GPUs on as many nodes as they need; a
/// disaggregated one its prefill nodes plus its decode nodes.
TaskResources taskResources(const MatrixConfig& config);
/// Why a task cannot measure the configuration as it is meant, or nothing when it can: a recipe starts one engine on
/// one node, so a configuration that needs more than one node (tp over several, or disaggregated prefill and decode
/// with their router) would measure that one engine and divide its throughput by GPUs it never used. Its task fails
/// with this reason instead, and a run here skips it. The emulator (`sim`) needs no GPU, so it is never refused.
std::optional<std::string> unrunnableReason(const MatrixConfig& config);
/// The arguments of `paretoscope-cli bench` (after the command) that run one configuration; "--concurrency auto"
/// for an adaptive sweep, "--dp-attention" for attention data parallel.
std::vector<std::string> benchArguments(const MatrixConfig& config);
/// The arguments of `paretoscope-cli export` (after the command) that select a configuration's runs in its task's
/// own store.
std::vector<std::string> exportArguments(const MatrixConfig& config);

} // namespace paretoscope
