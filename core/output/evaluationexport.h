#pragma once

#include <string>
#include <vector>

#include "core/store/evaluationstore.h"

namespace paretoscope {

/// Stored evaluations in Paretoscope's own format (docs/evaluations.md; the columns of evaluationschema.h), which the
/// importer reads back to the same evaluations: a JSON array of records with "schema": "paretoscope.evaluation/1"
/// and an "evaluation_id", or CSV with a header of the column names after evaluation_id.
std::string evaluationsJson(const std::vector<StoredEvaluation>& evaluations);
std::string evaluationsCsv(const std::vector<StoredEvaluation>& evaluations);

} // namespace paretoscope
