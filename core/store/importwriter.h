#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/model/result.h"
#include "core/model/runrecord.h"
#include "core/store/runstore.h"
#include "core/store/writetransaction.h"

namespace paretoscope {

/// What the writer looks a record up by: its content hash and its series. Computed apart from add() so that an
/// import can do it on the parsing thread, off the single SQLite writer.
struct RecordKeys {
    std::uint64_t contentHash = 0;
    std::uint64_t seriesHash = 0;
    static RecordKeys of(const RunRecord& record);
};

/// The write transaction of one import: records are added one by one, then committed together or not at all.
/// The records given to one writer must have distinct content (distinct RecordKeys::contentHash): an import drops
/// the repeats within its file before they reach the writer (on the parsing thread, with a U64Set), and the writer
/// skips those the store already holds.
class ImportWriter {
public:
    ~ImportWriter(); ///< rolls back unless committed
    /// Adds a record with its keys; returns true if stored, false if the store already held a record with the same
    /// content.
    Result<bool> add(const RunRecord& record, std::uint64_t recordIndex, const RecordKeys& keys);
    /// As add(), but the row may be written later, together with others (one statement for several rows): `record`
    /// must stay alive until flush() or commit(). A failure can come from a later call and still names its record.
    Result<bool> addDeferred(const RunRecord& record, std::uint64_t recordIndex, const RecordKeys& keys);
    /// Writes the rows addDeferred() holds.
    Status flush();
    /// The id in `runs` of the record the last add() stored.
    long long lastRunId() const { return m_lastRunId; }
    /// Records the sha256 of the whole source, known only once it has been read to the end.
    Status setSha256(const std::string& sha256);
    /// The transaction the records are written in, for a caller that writes more rows with them (a session level).
    WriteTransaction& transaction() { return *m_txn; }
    /// Commits everything added; a source whose records were all duplicates leaves no trace.
    Status commit();
    std::uint64_t inserted() const { return m_inserted; }
    std::uint64_t duplicates() const { return m_duplicates; }

private:
    friend class RunStore;
    explicit ImportWriter(RunStore& store);
    Status start(const Provenance& provenance);
    Result<long long> seriesId(const RunRecord& r, std::uint64_t seriesHash);
    Result<bool> admit(const RunRecord& r, std::uint64_t recordIndex, const RecordKeys& keys, long long& seriesId);
    Status insertRows(std::size_t from, std::size_t count);
    Status restorePrefillSide(const RunRecord& r, const RecordKeys& keys, long long seriesId);

    struct Impl;
    RunStore& m_store;
    std::unique_ptr<Impl> m_impl;
    long long m_sourceId = 0;
    std::uint64_t m_inserted = 0;
    std::uint64_t m_duplicates = 0;
    long long m_lastRunId = 0;
    std::optional<WriteTransaction> m_txn;
    // a descriptor on the store's write-ahead log, through which a large import starts its write-back early (Linux)
    int m_walFile = -1;
};

} // namespace paretoscope
