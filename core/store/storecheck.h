#pragma once

#include <string>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// What a check of a store finds (`paretoscope-cli check`): SQLite's integrity check per table, the references
/// between tables, and that the content hashes that find duplicates match the runs.
struct StoreCheckReport {
    struct Table {
        std::string name;
        std::vector<std::string> problems; ///< empty when the table and its indexes are whole
    };
    std::string path;
    int schemaVersion = -1; ///< -1 when even the header cannot be read
    std::vector<Table> tables;
    std::vector<std::string> general; ///< problems not tied to one table (the schema, pages no table uses)
    std::vector<std::string> references; ///< "runs: 32 rows point to no row of series"
    bool ok() const;
    /// The report in plain words, one line per table, ending with what to do.
    std::string text() const;
};

/// Checks the store at path without writing to it. Fails only when the file cannot be opened at all; a damaged
/// store gives a report that says where.
Result<StoreCheckReport> checkStore(const std::string& path);

} // namespace paretoscope
