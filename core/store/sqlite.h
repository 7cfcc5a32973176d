#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace paretoscope::sql {

/// A prepared statement; every value reaches SQLite as a bound parameter, never spliced into SQL text.
class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view text);
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&& o) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    bool valid() const { return m_stmt != nullptr; }
    const std::string& prepareError() const { return m_error; }

    void bind(int i, std::int64_t v);
    void bind(int i, double v);
    void bind(int i, std::string_view v); ///< empty text binds NULL
    /// As bind(i, v), but SQLite does not copy the text: it must stay unchanged until the statement has been stepped
    /// and is bound or reset again.
    void bindUncopied(int i, std::string_view v);
    void bindText(int i, std::string_view v); ///< binds '' for empty text
    void bind(int i, const std::optional<double>& v);
    void bind(int i, const std::optional<std::int64_t>& v);
    void bindNull(int i);
    void bindBlob(int i, std::string_view bytes);
    void bindIntOrNull(int i, long long v); ///< 0 binds NULL (unknown)
    /// Binds column `col` of the other statement's current row as it is (any type), as a copy.
    void bindValue(int i, const Statement& from, int col);

    /// Steps once: true when a row is ready, false when done; errors land in error().
    bool step();
    void reset(); ///< ready to run again, every parameter NULL
    void rerun(); ///< ready to run again, keeping the parameters: for a caller that binds all of them each time
    bool failed() const { return m_failed; }
    /// The failure in plain words (errorText()); empty while the statement has not failed.
    std::string error() const;
    /// SQLite's extended result code of the failure, 0 while the statement has not failed.
    int errorCode() const { return m_code; }

    std::int64_t int64(int col) const;
    double real(int col) const;
    std::optional<double> optReal(int col) const;
    std::optional<std::int64_t> optInt(int col) const;
    std::string text(int col) const;
    bool isNull(int col) const;
    std::string blob(int col) const;
    /// The column's bytes without a copy: valid until the next step, reset or column call on this statement.
    std::string_view blobView(int col) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_error;
    int m_code = 0;
    bool m_failed = false;
};

/// Closes a connection (sqlite3_close_v2) when its handle goes.
struct Closer {
    void operator()(sqlite3* db) const;
};
using Connection = std::unique_ptr<sqlite3, Closer>;

/// Opens a database file only to read it, never writing, even in a folder that cannot be written: a file in WAL
/// mode whose folder is read-only (so SQLite cannot make its shared-memory file) is read as an immutable file when
/// it has no write-ahead log left over, since nobody can write to it there either. The open is checked with a read
/// of the header; a file that is not a database or whose first page is damaged opens all the same (the caller's
/// reads then fail and say so), so that a damaged store can still be checked and recovered.
Result<Connection> openForReading(const std::string& path);

/// Runs SQL with no parameters and no rows (DDL, PRAGMA, BEGIN/COMMIT).
Status exec(sqlite3* db, const std::string& text);

/// The connection's last failure in words a user can act on: SQLite's message, and what it means where SQLite's
/// own words mislead (a full disk reported as an I/O error, a damaged file, a store that cannot be written).
std::string errorText(sqlite3* db, int code);

/// Whether a failure with this extended result code means the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
bool isDamage(int code);

/// Whether the connection is inside a transaction. SQLite rolls a transaction back by itself on some failures
/// (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM ...); statements run after that would each commit on their own, so a
/// writer checks this after every failure before it writes again.
bool inTransaction(sqlite3* db);

/// A double as SQL text that reads back as the same double (a run at a limit meets it).
std::string sqlNumber(double v);
/// Ids as "1,2,3" for an IN list: integers from the store's own queries, never user text.
std::string idList(const std::vector<long long>& ids);

} // namespace paretoscope::sql
