#pragma once

#include <string>

#include "core/model/result.h"

struct sqlite3;

namespace paretoscope {

class RunStore;
namespace sql {
class Statement;
}

/// One write transaction on the store. It starts with BEGIN IMMEDIATE, waiting behind another writer for as long as
/// that one writes (RunStore's busy handler), and says who writes (writernote). After any failure it checks whether
/// SQLite is still inside the transaction: on a full disk, an I/O error or no memory SQLite rolls back by itself, and
/// a statement run after that would commit on its own. A failed transaction takes no further writes and is rolled
/// back, never committed.
class WriteTransaction {
public:
    /// Begins the transaction; `what` tells waiting processes what this one writes ("importing big.json").
    static Result<WriteTransaction> begin(RunStore& store, const std::string& what);
    WriteTransaction(WriteTransaction&& o) noexcept;
    WriteTransaction& operator=(WriteTransaction&& o) noexcept;
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    ~WriteTransaction(); ///< rolls back unless committed

    /// ok() when the statement did not fail; otherwise "what: the failure", and the transaction takes no more writes.
    Status check(const sql::Statement& statement, const std::string& what);
    /// Records a failure found by the caller: the transaction takes no more writes. Returns the message as an error.
    Status fail(const std::string& message);
    /// Runs SQL without parameters inside the transaction, checked as check() does.
    Status exec(const std::string& text, const std::string& what);
    /// Whether writes may go on: begun, not failed, not ended.
    bool usable() const { return m_open && m_failure.empty(); }
    /// Commits, or says why not; a transaction that failed before is rolled back instead.
    Status commit();
    /// Rolls back (when SQLite has not already).
    void rollback();

private:
    explicit WriteTransaction(RunStore& store);
    RunStore* m_store;
    std::string m_what; // as the writer's note says it
    bool m_open = false;
    std::string m_failure;
};

} // namespace paretoscope
