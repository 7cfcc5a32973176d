#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/evaluation.h"
#include "core/model/scope.h"

namespace paretoscope::testsupport {

/// Writes `count` synthetic InferenceX aggregate records (the 43 fields of a real agg_*.json) as one JSON array, the
/// shape of agg_bmk.json. Configurations cycle over hardware, engines, precisions and concurrencies; throughput falls
/// as interactivity rises, as in a real sweep. Deterministic for a seed. Returns the bytes written, 0 on failure.
/// With dateCount above 0, each block of 11,520 records (every configuration once) is dated a day later, from
/// 2026-01-01, cycling over dateCount days: each configuration is measured again on later days, as a history is.
std::uint64_t writeAggArray(
    const std::string& path, std::uint64_t count, std::uint32_t seed = 1, std::uint32_t dateCount = 0);

/// `count` synthetic GSM8K evaluations of a model's groups (bench_ladder, bench_explorer --evaluations): round the
/// groups, configurations of tp 1 to 8 and concurrencies 32 to 128, accuracies 90% to 97% (se 0.6), dates through 2026.
std::vector<EvaluationRecord> syntheticEvaluations(
    const std::string& model, const std::vector<GroupKey>& groups, std::uint64_t count);

} // namespace paretoscope::testsupport
