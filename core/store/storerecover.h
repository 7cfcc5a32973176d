#pragma once

#include <string>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// What `paretoscope-cli recover` copied out of a damaged store.
struct RecoverReport {
    struct Table {
        std::string name;
        long long saved = 0; ///< rows copied into the new store
        long long dropped = 0; ///< rows read but left out: they point to a row that could not be read
        std::vector<std::string> unreadable; ///< id ranges that could not be read ("ids 2301 to 2412")
    };
    std::vector<Table> tables;
    long long placeholderSources = 0; ///< sources that could not be read, recreated so that their runs stay
    long long runsSaved() const;
    std::string text(const std::string& from, const std::string& to) const;
};

/// Copies every row that can still be read from the store at `from` into a new store at `to` (which must not exist),
/// table by table in id order, stepping over the pages that cannot be read. Runs whose series is lost are left out;
/// runs whose source is lost keep a placeholder source; the content hashes are rebuilt from the runs saved. The new
/// store passes SQLite's integrity and reference checks. `from` is only read.
Result<RecoverReport> recoverStore(const std::string& from, const std::string& to);

} // namespace paretoscope
