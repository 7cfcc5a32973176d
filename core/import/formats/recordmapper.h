#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/formats/importoptions.h"
#include "core/model/evaluation.h"
#include "core/model/fieldvalue.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope {

/// The formats Paretoscope reads (docs/architecture.md section 4).
enum class Format {
    InferenceXAgg,
    InferenceXApi,
    VllmBench,
    SglangBench,
    ParetoscopeJson,
    ParetoscopeCsv,
    InferenceXEvaluations, ///< accuracy runs, not benchmark runs (EvaluationMapper; docs/evaluations.md)
    ParetoscopeEvaluationsJson, ///< Paretoscope's own evaluation records (evaluationschema.h)
    ParetoscopeEvaluationsCsv,
};

/// Stable name of a format, as printed by the CLI and stored as provenance.
std::string_view formatName(Format f);

/// Turns the fields of one source record into a RunRecord. One mapper per format; the parser (simdjson, CSV) walks
/// the record and calls field() for each scalar, so a format's field rules live in one place.
class RecordMapper {
public:
    virtual ~RecordMapper() = default;
    /// Starts a new record.
    virtual void begin() = 0;
    /// One field; nested object fields arrive as "parent.child". The error names the field.
    virtual Status field(std::string_view key, const FieldValue& value) = 0;
    /// Whether to walk into the nested object `key` (its fields then arrive as "key.child").
    virtual bool descend(std::string_view key) const
    {
        (void)key;
        return false;
    }
    /// Checks required fields, derives the rest (docs/architecture.md section 3) and returns the record.
    virtual Result<RunRecord> finish() = 0;
    /// What the record just finished kept or left out without refusing it (an optional value of zero left out,
    /// lengths taken as measured means), one line each, without the file or record: the importer adds those and
    /// counts equal lines, so a cause gives the same line whatever the record.
    /// Whether the format's records are evaluations (accuracy runs; docs/evaluations.md), not benchmark runs: the
    /// importer then takes finishEvaluation() of each record, never finish().
    virtual bool holdsEvaluations() const { return false; }
    virtual Result<EvaluationRecord> finishEvaluation() { return Error { "a benchmark run, not an evaluation" }; }
    virtual const std::vector<std::string>& notes() const
    {
        static const std::vector<std::string> none;
        return none;
    }
};

/// The mapper for a format; vLLM and SGLang mappers take the fields their files lack from the options.
std::unique_ptr<RecordMapper> makeMapper(Format f, const ImportOptions& options);

/// The fields a vLLM or SGLang import needs from the caller and did not get, e.g. "hardware, gpus"; empty if complete.
std::string missingCallerFields(const ImportOptions& options);

} // namespace paretoscope
