#pragma once

#include <span>

#include "core/model/runrecord.h"
#include "core/store/sqlite.h"

namespace paretoscope {

/// One per-run column of the runs table: its SQL name and type, and how a record is bound to it and read from it.
/// bind() does not copy text: the record must outlive the step of the statement it was bound to.
/// The table, the INSERT and the SELECT are all generated from this one list, so they cannot drift apart.
struct RunColumn {
    const char* name;
    const char* type;
    void (*bind)(sql::Statement&, int, const RunRecord&);
    void (*read)(const sql::Statement&, int, RunRecord&);
};

/// The per-run columns, in table order (after id, series_id, source_id, record_index, content_hash). The run's identity
/// (run_key, run_order, run_started) follows them: the import writer makes it from the record and its source
/// (runidentity.h), and reads take it with them (kRunIdentityColumns).
std::span<const RunColumn> runColumns();

/// The identity columns after runColumns(), as a SELECT lists them.
inline constexpr const char* kRunIdentityColumns = "run_key, run_order, run_started";

} // namespace paretoscope
