#pragma once

#include "core/import/formats/recordmapper.h"
#include "core/model/evaluation.h"

namespace paretoscope {

/// Reads the InferenceX API's evaluation rows (its /api/v1/evaluations route: a configuration, a task and metrics
/// with standard errors; docs/evaluations.md) into EvaluationRecords. An evaluation is not a run: finish() refuses,
/// finishEvaluation() gives the record. Errors name the field.
class EvaluationMapper final : public RecordMapper {
public:
    void begin() override;
    Status field(std::string_view key, const FieldValue& value) override;
    bool descend(std::string_view key) const override { return key == "metrics"; }
    Result<RunRecord> finish() override;
    /// Checks the required fields and the metrics' ranges, derives the GPU count and returns the record.
    bool holdsEvaluations() const override { return true; }
    Result<EvaluationRecord> finishEvaluation() override;

private:
    EvaluationRecord m_r;
    bool m_multinode = false;
    int m_numPrefill = 0, m_numDecode = 0;
    bool m_seenHardware = false, m_seenModel = false, m_seenEngine = false, m_seenPrecision = false, m_seenTask = false,
         m_seenDate = false;
};

} // namespace paretoscope
