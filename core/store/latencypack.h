#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "core/model/runrecord.h"

namespace paretoscope {

/// The latency statistics no query filters or sorts on (mean, p90, p99 and p99.9 of TTFT, TPOT, ITL and E2E latency)
/// as one value of the store: a 16-bit mask of the statistics present, then each present one as a little-endian
/// IEEE-754 double, metric by metric (TTFT, TPOT, ITL, E2E) and statistic by statistic. The medians keep columns of
/// their own, which queries use. One column in place of sixteen cut the writer thread's time in a 1M-record import by
/// about a quarter.
class PackedLatency {
public:
    static constexpr std::size_t kStats = 16;
    static constexpr std::size_t kMaxBytes = 2 + 8 * kStats;

    explicit PackedLatency(const RunRecord& r);
    /// The packed bytes; empty when the record has none of these statistics.
    std::string_view bytes() const { return { m_bytes.data(), m_size }; }

    /// Sets the statistics of r from packed bytes (an empty view: none). False, leaving r unchanged, when the bytes
    /// are not a packing: an empty mask, or a length that does not match it.
    static bool unpack(std::string_view bytes, RunRecord& r);
    /// One statistic of a packing (index in the order of the layout: TTFT mean, p90, p99, p99.9, TPOT mean ...), or
    /// empty when the packing lacks it or is not one.
    static std::optional<double> stat(std::string_view bytes, std::size_t index);
    static constexpr std::size_t kTtftP99 = 2;

private:
    std::array<char, kMaxBytes> m_bytes {};
    std::size_t m_size = 0;
};

} // namespace paretoscope
