#pragma once

#include <string>
#include <vector>

struct sqlite3;

namespace paretoscope {

/// The store's forward migrations: entry i takes the schema from version i to i + 1. Never edit a shipped entry;
/// append. The current schema version is their count.
std::vector<std::string> storeMigrations();

/// Adds the SQL functions the migrations and the triggers call to a connection. A trigger's function must be there on
/// every connection that deletes runs: a connection without it (another tool) gets an error, and the delete does not
/// happen.
void addStoreFunctions(sqlite3* db);

} // namespace paretoscope
