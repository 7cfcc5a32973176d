#pragma once

#include <memory>

#include "core/import/formats/recordmapper.h"

namespace paretoscope {

/// Paretoscope's own JSON and CSV records (the columns of recordschema.h).
std::unique_ptr<RecordMapper> makeParetoscopeMapper();

} // namespace paretoscope
