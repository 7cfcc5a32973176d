#include "widgets/plan/mixmodel.h"

#include <QFont>
#include <algorithm>

#include "core/analysis/numberformat.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

} // namespace

void MixModel::setMix(MixPlan mix)
{
    beginResetModel();
    m_mix = std::move(mix);
    endResetModel();
}

int MixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_mix.hardware.size());
}

int MixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_mix.hardware.empty() ? 0 : 1 + int(m_mix.parts.size()) + 4;
}

QVariant MixModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const MixHardware& h = m_mix.hardware[std::size_t(index.row())];
    const int parts = int(m_mix.parts.size());
    const int c = index.column();
    if (role == Qt::FontRole && h.cheapest) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant(int((c == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    const HardwarePlan* part = c >= 1 && c <= parts ? m_mix.plans[std::size_t(c - 1)].forHardware(h.hardware) : nullptr;
    if (role == Qt::ToolTipRole && part)
        return QString::fromStdString(part->read() ? deployAsText(*part) + "; " + planReadingWords(*part)
                                                   : std::string(planStatusWords(part->status)));
    if (role != Qt::DisplayRole)
        return {};
    if (c == 0)
        return QString(hardwareName(h.hardware) + (h.cheapest ? tr("  ★ cheapest for the mix") : QString()));
    if (c <= parts) {
        if (!part)
            return QStringLiteral("-");
        if (!part->sized())
            return QString::fromStdString(std::string(planStatusWords(part->status)));
        return QString(thousandsText(double(part->gpus)) + (part->sparse ? tr(" (sparse)") : QString()));
    }
    if (!h.complete)
        return QStringLiteral("-");
    switch (c - parts) {
    case 1:
        return thousandsText(double(h.gpus));
    case 2:
        return thousandsText(double(h.nodes));
    case 3:
        return h.powerMw ? thousandsText(*h.powerMw, 2) : QStringLiteral("-");
    default:
        return h.costPerMonth ? QStringLiteral("$") + thousandsText(*h.costPerMonth) : QStringLiteral("-");
    }
}

QVariant MixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const int parts = int(m_mix.parts.size());
    if (section == 0)
        return tr("Hardware");
    if (section <= parts) {
        const MixPart& p = m_mix.parts[std::size_t(section - 1)];
        return tr("GPUs %1 (%2%)").arg(QString::fromStdString(p.label), QString::number(p.share * 100, 'g', 4));
    }
    switch (section - parts) {
    case 1:
        return tr("GPUs");
    case 2:
        return tr("Nodes");
    case 3:
        return tr("MW");
    default:
        return tr("$/month");
    }
}

} // namespace paretoscope::ui
