#pragma once

#include <memory>

#include "core/import/formats/importoptions.h"
#include "core/import/formats/recordmapper.h"

namespace paretoscope {

/// vLLM `bench serve --save-result` JSON (ms). Hardware, GPUs, engine, precision and model come from the options.
std::unique_ptr<RecordMapper> makeVllmBenchMapper(const ImportOptions& options);
/// SGLang `bench_serving` JSONL line (ms). Same caller fields as vLLM.
std::unique_ptr<RecordMapper> makeSglangBenchMapper(const ImportOptions& options);

} // namespace paretoscope
