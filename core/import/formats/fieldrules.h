#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/model/fieldvalue.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope::fields {

/// A metric that must be a finite number above zero (null: absent).
Result<std::optional<double>> positive(std::string_view key, const FieldValue& v);
/// A count or size: an integer at least zero (null: absent).
Result<std::optional<long long>> count(std::string_view key, const FieldValue& v);
/// A string (null: absent). Numbers are accepted as their text (a model named 2024 stays "2024").
Result<std::optional<std::string>> text(std::string_view key, const FieldValue& v);
/// true/false, also written as the strings "true"/"false" or 0/1.
Result<std::optional<bool>> flag(std::string_view key, const FieldValue& v);

/// Stores a positive metric (null clears it); the error names the field.
Status assignPositive(std::string_view key, const FieldValue& v, std::optional<double>& out);
/// Stores a count or size up to 100,000,000 (null stores 0, "unknown"); the error names the field.
Status assignCount(std::string_view key, const FieldValue& v, int& out);
/// Stores a fraction from 0 to 1 (an accuracy, errorOfIt: its standard error; a percentage such as 95.8 is refused;
/// null stores nothing); the error names the field.
Status assignFraction(std::string_view key, const FieldValue& v, std::optional<double>& out, bool errorOfIt);

/// Where a latency statistic goes: key "median_tpot" (seconds) or "median_tpot_ms" (scale 1e-3). Statistics that
/// are not kept (std, p95, intvty) match with metric == nullptr. Member pointers, so a mapper can resolve a key once
/// and reuse it for every record of a file.
struct LatencyTarget {
    LatencyStats RunRecord::*metric = nullptr;
    std::optional<double> LatencyStats::*stat = nullptr;
    double scale = 1.0;
};
std::optional<LatencyTarget> latencyTarget(std::string_view key);

/// Stores a value at a resolved latency target (a positive number, or null).
Status setLatency(RunRecord& r, const LatencyTarget& target, std::string_view key, const FieldValue& v);

/// Sets a latency statistic if key names one. Returns false if the key is not a latency statistic.
Result<bool> setLatency(RunRecord& r, std::string_view key, const FieldValue& v);

/// "2026-04-28" from "20260428-105748" or an ISO date; other text unchanged.
std::string normaliseDate(std::string_view s);

/// A run's or an evaluation's date from field `key`: normalised (normaliseDate), empty when the text is, else a real
/// calendar day no later than tomorrow (outsideDateProblem); the error names the field.
Result<std::string> checkedDate(std::string_view key, std::string_view text);

} // namespace paretoscope::fields
