#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/model/result.h"
#include "core/model/runrecord.h"
#include "core/model/u64set.h"
#include "core/store/importwriter.h"

namespace paretoscope {

/// Hands parsed records to a writer thread, so that parsing (this core) and SQLite (the other) overlap. The queue
/// is bounded: memory stays a few batches whatever the file size. Records whose content repeats an earlier record of
/// the same source are dropped here, on the parsing thread, before they reach the writer.
class InsertPipeline {
public:
    static constexpr std::size_t kBatch = 2048;
    static constexpr std::size_t kMaxQueued = 4;

    /// Starts the writer thread on `writer` (an open import transaction).
    explicit InsertPipeline(std::unique_ptr<ImportWriter> writer);
    ~InsertPipeline() { finish(); }
    InsertPipeline(const InsertPipeline&) = delete;
    InsertPipeline& operator=(const InsertPipeline&) = delete;

    /// Queues a record (the index of the record in its source); false once the writer failed: stop parsing.
    bool push(RunRecord&& r, std::uint64_t index)
    {
        // the keys and the repeats within the file are found here: the writer thread is the busier of the two
        const RecordKeys keys = RecordKeys::of(r);
        // whether it repeats an earlier record is decided when the next one comes, when its slot in the set of
        // hashes has been fetched
        m_seen.prefetch(keys.contentHash);
        m_current.emplace_back(std::move(r), index, keys); // one move of the record, in place
        settleAllButLast();
        if (m_current.size() < kBatch)
            return !failed();
        return flush();
    }

    /// Writes what is queued and stops the writer thread; the writer's first error, if any. Does not commit.
    Status finish();

    ImportWriter& writer() { return *m_writer; }
    /// Records left out because the file had the same content earlier.
    std::uint64_t repeats() const { return m_repeats; }

private:
    struct Item {
        Item(RunRecord&& r, std::uint64_t i, const RecordKeys& k)
            : record(std::move(r))
            , index(i)
            , keys(k)
        {
        }
        RunRecord record;
        std::uint64_t index;
        RecordKeys keys;
    };
    using Batch = std::vector<Item>;

    bool failed() const { return m_failed.load(std::memory_order_relaxed); } // checked per record: no lock

    // Decides the record before the last: a repeat of an earlier one in the file is dropped.
    void settleAllButLast()
    {
        const std::size_t n = m_current.size();
        if (n < 2 || m_seen.insert(m_current[n - 2].keys.contentHash))
            return;
        ++m_repeats;
        m_current[n - 2] = std::move(m_current[n - 1]);
        m_current.pop_back();
    }

    bool flush();
    void run();

    std::unique_ptr<ImportWriter> m_writer;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Batch> m_queue;
    std::vector<Batch> m_spent; // written batches handed back, so the writer spends no time freeing records
    Batch m_current;
    bool m_closed = false;
    std::string m_error;
    std::atomic<bool> m_failed = false;
    U64Set m_seen; // content hashes met in this file (parsing thread)
    std::uint64_t m_repeats = 0;
    std::thread m_thread; // last: started once every other member is built
};

} // namespace paretoscope
