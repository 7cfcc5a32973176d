#include "readoutmodel.h"
#include <QLocale>

#include "core/reports.h"
#include "palette.h"

namespace paretoscope::ui {

QString statusText(LadderStatus status)
{
    switch (status) {
    case LadderStatus::Ok:
        return {};
    case LadderStatus::BelowRange:
        return QObject::tr("below the measured range");
    case LadderStatus::AboveRange:
        return QObject::tr("above the measured range");
    case LadderStatus::OutOfRange:
        return QObject::tr("outside every frontier's range");
    case LadderStatus::NoData:
        return QObject::tr("no runs");
    }
    return {};
}

void ReadoutModel::setReadings(std::vector<HardwareLadder> readings, const std::string& baseline)
{
    const bool sameShape = readings.size() == m_rows.size();
    if (!sameShape)
        beginResetModel();
    m_rows = std::move(readings);
    m_baseline = baseline;
    if (!sameShape)
        endResetModel();
    else if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

std::optional<double> ReadoutModel::baselineValue() const
{
    for (const auto& l : m_rows)
        if (l.hardware == m_baseline)
            return l.rows.front().entry.value;
    return std::nullopt;
}

QString ReadoutModel::comparison(double target) const
{
    auto base = baselineValue();
    if (!base || *base <= 0)
        return {};
    QStringList parts;
    for (const auto& l : m_rows) {
        const auto& v = l.rows.front().entry.value;
        if (l.hardware == m_baseline || !v)
            continue;
        parts << tr("%1 delivers %2x %3 at %4 tok/s/user")
                     .arg(hardwareName(l.hardware))
                     .arg(QString::number(*v / *base, 'f', 1))
                     .arg(hardwareName(m_baseline))
                     .arg(QLocale(QLocale::English).toString(target, 'g', 6));
    }
    return parts.join(QStringLiteral("; "));
}

int ReadoutModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ReadoutModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReadoutModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& l = m_rows[static_cast<std::size_t>(index.row())];
    const LadderRow& r = row(index.row());
    const auto& g = r.entry.group;
    const bool has = r.entry.value.has_value();
    auto base = baselineValue();
    std::optional<double> ratio;
    if (has && base && *base > 0)
        ratio = *r.entry.value / *base;
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case TputPerGpu:
            return has ? QVariant(*r.entry.value) : QVariant();
        case CostPerMTok:
            return r.costPerMTok ? QVariant(*r.costPerMTok) : QVariant();
        case TokensPerDollar:
            return r.tokensPerDollar ? QVariant(*r.tokensPerDollar) : QVariant();
        case VsBaseline:
            return ratio ? QVariant(*ratio) : QVariant();
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Hardware || index.column() == Engine || index.column() == Precision
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && !has)
        return statusText(r.entry.status);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Hardware:
        return hardwareName(l.hardware);
    case TputPerGpu:
        return has ? QString::fromStdString(withThousands(*r.entry.value)) : QStringLiteral("-");
    case Engine:
        return g ? engineName(g->engine) : QStringLiteral("-");
    case Precision:
        return g ? precisionName(g->precision) : QStringLiteral("-");
    case CostPerMTok:
        return r.costPerMTok ? QString::fromStdString(money(*r.costPerMTok)) : QStringLiteral("-");
    case TokensPerDollar:
        return r.tokensPerDollar ? QString::fromStdString(withThousands(*r.tokensPerDollar)) : QStringLiteral("-");
    case VsBaseline:
        if (l.hardware == m_baseline)
            return tr("baseline");
        return ratio ? QStringLiteral("%1x").arg(*ratio, 0, 'f', 1) : QStringLiteral("-");
    }
    return {};
}

QVariant ReadoutModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Hardware:
        return tr("Hardware");
    case TputPerGpu:
        return tr("tok/s/GPU");
    case Engine:
        return tr("Engine");
    case Precision:
        return tr("Precision");
    case CostPerMTok:
        return tr("$ / 1M tokens");
    case TokensPerDollar:
        return tr("Tokens per $");
    case VsBaseline:
        return tr("vs baseline");
    }
    return {};
}

} // namespace paretoscope::ui
