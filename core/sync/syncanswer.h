#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "core/import/formats/importoptions.h"
#include "core/model/result.h"
#include "core/sync/sync.h"

namespace paretoscope {

/// What one item's answer may hold and must hold (docs/sync.md, "What a sync marks"). May: rows of the item's units
/// only, a model among a unit's keys and, for a unit's history, its sequence; a row of another unit refuses the whole
/// answer, naming the unit and the row. Must: every date the availability route lists for each unit after what was
/// synced before (and not before --since), or, for the latest view, each unit's newest date: an answer without one
/// is short, refused, and the unit not marked. A unit is then marked up to the newest date its answer held.
class SyncAnswerCheck {
public:
    SyncAnswerCheck(const SyncPlan& plan, const SyncItem& item, const SyncOptions& options);

    /// The options of the item's import: its route's format, the check of each row, the rows stored (its units'
    /// sequences, dated after what was synced before and not before --since) and the check of the whole answer.
    /// They refer to this object, which must outlive the import.
    ImportOptions importOptions();

    /// An answer without rows (an empty array): fine only where nothing was expected of it.
    Status emptyAnswer() const;

    /// The date unit k of the item (k indexes SyncItem::units) is synced up to: the newest its answer held, or,
    /// where nothing was expected of it and it held nothing, the newest the availability route lists.
    std::string markOf(std::size_t k) const;

private:
    Status checkRow(const RunRecord& r);
    bool keepRow(const RunRecord& r) const;
    Status whole() const;
    std::size_t unitOf(const RunRecord& r, bool& modelOfItem) const;

    const SyncPlan& m_plan;
    const SyncItem& m_item;
    const bool m_history;
    const int m_sinceDay;
    std::vector<int> m_afterDay; ///< per unit of the item
    std::vector<std::vector<int>> m_expected; ///< per unit: the days its answer must hold
    std::vector<std::set<int>> m_held; ///< per unit: the days its answer held
};

} // namespace paretoscope
