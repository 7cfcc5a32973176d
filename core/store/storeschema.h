#pragma once

#include <string>
#include <vector>

struct sqlite3;

namespace paretoscope {

/// The store's forward migrations: entry i takes the schema from version i to i + 1. Never edit a shipped entry;
/// append. The current schema version is their count.
std::vector<std::string> storeMigrations();

/// Strips credentials from every URL a store holds: the sources' paths, and the URLs in the sessions' configuration
/// and reasons, the levels' metrics and the runs' notes (not run_url: it is part of a run's content, and a source's
/// own link). Part of the migration to schema 6 (frozen text); recover runs it on what it copies.
inline constexpr const char* kRedactStoredCredentialsSql
    = "UPDATE sources SET path = paretoscope_redact_url(path) WHERE path LIKE '%://%';\n"
      "UPDATE sessions SET config = paretoscope_redact_text(config), reason = paretoscope_redact_text(reason)\n"
      "  WHERE config LIKE '%://%' OR reason LIKE '%://%';\n"
      "UPDATE session_levels SET metrics = paretoscope_redact_text(metrics) WHERE metrics LIKE '%://%';\n"
      "UPDATE runs SET note = paretoscope_redact_text(note) WHERE note LIKE '%://%';\n";

/// Adds the SQL functions the migrations, the triggers and the queries (a p99 TTFT limit) call to a connection. A
/// trigger's function must be there on every connection that deletes runs: a connection without it (another tool) gets
/// an error, and the delete does not happen.
void addStoreFunctions(sqlite3* db);

} // namespace paretoscope
