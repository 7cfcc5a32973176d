#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/evaluation.h"
#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope {

class RunStore;

/// What storing a file's evaluations did.
struct EvaluationWrite {
    std::uint64_t inserted = 0;
    std::uint64_t duplicates = 0; ///< already stored (equal content), or repeated in the file
};

/// Stores evaluations in one transaction, every one or none, under a source row of their own (provenance). Records
/// of equal content (EvaluationRecord::contentKey) are stored once, as runs are.
Result<EvaluationWrite> storeEvaluations(
    RunStore& store, const Provenance& provenance, const std::vector<EvaluationRecord>& records);

/// An evaluation as stored.
struct StoredEvaluation {
    long long id = 0;
    EvaluationRecord record;
};

/// Every stored evaluation of a model (its database key), oldest date first; on a store error, what was read and
/// the store's read error set (RunStore::readStatus).
std::vector<StoredEvaluation> storedEvaluations(RunStore& store, const std::string& model);

/// How many evaluations the store holds.
long long evaluationCount(RunStore& store);

} // namespace paretoscope
