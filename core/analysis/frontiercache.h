#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/analysis/ladder.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// Frontiers per group, computed from the store once per (scope, metric) and kept until the store's data changes,
/// so that reading a ladder while a slider moves is a binary search and a cubic per group.
class FrontierCache {
public:
    explicit FrontierCache(RunStore& store);
    /// Every group's frontier in the scope, ordered by group key.
    const std::vector<GroupFrontier>& frontiers(const Scope& scope, TputMetric metric);
    /// Hardware keys with at least one frontier in the scope, sorted.
    std::vector<std::string> hardware(const Scope& scope, TputMetric metric);
    /// Forgets everything (also done automatically when the data version changes).
    void clear();

private:
    struct Entry {
        bool valid = false;
        std::uint64_t version = 0;
        std::vector<GroupFrontier> groups;
    };
    RunStore& m_store;
    std::map<std::string, Entry> m_entries;
};

} // namespace paretoscope
