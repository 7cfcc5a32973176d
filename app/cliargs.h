#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace paretoscope::cli {

/// Parsed command line: the command, --options (with or without a value) and positional arguments.
struct Args {
    std::string command;
    std::map<std::string, std::vector<std::string>> options;
    std::vector<std::string> positional;

    bool has(const std::string& name) const { return options.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    /// Every value of a repeatable option, comma-separated lists split.
    std::vector<std::string> list(const std::string& name) const;
};

/// Parses argv against the options a command accepts (name -> takes a value). Errors name the option.
std::optional<Args> parseArgs(
    int argc, char** argv, const std::map<std::string, std::map<std::string, bool>>& spec, std::string& error);

} // namespace paretoscope::cli
