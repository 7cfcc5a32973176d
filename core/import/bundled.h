#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/import/importer.h"
#include "core/store/runstore.h"
#include "core/store/storepaths.h"

namespace paretoscope {

/// resources/deepseek-v4.1-flash-agentic.json, compiled in: the published InferenceX ladder of DeepSeek V4.1 Flash.
std::string_view bundledDatasetJson();
/// The name under which the bundled dataset is recorded as a source.
inline constexpr std::string_view kBundledDatasetSource = "bundled:deepseek-v4.1-flash-agentic.json";
/// The bundled dataset's model and workload (its scope).
inline constexpr std::string_view kBundledModel = "DeepSeek-V4.1-Flash";
inline constexpr std::string_view kBundledWorkload = "agentic coding";

/// Imports the bundled dataset into the store (idempotent: a second call stores nothing new).
Result<ImportSummary> importBundledDataset(RunStore& store);

/// Opens the store at path (openStoreFile); a store created by this call is seeded with the bundled dataset when
/// seedWhenNew.
Result<std::unique_ptr<RunStore>> openStore(
    const std::string& path, bool seedWhenNew, StoreAccess access = StoreAccess::ReadWrite);

} // namespace paretoscope
