#pragma once

#include <memory>

#include "core/import/formats/recordmapper.h"

namespace paretoscope {

/// InferenceX per-point aggregate record (keys hw, conc, tput_per_gpu, median_tpot ... in seconds).
std::unique_ptr<RecordMapper> makeInferenceXAggMapper();
/// InferenceX API row (hardware, framework, ..., metrics{...}).
std::unique_ptr<RecordMapper> makeInferenceXApiMapper();

} // namespace paretoscope
