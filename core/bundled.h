#pragma once

#include <string_view>

#include "importer.h"
#include "runstore.h"

namespace paretoscope {

/// resources/pricing_tiers.json, compiled in.
std::string_view bundledPricingJson();
/// resources/deepseek-v4.1-flash-agentic.json, compiled in: the published InferenceX ladder of DeepSeek V4.1 Flash.
std::string_view bundledDatasetJson();
/// The name under which the bundled dataset is recorded as a source.
inline constexpr std::string_view kBundledDatasetSource = "bundled:deepseek-v4.1-flash-agentic.json";
/// The bundled dataset's model and workload (its scope).
inline constexpr std::string_view kBundledModel = "DeepSeek-V4.1-Flash";
inline constexpr std::string_view kBundledWorkload = "agentic coding";

/// Imports the bundled dataset into the store (idempotent: a second call stores nothing new).
Result<ImportSummary> importBundledDataset(RunStore& store);

} // namespace paretoscope
