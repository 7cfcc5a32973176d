#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/formats/recordmapper.h"
#include "core/import/formats/recordschema.h"
#include "core/model/evaluation.h"

namespace paretoscope {

/// One column of Paretoscope's own evaluation records (docs/evaluations.md): JSON objects with
/// "schema": "paretoscope.evaluation/1", or CSV rows under a header of these names. Export writes them; the
/// importer reads them back, so a round trip keeps every field of a stored evaluation.
struct EvaluationColumn {
    std::string_view name;
    CellValue (*get)(const EvaluationRecord&);
    Status (*set)(EvaluationRecord&, std::string_view key, const FieldValue&);
};

/// The columns in export order.
std::span<const EvaluationColumn> evaluationColumns();

/// The marker of Paretoscope's own evaluation records in JSON.
inline constexpr std::string_view kEvaluationSchema = "paretoscope.evaluation/1";

/// Whether a CSV header is of Paretoscope's own evaluations: model, hardware, task and an accuracy column.
bool isEvaluationCsvHeader(const std::vector<std::string>& header);

/// The mapper of those records (JSON or CSV): finishEvaluation() checks the required fields (model, hardware,
/// engine, precision, task, date, one of em_strict, em_flexible, score) and gives the record.
std::unique_ptr<RecordMapper> makeParetoscopeEvaluationMapper();

} // namespace paretoscope
