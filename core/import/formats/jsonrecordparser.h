#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/import/documentstream.h"
#include "core/import/formats/recordmapper.h"
#include "core/model/result.h"

namespace paretoscope {

/// Parses one record cut out by forEachJsonElement and feeds its fields to a mapper: a flat record through
/// readFlatRecord, anything else through simdjson's DOM parser.
class JsonRecordParser {
public:
    JsonRecordParser();
    ~JsonRecordParser();
    /// The record's top-level keys, for format detection.
    Result<std::vector<std::string>> keys(const JsonElement& element);
    /// Walks the record's fields into the mapper, which begin() has just started; errors name the field.
    Status walk(const JsonElement& element, RecordMapper& mapper);
    /// As walk(), always through simdjson (the reference the flat reader is checked against).
    Status walkGeneral(const JsonElement& element, RecordMapper& mapper);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace paretoscope
