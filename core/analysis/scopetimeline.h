#pragma once

#include <optional>
#include <vector>

#include "core/analysis/ladder.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// Every run of one group in a scope, as a chart plots it.
struct GroupRuns {
    GroupKey key;
    std::vector<RunPoint> points;
};

/// A group's frontier from its runs as the scope selects them (Scope::runs as of `asOf`, a day number), with the
/// spread of reruns where a configuration has several runs to take it from (spreadRuns); empty when no run can be on
/// a frontier. `selected`, when given, receives the selected runs (marked ones too, for the chart).
std::optional<GroupFrontier> selectedGroupFrontier(GroupKey key, const std::vector<TimedRun>& runs, const Scope& scope,
    int asOf, std::vector<RunPoint>* selected = nullptr);

/// Every run of a scope in memory, by group, so that its frontiers can be built as of any day without the store:
/// the history of a reading and the explorer's replay of run dates step through it.
class ScopeTimeline {
public:
    /// Reads the scope's runs inside its dates (whatever its as-of date) once.
    static ScopeTimeline load(RunStore& store, const Scope& scope, TputMetric metric);
    /// The distinct days the scope's runs count as dated on (yyyymmdd, ascending), up to the scope's as-of date.
    const std::vector<int>& days() const { return m_days; }
    /// The frontiers as of a day, ordered by group key (as FrontierCache gives them for a scope with that as-of).
    std::vector<GroupFrontier> frontiersAsOf(int day) const;
    /// The same, with each group's selected runs (marked ones too) beside its frontier, in the same order.
    void asOf(int day, std::vector<GroupFrontier>& frontiers, std::vector<GroupRuns>& runs) const;
    /// Each group's frontier at each of days(), built only where a group has a run on that day: callback(index of the
    /// day, the frontiers as of it), in order.
    template <typename F> void forEachDay(F&& callback) const;
    const Scope& scope() const { return m_scope; }
    /// The scope's series, as read with its runs.
    const std::vector<Series>& series() const { return m_series; }
    /// The hardware with runs in the scope, sorted.
    std::vector<std::string> hardware() const;
    std::size_t runCount() const;

private:
    struct Group {
        GroupKey key;
        std::vector<TimedRun> runs;
        std::vector<int> days; ///< the days its runs are dated on, ascending, distinct
    };
    Scope m_scope;
    std::vector<Series> m_series;
    std::vector<Group> m_groups;
    std::vector<int> m_days;
    bool changesOn(const Group& g, int day) const;
};

template <typename F> void ScopeTimeline::forEachDay(F&& callback) const
{
    std::vector<std::optional<GroupFrontier>> current(m_groups.size());
    for (std::size_t d = 0; d < m_days.size(); ++d) {
        for (std::size_t i = 0; i < m_groups.size(); ++i)
            if (changesOn(m_groups[i], m_days[d]))
                current[i] = selectedGroupFrontier(m_groups[i].key, m_groups[i].runs, m_scope, m_days[d]);
        std::vector<GroupFrontier> frontiers;
        for (const auto& g : current)
            if (g)
                frontiers.push_back(*g);
        callback(d, frontiers);
    }
}

} // namespace paretoscope
