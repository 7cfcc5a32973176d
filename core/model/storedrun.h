#pragma once

#include "core/model/runrecord.h"

namespace paretoscope {

/// A stored run with its row id.
struct StoredRun {
    long long id = 0;
    RunRecord record;
};

} // namespace paretoscope
