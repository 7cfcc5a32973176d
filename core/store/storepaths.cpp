#include "core/store/storepaths.h"

#include <cstdlib>
#include <filesystem>

namespace paretoscope {

std::string defaultStorePath()
{
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg && std::filesystem::path(xdg).is_absolute())
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = std::filesystem::current_path();
    return (base / "paretoscope" / "paretoscope.sqlite").string();
}

Result<OpenedStore> openStoreFile(const std::string& path, StoreAccess access, bool createWhenMissing)
{
    std::error_code ec;
    std::filesystem::path p(path);
    bool isNew = !std::filesystem::exists(p, ec);
    if (isNew && access == StoreAccess::ReadOnly && !createWhenMissing)
        return Error { path + ": no store here (the file does not exist)" };
    if (isNew && p.has_parent_path())
        std::filesystem::create_directories(p.parent_path(), ec);
    if (ec)
        return Error { path + ": cannot create its folder: " + ec.message() };
    auto store = RunStore::open(path, isNew ? StoreAccess::ReadWrite : access);
    if (!store)
        return Error { store.error() };
    return OpenedStore { std::move(*store), isNew };
}

} // namespace paretoscope
