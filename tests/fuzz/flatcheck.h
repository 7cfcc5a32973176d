#pragma once

#include <string>
#include <string_view>

namespace paretoscope::fuzz {

/// Reads one record both ways, with readFlatRecord and with the general parser (simdjson), into mappers that write
/// down every field (key, kind, value bits). Returns what differs, or "" when they agree: the flat reader may decline
/// any record, but a record it takes must be one simdjson takes, give the same fields in the same order with the
/// same values bit for bit, and end with the same mapper error. A field whose key is "refuse" is refused by the
/// mappers, to check that an error stops the fields but not the reading. The record is also read as the start of a
/// longer text (readFlatRecordPrefix), which must agree with both.
std::string flatRecordMismatch(std::string_view record, bool* tookFlat = nullptr);

} // namespace paretoscope::fuzz
