// One configuration's reading on the chart (docs/architecture.md section 12.2): each hardware's deployable reading
// marked where it is and labelled as the readout labels it.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/model/displaynames.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

void FrontierChart::addDeployableReadings(double target, std::vector<TargetMarker::Reading>& readings) const
{
    // per hardware the readout's number: the best single configuration among the groups the legend has not
    // switched off (as the readout reads them), marked where it is and labelled; where it differs from the frontier's
    // label, that label says "frontier"
    std::map<std::string, std::vector<const GroupFrontier*>> byHardware;
    for (std::size_t i = 0; i < groupCount(); ++i)
        if (!m_state.hidden.count(groupLabel(m_chart->series[i].key)))
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
