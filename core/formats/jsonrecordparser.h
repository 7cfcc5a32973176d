#pragma once

#include <memory>
#include <string>
#include <vector>

#include "../documentstream.h"
#include "../result.h"
#include "recordmapper.h"

namespace paretoscope {

/// Parses one record cut out by forEachJsonElement (simdjson on-demand) and feeds its fields to a mapper.
class JsonRecordParser {
public:
    JsonRecordParser();
    ~JsonRecordParser();
    /// The record's top-level keys, for format detection.
    Result<std::vector<std::string>> keys(const JsonElement& element);
    /// Walks the record's fields into the mapper; errors name the field.
    Status walk(const JsonElement& element, RecordMapper& mapper);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace paretoscope
