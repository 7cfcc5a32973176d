#pragma once
// Queries of a store's tables for the store tests.

#include <QString>

#include <algorithm>
#include <cstdint>
#include <sqlite3.h>
#include <vector>

#include "core/store/runstore.h"
#include "core/store/sqlite.h"

namespace paretoscope::testsupport {

/// The first column of the first row of a query, on a read-only connection of its own; -1 when there is none.
inline long long scalar(const QString& db, const char* sql)
{
    sqlite3* h = nullptr;
    sqlite3_open_v2(db.toUtf8().constData(), &h, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/// The content hashes of the stored runs (runs.content_hash), ascending as unsigned numbers: what the store must hold
/// for finding duplicates, exactly.
inline std::vector<std::uint64_t> runHashes(RunStore& s)
{
    std::vector<std::uint64_t> out;
    sql::Statement q(s.handle(), "SELECT content_hash FROM runs");
    while (q.step())
        out.push_back(static_cast<std::uint64_t>(q.int64(0)));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace paretoscope::testsupport
