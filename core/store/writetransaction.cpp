#include "core/store/writetransaction.h"

#include "core/store/runstore.h"
#include "core/store/sqlite.h"
#include "core/store/storelock.h"

namespace paretoscope {

WriteTransaction::WriteTransaction(RunStore& store)
    : m_store(&store)
{
}

WriteTransaction::WriteTransaction(WriteTransaction&& o) noexcept
    : m_store(o.m_store)
    , m_what(std::move(o.m_what))
    , m_open(o.m_open)
    , m_failure(std::move(o.m_failure))
{
    o.m_open = false;
}

WriteTransaction& WriteTransaction::operator=(WriteTransaction&& o) noexcept
{
    if (this != &o) {
        rollback();
        m_store = o.m_store;
        m_what = std::move(o.m_what);
        m_open = o.m_open;
        m_failure = std::move(o.m_failure);
        o.m_open = false;
    }
    return *this;
}

WriteTransaction::~WriteTransaction()
{
    rollback();
}

Result<WriteTransaction> WriteTransaction::begin(RunStore& store, const std::string& what)
{
    if (sql::inTransaction(store.handle()))
        return Error { store.path() + ": a write began while another transaction of this connection is open" };
    if (auto st = sql::exec(store.handle(), "BEGIN IMMEDIATE"); !st)
        return Error { "cannot start writing to the store: " + st.error() };
    WriteTransaction t(store);
    t.m_open = true;
    t.m_what = what;
    writernote::publish(store.path(), what);
    return t;
}

Status WriteTransaction::fail(const std::string& message)
{
    if (m_failure.empty())
        m_failure = message;
    if (m_open && !sql::inTransaction(m_store->handle())) {
        // SQLite rolled the transaction back by itself: nothing of it is left to undo, and nothing may follow
        m_open = false;
        writernote::clear(m_store->path(), m_what);
    }
    return Error { message };
}

Status WriteTransaction::check(const sql::Statement& statement, const std::string& what)
{
    if (!statement.failed() && statement.valid())
        return ok();
    return fail(what + ": " + (statement.valid() ? statement.error() : statement.prepareError()));
}

Status WriteTransaction::exec(const std::string& text, const std::string& what)
{
    if (!usable())
        return Error { what + ": the write transaction has already failed" };
    if (auto st = sql::exec(m_store->handle(), text); !st)
        return fail(what + ": " + st.error());
    return ok();
}

Status WriteTransaction::commit()
{
    if (!m_open)
        return Error { m_failure.empty() ? std::string("the write transaction has ended")
                                         : "rolled back after: " + m_failure };
    if (!m_failure.empty()) {
        const std::string why = m_failure;
        rollback();
        return Error { "rolled back after: " + why };
    }
    writernote::clear(m_store->path(), m_what); // while the lock is still held: the next writer's note is never erased
    if (auto st = sql::exec(m_store->handle(), "COMMIT"); !st) {
        rollback();
        return Error { "commit failed: " + st.error() };
    }
    m_open = false;
    return ok();
}

void WriteTransaction::rollback()
{
    if (!m_open)
        return;
    m_open = false;
    writernote::clear(m_store->path(), m_what);
    if (sql::inTransaction(m_store->handle()))
        sql::exec(m_store->handle(), "ROLLBACK");
}

} // namespace paretoscope
