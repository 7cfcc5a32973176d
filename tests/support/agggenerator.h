#pragma once

#include <cstdint>
#include <string>

namespace paretoscope::testsupport {

/// Writes `count` synthetic InferenceX aggregate records (the 43 fields of a real agg_*.json) as one JSON array, the
/// shape of agg_bmk.json. Configurations cycle over hardware, engines, precisions and concurrencies; throughput falls
/// as interactivity rises, as in a real sweep. Deterministic for a seed. Returns the bytes written, 0 on failure.
std::uint64_t writeAggArray(const std::string& path, std::uint64_t count, std::uint32_t seed = 1);

} // namespace paretoscope::testsupport
