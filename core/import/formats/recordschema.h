#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "core/model/fieldvalue.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope {

/// The value of one exported cell: empty, text, integer, number or flag.
using CellValue = std::variant<std::monostate, std::string, long long, double, bool>;

/// One column of Paretoscope's own JSON and CSV record format, with its unit in the name (e.g. ttft_median_s).
/// Export writes these; the own-format importer reads them back, so a round trip keeps every field.
struct RecordColumn {
    std::string_view name;
    CellValue (*get)(const RunRecord&);
    Status (*set)(RunRecord&, std::string_view key, const FieldValue&);
};

/// The columns in export order.
std::span<const RecordColumn> recordColumns();

/// The marker every record of Paretoscope's own JSON carries: "schema": "paretoscope.run/1".
inline constexpr std::string_view kRecordSchema = "paretoscope.run/1";

} // namespace paretoscope
