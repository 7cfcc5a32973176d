#include "core/store/sqlite.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <sys/resource.h>
#include <sys/statvfs.h>

namespace paretoscope::sql {

Statement::Statement(sqlite3* db, std::string_view text)
    : m_db(db)
{
    if (sqlite3_prepare_v3(db, text.data(), static_cast<int>(text.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr)
        != SQLITE_OK) {
        m_code = sqlite3_extended_errcode(db);
        m_error = errorText(db, m_code);
        m_stmt = nullptr;
    }
}

Statement::Statement(Statement&& o) noexcept
    : m_db(o.m_db)
    , m_stmt(o.m_stmt)
    , m_error(std::move(o.m_error))
    , m_code(o.m_code)
    , m_failed(o.m_failed)
{
    o.m_stmt = nullptr;
}

Statement& Statement::operator=(Statement&& o) noexcept
{
    if (this != &o) {
        sqlite3_finalize(m_stmt);
        m_db = o.m_db;
        m_stmt = o.m_stmt;
        m_error = std::move(o.m_error);
        m_code = o.m_code;
        m_failed = o.m_failed;
        o.m_stmt = nullptr;
    }
    return *this;
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void Statement::bind(int i, std::int64_t v)
{
    sqlite3_bind_int64(m_stmt, i, v);
}
void Statement::bind(int i, double v)
{
    sqlite3_bind_double(m_stmt, i, v);
}
void Statement::bind(int i, std::string_view v)
{
    if (v.empty())
        sqlite3_bind_null(m_stmt, i);
    else
        sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}
void Statement::bindUncopied(int i, std::string_view v)
{
    if (v.empty())
        sqlite3_bind_null(m_stmt, i);
    else
        sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}
void Statement::bindText(int i, std::string_view v)
{
    sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}
void Statement::bind(int i, const std::optional<double>& v)
{
    if (v)
        sqlite3_bind_double(m_stmt, i, *v);
    else
        sqlite3_bind_null(m_stmt, i);
}
void Statement::bind(int i, const std::optional<std::int64_t>& v)
{
    if (v)
        sqlite3_bind_int64(m_stmt, i, *v);
    else
        sqlite3_bind_null(m_stmt, i);
}
void Statement::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
}
void Statement::bindIntOrNull(int i, long long v)
{
    if (v == 0)
        sqlite3_bind_null(m_stmt, i);
    else
        sqlite3_bind_int64(m_stmt, i, v);
}

bool Statement::step()
{
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE) {
        m_failed = true;
        m_code = sqlite3_extended_errcode(m_db);
        m_error = errorText(m_db, m_code);
    }
    return false;
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    m_failed = false;
    m_code = 0;
}

void Statement::rerun()
{
    sqlite3_reset(m_stmt);
    m_failed = false;
    m_code = 0;
}

std::string Statement::error() const
{
    return m_error;
}

std::int64_t Statement::int64(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}
double Statement::real(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}
bool Statement::isNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}
std::optional<double> Statement::optReal(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return sqlite3_column_double(m_stmt, col);
}
std::optional<std::int64_t> Statement::optInt(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return sqlite3_column_int64(m_stmt, col);
}
void Statement::bindValue(int i, const Statement& from, int col)
{
    sqlite3_bind_value(m_stmt, i, sqlite3_column_value(from.m_stmt, col));
}

void Statement::bindBlob(int i, std::string_view bytes)
{
    sqlite3_bind_blob64(m_stmt, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
}

std::string Statement::blob(int col) const
{
    const void* b = sqlite3_column_blob(m_stmt, col);
    if (!b)
        return {};
    return std::string(static_cast<const char*>(b), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

std::string_view Statement::blobView(int col) const
{
    const void* b = sqlite3_column_blob(m_stmt, col);
    if (!b)
        return {};
    return std::string_view(static_cast<const char*>(b), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

std::string Statement::text(int col) const
{
    const unsigned char* t = sqlite3_column_text(m_stmt, col);
    if (!t)
        return {};
    return std::string(reinterpret_cast<const char*>(t), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

Status exec(sqlite3* db, const std::string& text)
{
    if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        return Error { errorText(db, sqlite3_extended_errcode(db)) };
    return ok();
}

void Closer::operator()(sqlite3* db) const
{
    sqlite3_close_v2(db);
}

namespace {

// A path as an SQLite URI ("file:" plus the path with %, ? and # escaped), for opening with URI parameters.
std::string fileUri(const std::string& path)
{
    std::string uri = "file:";
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            uri += hex;
        } else {
            uri += c;
        }
    }
    return uri;
}

} // namespace

Result<Connection> openForReading(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Error { path + ": no store here (the file does not exist)" };
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    sqlite3* raw = nullptr;
    sqlite3_open_v2(fileUri(path).c_str(), &raw, flags, nullptr);
    Connection db(raw);
    if (!db)
        return Error { path + ": cannot open: out of memory" };
    int code = SQLITE_OK;
    {
        Statement probe(db.get(), "PRAGMA user_version");
        probe.step();
        code = probe.valid() ? probe.errorCode() : sqlite3_extended_errcode(db.get());
    }
    if ((code & 0xff) == SQLITE_READONLY || (code & 0xff) == SQLITE_CANTOPEN) {
        if (std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)
            return Error { path
                + ": its folder cannot be written and it holds a write-ahead log not yet merged into "
                  "the store; open the store once where its folder can be written" };
        raw = nullptr;
        sqlite3_open_v2((fileUri(path) + "?immutable=1").c_str(), &raw, flags, nullptr);
        db.reset(raw);
        if (!db)
            return Error { path + ": cannot open: out of memory" };
    }
    return db;
}

namespace {

// The cause of a failed write that SQLite reports only as an I/O error: a disk with (next to) no space left, or a
// store or its log at the process's file size limit. 0 when neither is the case.
int likelyWriteFailure(const std::string& path)
{
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
    struct statvfs fs { };
    if (::statvfs(folder.c_str(), &fs) == 0 && static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize < (4u << 20))
        return ENOSPC;
    rlimit limit {};
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        for (const std::string& file : { path, path + "-wal", path + "-journal" }) {
            const auto size = std::filesystem::file_size(file, ec);
            if (!ec && size + (1u << 20) >= limit.rlim_cur)
                return EFBIG;
        }
    }
    return 0;
}

} // namespace

bool isDamage(int code)
{
    return (code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB;
}

bool inTransaction(sqlite3* db)
{
    return sqlite3_get_autocommit(db) == 0;
}

std::string errorText(sqlite3* db, int code)
{
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
    const std::string path = file && *file ? file : "the store";
    const int primary = code & 0xff;
    // the errno of the failed system call; SQLite reports a write that hit a full disk or a size limit as an I/O
    // error or as SQLITE_FULL depending on where it happened
    int sys = db && primary == SQLITE_IOERR ? sqlite3_system_errno(db) : 0;
    if (primary == SQLITE_IOERR && sys == 0)
        sys = likelyWriteFailure(path); // SQLite does not always keep the errno of a failed write
    if (primary == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
        return "the disk that holds " + path + " is full (" + message + ")";
    if (sys == EFBIG)
        return "cannot write " + path + ": the file may grow no larger (" + message + ": " + std::strerror(sys) + ")";
    if (isDamage(code))
        return "the store is damaged: " + message + " (run `paretoscope-cli check --db " + path + "`)";
    if (primary == SQLITE_READONLY)
        return path + " cannot be written: the file or its folder is read-only (" + message + ")";
    if (primary == SQLITE_BUSY)
        return "another process is writing to " + path + " (" + message + ")";
    if (sys != 0)
        return message + ": " + std::strerror(sys);
    return message;
}

std::string sqlNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string idList(const std::vector<long long>& ids)
{
    std::string s;
    for (std::size_t i = 0; i < ids.size(); ++i)
        s += (i ? "," : "") + std::to_string(ids[i]);
    return s;
}

} // namespace paretoscope::sql
