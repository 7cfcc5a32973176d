// The man page and the completion words of paretoscope-cli, both from the command table `help` prints.
#include "app/clihelp.h"

#include <filesystem>
#include <iostream>
#include <set>

#include "core/import/bundled.h"
#include "core/store/storepaths.h"
#include "manpage/manpage.h"

namespace paretoscope::cli {

std::string cliManPage(const std::vector<CommandHelp>& commands, const std::string& foot)
{
    std::string list;
    for (const CommandHelp& c : commands) {
        std::string accepted;
        for (const auto& [name, takesValue] : c.options)
            accepted += (accepted.empty() ? "" : ", ") + ("--" + name) + (takesValue ? " VALUE" : "");
        list += ".SS " + man::escape(c.name) + "\n" + man::verbatim(c.usage);
        if (!accepted.empty())
            list += man::paragraph("Options: " + accepted + ".");
    }
    std::string notes;
    std::string para;
    for (std::size_t start = 0; start < foot.size();) {
        std::size_t end = foot.find('\n', start);
        std::string line = foot.substr(start, end == std::string::npos ? std::string::npos : end - start);
        para += (para.empty() || line.empty() ? "" : " ") + line;
        start = end == std::string::npos ? foot.size() : end + 1;
    }
    notes = man::paragraph(para);
    return man::page("paretoscope-cli", PARETOSCOPE_VERSION,
        "LLM-serving throughput vs interactivity, from the command line",
        { "paretoscope-cli COMMAND [OPTIONS] [ARGUMENTS]", "paretoscope-cli help", "paretoscope-cli --version" },
        { { "DESCRIPTION",
              man::paragraph("Imports benchmark results into a store of runs and answers from it: the best "
                             "throughput per GPU at each interactivity target (ladder), the Pareto frontiers, "
                             "summaries, history, capacity plans; runs live benchmark sessions and cluster sweeps. "
                             "Every number comes from the same code as the explorer's, paretoscope(1).") },
            { "COMMANDS", list }, { "SCOPES AND STORES", notes },
            { "FILES",
                man::item("$XDG_DATA_HOME/paretoscope/paretoscope.sqlite",
                    "The default store (~/.local/share/paretoscope/paretoscope.sqlite), shared with the explorer; "
                    "it holds the bundled DeepSeek V4.1 Flash dataset from its first use.")
                    + man::item("share/paretoscope/",
                        "Beside the programs' bin/: examples to edit or run (matrices/sim-example.json, "
                        "tco_default.json); `bench --matrix` and `plan --tco` find them there by name.") },
            { "EXIT STATUS", man::paragraph("0 on success, 1 when a command fails, 2 on a usage error.") },
            { "SEE ALSO", man::paragraph("paretoscope(1), paretoscope-engine-sim(1), paretoscope-probe(1)") } });
}

namespace {

// Models or hardware names in the store of --db (or the default one), without creating or seeding it, each ended by
// a NUL.
int storeNames(const std::vector<std::string>& words, bool models)
{
    std::string path = defaultStorePath();
    for (std::size_t i = 1; i + 1 < words.size(); ++i)
        if (words[i] == "--db")
            path = words[i + 1];
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return 0;
    auto store = openStore(path, false, StoreAccess::ReadOnly);
    if (!store)
        return 1;
    std::set<std::string> names;
    for (const ScopeSummary& s : (*store)->scopes()) {
        if (models)
            names.insert(s.model);
        else
            names.insert(s.hardware.begin(), s.hardware.end());
    }
    // each name ends with a NUL: a name may hold a newline, and the completion script reads them as data
    for (const std::string& n : names)
        std::cout << n << '\0';
    return 0;
}

} // namespace

int complete(const std::vector<CommandHelp>& commands, const std::vector<std::string>& words)
{
    const std::string what = words.empty() ? "" : words[0];
    if (what == "commands") {
        for (const CommandHelp& c : commands)
            std::cout << c.name << "\n";
        std::cout << "help\n";
        return 0;
    }
    if (what == "options" && words.size() >= 2) {
        for (const CommandHelp& c : commands)
            if (c.name == words[1])
                for (const auto& [name, takesValue] : c.options)
                    std::cout << "--" << name << "\n";
        return 0;
    }
    if (what == "models" || what == "hardware")
        return storeNames(words, what == "models");
    std::cerr << "usage: paretoscope-cli __complete commands | options COMMAND | models|hardware [--db FILE]\n";
    return 2;
}

} // namespace paretoscope::cli
