#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace paretoscope {

/// Where the files shipped beside the programs are (the examples of resources/: matrices/, tco_default.json):
/// PARETOSCOPE_DATA_DIR when set, then <this executable's folder>/../share/paretoscope, which is the installed
/// layout (P/bin, P/share/paretoscope) and the build tree's (the build copies them to build/share/paretoscope).
/// Folders that do not exist are left out.
std::vector<std::filesystem::path> sharedDataDirs();

/// A file a user names: as given when it exists; else, for a relative path, the first shared data folder that holds
/// it, with or without a leading "resources/" (so docs/cluster.md's resources/matrices/sim-example.json is found when
/// installed); as given when none does (the reader then says it cannot be read).
std::string findDataFile(const std::string& given);

} // namespace paretoscope
