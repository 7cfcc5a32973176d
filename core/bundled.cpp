#include "bundled.h"

namespace paretoscope {

namespace embedded {
std::string_view pricing_tiers_json();
std::string_view deepseek_v4_1_flash_agentic_json();
} // namespace embedded

std::string_view bundledPricingJson()
{
    return embedded::pricing_tiers_json();
}
std::string_view bundledDatasetJson()
{
    return embedded::deepseek_v4_1_flash_agentic_json();
}

Result<ImportSummary> importBundledDataset(RunStore& store)
{
    MemorySource source { std::string(kBundledDatasetSource), std::string(bundledDatasetJson()) };
    return importSource(store, source, ImportOptions {});
}

} // namespace paretoscope
