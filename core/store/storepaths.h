#pragma once

#include <memory>
#include <string>

#include "core/model/result.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// The default store: $XDG_DATA_HOME/paretoscope/paretoscope.sqlite (XDG_DATA_HOME defaults to ~/.local/share), the
/// same file the GUI finds under its AppDataLocation.
std::string defaultStorePath();

/// A store opened by openStoreFile, and whether that call created it.
struct OpenedStore {
    std::unique_ptr<RunStore> store;
    bool created = false;
};

/// Opens the store at path, creating its folder. ReadOnly applies to a store that exists; a missing one is an
/// error unless createWhenMissing, when it is created read-write all the same (openStore in core/import/bundled.h
/// then seeds it).
Result<OpenedStore> openStoreFile(const std::string& path, StoreAccess access, bool createWhenMissing);

} // namespace paretoscope
