#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "core/import/bytesource.h"
#include "core/model/result.h"

namespace paretoscope {

/// One top-level JSON value cut out of a stream: an element of a top-level array, or one of a sequence of
/// whitespace-separated documents (JSON Lines). The bytes after `text` up to `capacity` are readable (padding for
/// simdjson).
struct JsonElement {
    std::string_view text;
    std::size_t capacity = 0;
    std::uint64_t index = 0; ///< 0-based record number in the file
    std::uint64_t line = 0; ///< 1-based line where the record starts
};

/// Limits that keep memory bounded whatever the input.
struct StreamLimits {
    std::size_t maxElementBytes = 64u << 20;
    int maxDepth = 64;
};

/// JSON's whitespace: space, tab, line feed, carriage return.
inline bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

using ElementFn = std::function<Status(const JsonElement&)>;
/// Progress: bytes consumed so far and the total (0 when unknown); returning false cancels.
using ProgressFn = std::function<bool(std::uint64_t done, std::uint64_t total)>;

/// Offered each record that starts with '{' before it is cut out: `from.text` runs from the record's first byte to
/// the end of what is in memory. It may read the whole record from there and return how many bytes it took, or
/// return 0 to have the record cut out and given to the ElementFn as usual (then it is offered again if the record
/// did not fit in memory). Saves the separate scan for the end of a record the callback can read in one pass.
using RecordPrefixFn = std::function<Result<std::size_t>(const JsonElement& from)>;

/// Cuts a JSON stream into its records without holding more than a window of it in memory. The structure between
/// records (brackets, commas, whitespace) is checked here; each record's own syntax is checked by its parser.
/// Errors name the source, the record and the line.
Status forEachJsonElement(ByteSource& source, const StreamLimits& limits, const ElementFn& onElement,
    const ProgressFn& progress, const RecordPrefixFn& tryPrefix = {});

} // namespace paretoscope
