#include "core/store/contentbuckets.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace paretoscope::contentbuckets {
namespace {

constexpr std::size_t kEntry = 8;

std::uint64_t entryAt(std::string_view list, std::size_t i)
{
    unsigned char b[kEntry];
    std::memcpy(b, list.data() + i * kEntry, kEntry);
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < kEntry; ++k)
        v |= std::uint64_t(b[k]) << (8 * k);
    return v;
}

void append(std::string& out, std::uint64_t v)
{
    char b[kEntry];
    for (std::size_t k = 0; k < kEntry; ++k)
        b[k] = static_cast<char>((v >> (8 * k)) & 0xff);
    out.append(b, kEntry);
}

// the first entry not below the hash
std::size_t lowerBound(std::string_view list, std::uint64_t hash)
{
    std::size_t lo = 0, hi = list.size() / kEntry;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (entryAt(list, mid) < hash)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

} // namespace

bool contains(std::string_view list, std::uint64_t hash)
{
    const std::size_t at = lowerBound(list, hash);
    return at < list.size() / kEntry && entryAt(list, at) == hash;
}

std::string merged(std::string_view list, std::span<const std::uint64_t> add)
{
    const std::size_t have = list.size() / kEntry;
    std::string out;
    out.reserve((have + add.size()) * kEntry);
    std::size_t i = 0, j = 0;
    while (i < have || j < add.size()) {
        if (j == add.size() || (i < have && entryAt(list, i) < add[j]))
            out.append(list.data() + kEntry * i++, kEntry);
        else
            append(out, add[j++]);
    }
    return out;
}

std::string without(std::string_view list, std::uint64_t hash)
{
    const std::size_t at = lowerBound(list, hash);
    std::string out(list.substr(0, list.size() / kEntry * kEntry));
    if (at < list.size() / kEntry && entryAt(list, at) == hash)
        out.erase(at * kEntry, kEntry);
    return out;
}

std::vector<std::uint64_t> decode(std::string_view list)
{
    std::vector<std::uint64_t> out(list.size() / kEntry);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = entryAt(list, i);
    return out;
}

} // namespace paretoscope::contentbuckets
