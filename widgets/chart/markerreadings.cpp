// The target marker's readings on the interactivity axis (docs/architecture.md section 12.2): a circle on every
// covering frontier drawn, a label per hardware with the readout's number, and one configuration's reading marked where
// it is.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/model/displaynames.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

std::vector<bool> FrontierChart::countedGroups() const
{
    // what the readout reads: every group the legend has not switched off
    std::vector<bool> counted(groupCount());
    for (std::size_t i = 0; i < groupCount(); ++i)
        counted[i] = !m_state.hidden.count(groupLabel(m_chart->series[i].key));
    return counted;
}

std::vector<TargetMarker::Reading> FrontierChart::markerReadings(double target, const std::vector<bool>& shown)
{
    // every covering frontier gets its circle; only each hardware's best reading gets a label (the readout's rule,
    // keyed by hardware name), which keeps a scope of many groups legible
    const auto best = bestReadingPerHardware(m_data->frontiers, target, m_state.hideSparse, shown);
    // hardware whose readout's best is a group not drawn (one per hardware): labelled on that group's reading
    std::map<std::string, BestReading> elsewhere;
    if (m_choice == ChartGroups::BestPerHardware) {
        // the readout reads every group the legend has not switched off; the chart draws one per hardware
        for (const auto& [hardware, reading] :
            bestReadingPerHardware(m_data->frontiers, target, m_state.hideSparse, countedGroups()))
            if (const auto drawn = best.find(hardware); drawn == best.end() || drawn->second.group != reading.group) {
                elsewhere.emplace(hardware, reading);
                // (with one configuration's reading the readout's number is marked where it is: no note)
                if (m_state.reading == Reading::Frontier)
                    m_readElsewhere << hardwareName(hardware);
            }
    }
    std::vector<TargetMarker::Reading> readings;
    for (std::size_t i = 0; i < groupCount(); ++i) {
        if (!shown[i] || (m_choice == ChartGroups::Envelope && !inStretch(i, target)))
            continue; // an envelope has one line per hardware, one circle
        const GroupKey& key = m_chart->series[i].key;
        if (auto y = chartReading(m_data->frontiers[i], target, m_pricing, m_state.request)) {
            const auto it = best.find(key.hardware);
            const bool labelled = it != best.end() && it->second.group == i && !elsewhere.count(key.hardware);
            readings.push_back(
                { *y, m_colours[i], labelled ? chartValueText(*y, m_state.request.y) : QString(), key.hardware });
        }
    }
    for (const auto& [hardware, reading] : elsewhere) // the readout's number, on the group it reads, named
        if (auto y = chartReading(m_data->frontiers[reading.group], target, m_pricing, m_state.request))
            readings.push_back({ *y, m_colours[reading.group],
                chartValueText(*y, m_state.request.y) + QStringLiteral(" (")
                    + QString::fromStdString(groupDisplayName(m_data->frontiers[reading.group].key, false)) + u')',
                hardware });
    if (m_state.reading == Reading::Deployable)
        addDeployableReadings(target, readings);
    return readings;
}

void FrontierChart::addDeployableReadings(double target, std::vector<TargetMarker::Reading>& readings) const
{
    // per hardware the readout's number: the best single configuration among the groups the legend has not
    // switched off (as the readout reads them), marked where it is and labelled; where it differs from the frontier's
    // label, that label says "frontier"
    std::map<std::string, std::vector<const GroupFrontier*>> byHardware;
    const std::vector<bool> counted = countedGroups();
    for (std::size_t i = 0; i < groupCount(); ++i)
        if (counted[i])
            byHardware[m_data->frontiers[i].key.hardware].push_back(&m_data->frontiers[i]);
    for (const auto& [hardware, groups] : byHardware) {
        const auto d = readDeployable(groups, target, m_state.hideSparse);
        if (!d)
            continue;
        std::size_t i = 0;
        while (i < groupCount() && !(m_data->frontiers[i].key == d->group))
            ++i;
        if (i == groupCount())
            continue;
        const auto y = chartValue(d->value, m_data->frontiers[i], m_pricing, m_state.request);
        if (!y)
            continue;
        const std::string& hw = hardware; // a structured binding: not capturable before C++23's compilers (clang 14)
        const auto frontier = std::find_if(readings.begin(), readings.end(),
            [&hw](const TargetMarker::Reading& r) { return r.hardware == hw && !r.label.isEmpty(); });
        if (frontier != readings.end() && std::abs(frontier->y / *y - 1) <= 0.01)
            continue; // the two agree: the frontier's label is the readout's number
        if (frontier != readings.end())
            frontier->label = tr("frontier %1").arg(frontier->label);
        QString label = chartValueText(*y, m_state.request.y);
        if (!groupVisible(i)) // a group not drawn (Groups: one per hardware): the label says which it reads
            label += QStringLiteral(" (") + QString::fromStdString(groupDisplayName(d->group, false)) + u')';
        readings.push_back({ *y, m_colours[i], label, hardware, true, d->interpolated ? 0.0 : d->interactivity });
    }
}

} // namespace paretoscope::ui
