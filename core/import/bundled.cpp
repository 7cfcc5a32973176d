#include "core/import/bundled.h"

#include "core/model/embedded.h"

namespace paretoscope {

std::string_view bundledDatasetJson()
{
    return embedded::deepseek_v4_1_flash_agentic_json();
}

Result<ImportSummary> importBundledDataset(RunStore& store)
{
    MemorySource source { std::string(kBundledDatasetSource), std::string(bundledDatasetJson()) };
    return importSource(store, source, ImportOptions {});
}

Result<std::unique_ptr<RunStore>> openStore(const std::string& path, bool seedWhenNew, StoreAccess access)
{
    auto opened = openStoreFile(path, access, seedWhenNew);
    if (!opened)
        return Error { opened.error() };
    if (opened->created && seedWhenNew) {
        auto seeded = importBundledDataset(*opened->store);
        if (!seeded)
            return Error { "seeding the new store with the bundled dataset failed: " + seeded.error() };
    }
    return std::move(opened->store);
}

} // namespace paretoscope
