#include "latencypack.h"

#include <bit>
#include <cstdint>

namespace paretoscope {
namespace {

using Stat = std::optional<double> LatencyStats::*;
using Metric = LatencyStats RunRecord::*;

// the order of the packed statistics; bit i of the mask is entry i. Never reorder: stores hold this layout.
constexpr std::array<Metric, 4> kMetricOrder { &RunRecord::ttft, &RunRecord::tpot, &RunRecord::itl, &RunRecord::e2el };
constexpr std::array<Stat, 4> kStatOrder { &LatencyStats::mean, &LatencyStats::p90, &LatencyStats::p99,
    &LatencyStats::p999 };

std::optional<double>& slot(RunRecord& r, std::size_t i)
{
    return (r.*kMetricOrder[i / kStatOrder.size()]).*kStatOrder[i % kStatOrder.size()];
}

const std::optional<double>& slot(const RunRecord& r, std::size_t i)
{
    return (r.*kMetricOrder[i / kStatOrder.size()]).*kStatOrder[i % kStatOrder.size()];
}

void putLittleEndian(char* to, std::uint64_t v, int bytes)
{
    for (int b = 0; b < bytes; ++b)
        to[b] = static_cast<char>((v >> (8 * b)) & 0xff);
}

std::uint64_t getLittleEndian(const char* from, int bytes)
{
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b)
        v |= std::uint64_t(static_cast<unsigned char>(from[b])) << (8 * b);
    return v;
}

} // namespace

static_assert(kMetricOrder.size() * kStatOrder.size() == PackedLatency::kStats);

PackedLatency::PackedLatency(const RunRecord& r)
{
    std::uint64_t mask = 0;
    std::size_t at = 2;
    for (std::size_t i = 0; i < kStats; ++i) {
        if (const auto& v = slot(r, i)) {
            mask |= std::uint64_t(1) << i;
            putLittleEndian(m_bytes.data() + at, std::bit_cast<std::uint64_t>(*v), 8);
            at += 8;
        }
    }
    if (mask == 0)
        return;
    putLittleEndian(m_bytes.data(), mask, 2);
    m_size = at;
}

bool PackedLatency::unpack(std::string_view bytes, RunRecord& r)
{
    if (bytes.empty()) {
        for (std::size_t i = 0; i < kStats; ++i)
            slot(r, i).reset();
        return true;
    }
    if (bytes.size() < 2)
        return false;
    const std::uint64_t mask = getLittleEndian(bytes.data(), 2);
    if (mask == 0 || bytes.size() != 2 + 8 * static_cast<std::size_t>(std::popcount(mask)))
        return false;
    std::size_t at = 2;
    for (std::size_t i = 0; i < kStats; ++i) {
        if ((mask >> i) & 1) {
            slot(r, i) = std::bit_cast<double>(getLittleEndian(bytes.data() + at, 8));
            at += 8;
        } else {
            slot(r, i).reset();
        }
    }
    return true;
}

} // namespace paretoscope
