#pragma once

#include <map>
#include <string>
#include <vector>

namespace paretoscope::cli {

/// What `help`, the man page and the shell completion know of a command: the command table's own entries.
struct CommandHelp {
    std::string name;
    std::map<std::string, bool> options; ///< name -> takes a value
    std::string usage; ///< its lines of `help`
};

/// The man page (groff -man) of paretoscope-cli: every command with its lines of `help` and the options it
/// accepts, then the notes that follow the commands in `help` (foot).
std::string cliManPage(const std::vector<CommandHelp>& commands, const std::string& foot);

/// The hidden `__complete` command behind the bash completion: `__complete commands`, `__complete options CMD`,
/// `__complete models|hardware [--db FILE]` (names in the store, read only; nothing when it does not exist yet).
/// Commands and options one a line; store names each ended by a NUL (a name may hold anything). Returns the exit code.
int complete(const std::vector<CommandHelp>& commands, const std::vector<std::string>& words);

} // namespace paretoscope::cli
