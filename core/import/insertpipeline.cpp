#include "core/import/insertpipeline.h"

namespace paretoscope {

InsertPipeline::InsertPipeline(std::unique_ptr<ImportWriter> writer)
    : m_writer(std::move(writer))
    , m_thread([this] { run(); })
{
    m_current.reserve(kBatch);
}

Status InsertPipeline::finish()
{
    if (m_thread.joinable()) {
        flush();
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    if (!m_error.empty())
        return Error { m_error };
    return ok();
}

bool InsertPipeline::flush()
{
    // the last record is decided before the batch goes
    if (!m_current.empty() && !m_seen.insert(m_current.back().keys.contentHash)) {
        ++m_repeats;
        m_current.pop_back();
    }
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_queue.size() < kMaxQueued || !m_error.empty(); });
    if (!m_error.empty())
        return false;
    if (!m_current.empty())
        m_queue.push_back(std::move(m_current));
    m_current = Batch();
    if (!m_spent.empty()) {
        m_current = std::move(m_spent.back());
        m_spent.pop_back();
    }
    m_cv.notify_all();
    lock.unlock();
    m_current.clear(); // the records of a written batch are freed here, on the parsing thread
    m_current.reserve(kBatch);
    return true;
}

// The writer thread: takes batches off the queue and writes them until the queue is closed and empty, or a write
// fails (then the error is kept, the queue dropped, and push() reports the failure on the next record).
void InsertPipeline::run()
{
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return !m_queue.empty() || m_closed; });
            if (m_queue.empty())
                return;
            batch = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_cv.notify_all();
        Status st = ok();
        for (const Item& item : batch) {
            auto added = m_writer->addDeferred(item.record, item.index, item.keys);
            if (!added) {
                st = Error { added.error() };
                break;
            }
        }
        if (st)
            st = m_writer->flush(); // before the batch's records are handed back and freed
        if (!st) {
            std::lock_guard lock(m_mutex);
            m_error = st.error();
            m_failed = true;
            m_queue.clear();
            m_cv.notify_all();
            return;
        }
        std::lock_guard lock(m_mutex);
        if (m_spent.size() < kMaxQueued)
            m_spent.push_back(std::move(batch));
    }
}

} // namespace paretoscope
