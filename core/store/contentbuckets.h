#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace paretoscope::contentbuckets {

/// The content hashes of the stored runs (contentHash()) are kept in buckets by their top 16 bits: one row per bucket
/// (table content_buckets), holding a hash list, its hashes ascending, each 8 bytes little-endian. An import of a
/// million records then writes some 65,000 rows when it commits instead of a million, the one part of an import
/// that runs on one core alone.

/// The bucket of a hash: its top 16 bits (0 to 65535).
inline std::int64_t bucketOf(std::uint64_t hash)
{
    return static_cast<std::int64_t>(hash >> 48);
}

/// Whether a hash list holds the hash.
bool contains(std::string_view list, std::uint64_t hash);

/// A hash list with the hashes of `add` (ascending, none already in the list) put in their places.
std::string merged(std::string_view list, std::span<const std::uint64_t> add);

/// A hash list without the hash (the list unchanged when it does not hold it).
std::string without(std::string_view list, std::uint64_t hash);

/// The hashes of a hash list (a trailing partial entry is ignored).
std::vector<std::uint64_t> decode(std::string_view list);

} // namespace paretoscope::contentbuckets
