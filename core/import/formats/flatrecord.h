#pragma once

#include <cstddef>
#include <string_view>

#include "core/import/formats/recordmapper.h"
#include "core/model/result.h"

namespace paretoscope {

/// Reads a record that is a flat JSON object, the shape of nearly every benchmark record, in one pass over its text,
/// without copying keys or strings, and gives its fields to the mapper.
///
/// It takes only what it can check completely itself: one object whose values are strings, numbers, true, false or
/// null, where no key or string holds a backslash, a control character or a byte above 0x7f, and no number has more
/// than 18 integer digits or falls outside a double's range. Numbers come out correctly rounded, as the general
/// parser (simdjson) gives them.
///
/// Returns true when it read the whole record: each field went to mapper.field() in order, up to the first one the
/// mapper refused, whose error is then in `status`. Returns false for anything else (nested values, escapes,
/// non-ASCII text, any syntax error): the mapper may have had some fields, so begin() it again and give it the
/// record through the general parser, which also gives the error messages. `readable` is how many bytes from
/// text.data() may be read (text.size() or more; more lets it read 16 bytes at a time).
bool readFlatRecord(std::string_view text, std::size_t readable, RecordMapper& mapper, Status& status);

/// As readFlatRecord(), for a record that starts at text.data() and ends somewhere in text: on success `length` is
/// the record's size up to and including its closing '}', and what follows is not looked at. False also when text
/// ends before the record does.
bool readFlatRecordPrefix(
    std::string_view text, std::size_t readable, RecordMapper& mapper, Status& status, std::size_t& length);

} // namespace paretoscope
