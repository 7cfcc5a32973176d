#include "core/store/latencypack.h"

#include <bit>
#include <cstdint>
#include <cstring>

namespace paretoscope {
namespace {

// The packed statistics in their order; bit i of the mask is entry i. Never reorder: stores hold this layout.
template <typename Record> auto packedStats(Record& r)
{
    return std::array { &r.ttft.mean, &r.ttft.p90, &r.ttft.p99, &r.ttft.p999, &r.tpot.mean, &r.tpot.p90, &r.tpot.p99,
        &r.tpot.p999, &r.itl.mean, &r.itl.p90, &r.itl.p99, &r.itl.p999, &r.e2el.mean, &r.e2el.p90, &r.e2el.p99,
        &r.e2el.p999 };
}

void putLittleEndian(char* to, std::uint64_t v, int bytes)
{
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(to, &v, static_cast<std::size_t>(bytes));
    } else {
        for (int b = 0; b < bytes; ++b)
            to[b] = static_cast<char>((v >> (8 * b)) & 0xff);
    }
}

std::uint64_t getLittleEndian(const char* from, int bytes)
{
    std::uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&v, from, static_cast<std::size_t>(bytes));
    } else {
        for (int b = 0; b < bytes; ++b)
            v |= std::uint64_t(static_cast<unsigned char>(from[b])) << (8 * b);
    }
    return v;
}

} // namespace

PackedLatency::PackedLatency(const RunRecord& r)
{
    const auto stats = packedStats(r);
    static_assert(stats.size() == kStats);
    std::uint64_t mask = 0;
    std::size_t at = 2;
    for (std::size_t i = 0; i < kStats; ++i) {
        if (const std::optional<double>& v = *stats[i]) {
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
    const auto stats = packedStats(r);
    if (bytes.empty()) {
        for (std::optional<double>* v : stats)
            v->reset();
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
            *stats[i] = std::bit_cast<double>(getLittleEndian(bytes.data() + at, 8));
            at += 8;
        } else {
            stats[i]->reset();
        }
    }
    return true;
}

std::optional<double> PackedLatency::stat(std::string_view bytes, std::size_t index)
{
    if (bytes.size() < 2 || index >= kStats)
        return std::nullopt;
    const std::uint64_t mask = getLittleEndian(bytes.data(), 2);
    if (mask == 0 || bytes.size() != 2 + 8 * static_cast<std::size_t>(std::popcount(mask)) || !((mask >> index) & 1))
        return std::nullopt;
    const std::size_t before = static_cast<std::size_t>(std::popcount(mask & ((std::uint64_t(1) << index) - 1)));
    return std::bit_cast<double>(getLittleEndian(bytes.data() + 2 + 8 * before, 8));
}

} // namespace paretoscope
