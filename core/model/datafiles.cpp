#include "core/model/datafiles.h"

#include <cstdlib>
#include <system_error>

namespace paretoscope {

namespace fs = std::filesystem;

std::vector<fs::path> sharedDataDirs()
{
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("PARETOSCOPE_DATA_DIR"); env && *env)
        candidates.emplace_back(env);
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back(self.parent_path().parent_path() / "share" / "paretoscope");
    std::vector<fs::path> dirs;
    for (const fs::path& c : candidates)
        if (fs::is_directory(c, ec))
            dirs.push_back(fs::weakly_canonical(c, ec));
    return dirs;
}

std::string findDataFile(const std::string& given)
{
    std::error_code ec;
    const fs::path path(given);
    if (given.empty() || fs::exists(path, ec) || path.is_absolute())
        return given;
    fs::path stripped; // resources/x -> x: the source tree's name of a shipped file
    auto it = path.begin();
    if (it != path.end() && *it == "resources")
        for (++it; it != path.end(); ++it)
            stripped /= *it;
    for (const fs::path& dir : sharedDataDirs())
        for (const fs::path& relative : { path, stripped })
            if (!relative.empty() && fs::is_regular_file(dir / relative, ec))
                return (dir / relative).string();
    return given;
}

} // namespace paretoscope
