#include "cliargs.h"

#include "core/analysis/viewoptions.h"

namespace paretoscope::cli {

std::optional<std::string> Args::value(const std::string& name) const
{
    auto it = options.find(name);
    if (it == options.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::vector<std::string> Args::list(const std::string& name) const
{
    return optionList(options, name);
}

std::optional<Args> parseArgs(
    int argc, char** argv, const std::map<std::string, std::map<std::string, bool>>& spec, std::string& error)
{
    Args a;
    if (argc < 2) {
        error = "no command given";
        return std::nullopt;
    }
    a.command = argv[1];
    auto cmd = spec.find(a.command);
    if (cmd == spec.end()) {
        error = "unknown command '" + a.command + "'";
        return std::nullopt;
    }
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--") {
            for (++i; i < argc; ++i)
                a.positional.emplace_back(argv[i]);
            break;
        }
        if (arg.size() > 2 && arg.starts_with("--")) {
            std::string name = arg.substr(2), value;
            bool inlineValue = false;
            if (auto eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                inlineValue = true;
            }
            auto opt = cmd->second.find(name);
            if (opt == cmd->second.end()) {
                error = "'" + a.command + "' has no option --" + name;
                return std::nullopt;
            }
            if (opt->second) {
                if (!inlineValue) {
                    if (i + 1 >= argc) {
                        error = "--" + name + " needs a value";
                        return std::nullopt;
                    }
                    value = argv[++i];
                }
                a.options[name].push_back(value);
            } else {
                if (inlineValue) {
                    error = "--" + name + " takes no value";
                    return std::nullopt;
                }
                a.options[name];
            }
            continue;
        }
        a.positional.push_back(arg);
    }
    return a;
}

} // namespace paretoscope::cli
