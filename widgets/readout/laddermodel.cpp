#include "widgets/readout/laddermodel.h"

#include <QLocale>

#include "widgets/common/displaynames.h"
#include "widgets/readout/readingcell.h"

namespace paretoscope::ui {

void LadderModel::setLadders(std::vector<TierLadder> tiers)
{
    beginResetModel();
    m_tiers = std::move(tiers);
    m_rows.clear();
    if (!m_tiers.empty())
        for (std::size_t h = 0; h < m_tiers.front().ladders.size(); ++h)
            for (std::size_t t = 0; t < m_tiers.front().ladders[h].rows.size(); ++t)
                m_rows.emplace_back(h, t);
    endResetModel();
}

const LadderRow* LadderModel::cell(int row, std::size_t tier) const
{
    auto [h, t] = m_rows[static_cast<std::size_t>(row)];
    return &m_tiers[tier].ladders[h].rows[t];
}

bool LadderModel::anyAccuracy() const
{
    return !m_rows.empty() && !cell(0, 0)->accuracyTask.empty();
}

int LadderModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LadderModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FirstTier + static_cast<int>(m_tiers.size());
}

QVariant LadderModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const LadderRow& r = *cell(index.row(), 0);
    const bool has = r.value().has_value();
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c == Hardware || c == Engine || c == Precision ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == Accuracy)
        return accuracyTip(r);
    if (role == Qt::ToolTipRole && !has)
        return statusText(r.entry.status);
    if ((role == Qt::BackgroundRole || role == Qt::ToolTipRole) && (c == TputPerGpu || c >= FirstTier)) {
        const LadderRow& cellRow = c >= FirstTier ? *cell(index.row(), static_cast<std::size_t>(c - FirstTier)) : r;
        return role == Qt::BackgroundRole ? sparseBackground(cellRow) : QVariant(sparseNote(cellRow));
    }
    if (role == Qt::UserRole) {
        if (c == Target)
            return r.entry.target;
        if (c == TputPerGpu)
            return readingValue(r, ReadingField::TputPerGpu);
        if (c == Accuracy)
            return r.accuracy ? QVariant(r.accuracy->accuracy.value) : QVariant();
        if (c >= FirstTier)
            return readingValue(*cell(index.row(), static_cast<std::size_t>(c - FirstTier)), ReadingField::CostPerMTok);
    }
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    const auto& hw = m_tiers.front().ladders[m_rows[static_cast<std::size_t>(index.row())].first].hardware;
    switch (c) {
    case Hardware:
        return hardwareName(hw);
    case Target:
        return QLocale(QLocale::English).toString(r.entry.target, 'g', 6);
    case TputPerGpu:
        return readingText(r, ReadingField::TputPerGpuBoth); // a tab of its own: room for both readings
    case Engine:
        return readingText(r, ReadingField::Engine);
    case Precision:
        return readingText(r, ReadingField::Precision);
    case Accuracy:
        return accuracyCell(r);
    default:
        return readingText(*cell(index.row(), static_cast<std::size_t>(c - FirstTier)), ReadingField::CostPerMTok);
    }
}

namespace {
// A long name in lines of about the given length, broken between words (a header then stays narrow).
QString wrapWords(const QString& text, int width)
{
    QStringList lines;
    QString line;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(u'\n');
}
} // namespace

QVariant LadderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    switch (section) {
    case Hardware:
        return tr("Hardware");
    case Target:
        return tr("tok/s/user");
    case TputPerGpu:
        return tr("tok/s/GPU");
    case Engine:
        return tr("Engine");
    case Precision:
        return tr("Precision");
    case Accuracy: {
        const bool any = !m_rows.empty();
        const std::string task = any ? cell(0, 0)->accuracyTask : std::string();
        return role == Qt::ToolTipRole
            ? tr("The accuracy of the reading's group (its latest evaluation as of the day), with its standard error")
            : accuracyHeader(task);
    }
    default:
        if (section - FirstTier < static_cast<int>(m_tiers.size())) {
            const TierLadder& t = m_tiers[static_cast<std::size_t>(section - FirstTier)];
            return role == Qt::ToolTipRole ? tr("$ per million tokens, %1").arg(t.label)
                                           : tr("$/1M tok\n%1").arg(wrapWords(t.label, 18));
        }
    }
    return {};
}

} // namespace paretoscope::ui
