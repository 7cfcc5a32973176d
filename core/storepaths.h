#pragma once

#include <memory>
#include <string>

#include "result.h"
#include "runstore.h"

namespace paretoscope {

/// The default store: $XDG_DATA_HOME/paretoscope/paretoscope.sqlite (XDG_DATA_HOME defaults to ~/.local/share), the
/// same file the GUI finds under its AppDataLocation.
std::string defaultStorePath();

/// Opens the store at path, creating its folder; a store created by this call is seeded with the bundled dataset.
/// ReadOnly applies to a store that exists; a missing one is created (and seeded when asked) all the same.
Result<std::unique_ptr<RunStore>> openStore(
    const std::string& path, bool seedWhenNew, StoreAccess access = StoreAccess::ReadWrite);

} // namespace paretoscope
