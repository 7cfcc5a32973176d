#include "widgets/readout/readoutmodel.h"
#include <QColor>
#include <QLocale>
#include <cmath>

#include "core/model/displaynames.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

void ReadoutModel::setReadings(std::vector<HardwareLadder> readings, const std::string& baseline)
{
    const bool sameShape = readings.size() == m_rows.size();
    if (!sameShape)
        beginResetModel();
    m_rows = std::move(readings);
    const bool newBaseline = m_baseline != baseline;
    m_baseline = baseline;
    m_ratios = baselineRatios(m_rows, m_baseline);
    if (!sameShape) {
        endResetModel();
        return;
    }
    if (newBaseline) // the ratio column's title names the baseline; its cells change with it, below
        emit headerDataChanged(Qt::Horizontal, VsBaseline, VsBaseline);
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

namespace {

// "a", "a and b", "a, b and c"
QString listed(const QStringList& items)
{
    if (items.size() < 2)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QObject::tr(" and ") + items.back();
}

} // namespace

QString ReadoutModel::comparison(double target) const
{
    // one sentence for the ratios and one for the hardware within run-to-run spread of the baseline (no winner where
    // reruns overlap), not one per hardware: with nine hardware, a sentence each ran to eight lines under the table
    QStringList delivers, within;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const BaselineRatio& r = m_ratios[i].front();
        const QString name = hardwareName(m_rows[i].hardware);
        if (r.status == BaselineStatus::WithinSpread)
            within << name;
        else if (r.status == BaselineStatus::Ok)
            delivers << (delivers.isEmpty()
                    ? tr("%1 delivers %2x %3").arg(name, QString::number(*r.ratio, 'f', 1), hardwareName(m_baseline))
                    : tr("%1 %2x").arg(name, QString::number(*r.ratio, 'f', 1)));
    }
    const QString at = QLocale(QLocale::English).toString(target, 'g', 6);
    QStringList parts;
    // the baseline without a reading here: no ratio, and the sentence says why rather than vanishing
    if (delivers.isEmpty() && within.isEmpty())
        for (const HardwareLadder& h : m_rows)
            if (h.hardware == m_baseline && !h.rows.empty() && !h.rows.front().value())
                return tr("No ratios at %1 tok/s/user: %2 has no reading there (%3)")
                    .arg(at, hardwareName(m_baseline), statusText(h.rows.front().entry.status));
    if (!delivers.isEmpty())
        parts << tr("%1 at %2 tok/s/user").arg(listed(delivers), at);
    if (within.size() == 1)
        parts << tr("%1 and %2 are within run-to-run spread at %3 tok/s/user")
                     .arg(within.front(), hardwareName(m_baseline), at);
    else if (!within.isEmpty())
        parts << tr("%1 are each within run-to-run spread of %2 at %3 tok/s/user")
                     .arg(listed(within), hardwareName(m_baseline), at);
    // the two readings, where they differ: which one the cells give, and how far apart, as a range, not a ratio per
    // hardware (each cell's tooltip gives both and why, docs/architecture.md 12.2; the chart labels both)
    if (const QString apart = readingsApart(); !apart.isEmpty())
        parts << apart;
    // the readings that lie across a gap, in words as well as the hatch (docs/architecture.md section 10)
    QStringList sparse;
    for (const HardwareLadder& h : m_rows)
        if (!h.rows.empty() && h.rows.front().value() && h.rows.front().entry.readSparse(h.rows.front().reading))
            sparse << hardwareName(h.hardware);
    if (!sparse.isEmpty())
        parts << tr("sparse at %1 tok/s/user (read between measured points more than 2x apart): %2")
                     .arg(at, listed(sparse));
    if (!parts.isEmpty())
        parts.front()[0] = parts.front()[0].toUpper();
    return parts.join(QStringLiteral("; "));
}

QString ReadoutModel::readingsApart() const
{
    // the frontier over one configuration's reading, where the two differ (as each cell's tooltip says)
    double least = 0, most = 0;
    QString leastName, mostName;
    int differ = 0;
    Reading chosen = Reading::Deployable;
    for (const HardwareLadder& h : m_rows) {
        if (h.rows.empty())
            continue;
        chosen = h.rows.front().reading;
        const LadderEntry& e = h.rows.front().entry;
        if (!e.readingsDiffer())
            continue;
        const double ratio = *e.frontierRatio();
        const QString name = hardwareName(h.hardware);
        if (differ == 0 || ratio < least) {
            least = ratio;
            leastName = name;
        }
        if (differ == 0 || ratio > most) {
            most = ratio;
            mostName = name;
        }
        ++differ;
    }
    if (differ == 0)
        return {};
    const QString which = chosen == Reading::Frontier
        ? tr("the tok/s/GPU here is the frontier's, not one configuration's")
        : tr("the tok/s/GPU here is one configuration's, not the frontier's");
    const auto times = [](double r) -> QString { return QString::number(r, 'f', r < 10 ? 1 : 0) + u'x'; };
    if (differ == 1)
        return tr("%1: the frontier reads %2 of it for %3 (hover it for both and why)")
            .arg(which, times(most), mostName);
    // below 1x where a configuration measured only faster than the target delivers more there, run as it was
    return tr("%1: the frontier reads %2 (%3) to %4 (%5) of it (hover a reading for both and why)")
        .arg(which, times(least), leastName, times(most), mostName);
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
    const bool has = r.value().has_value();
    const BaselineRatio& vs = m_ratios[static_cast<std::size_t>(index.row())].front();
    const std::optional<double>& ratio = vs.ratio;
    const auto field = [](int column) -> std::optional<ReadingField> {
        switch (column) {
        case TputPerGpu:
            return ReadingField::TputPerGpu;
        case Engine:
            return ReadingField::Engine;
        case Precision:
            return ReadingField::Precision;
        case CostPerMTok:
            return ReadingField::CostPerMTok;
        case TokensPerDollar:
            return ReadingField::TokensPerDollar;
        case AllInJoulesPerToken:
            return ReadingField::AllInJoulesPerToken;
        case TokensPerMegawatt:
            return ReadingField::TokensPerMegawatt;
        case MeasuredJoulesPerToken:
            return ReadingField::MeasuredJoulesPerToken;
        }
        return std::nullopt;
    }(index.column());
    if (role == Qt::UserRole) {
        if (field)
            return readingValue(r, *field);
        if (index.column() == VsBaseline)
            return ratio ? QVariant(*ratio) : QVariant();
        if (index.column() == SpeedOfLight)
            return r.speedOfLightPct ? QVariant(*r.speedOfLightPct) : QVariant();
        if (index.column() == Accuracy)
            return r.accuracy ? QVariant(r.accuracy->accuracy.value) : QVariant();
        return data(index, Qt::DisplayRole);
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Hardware || index.column() == Engine || index.column() == Precision
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && !has)
        return statusText(r.entry.status);
    if (role == Qt::ForegroundRole && !has && index.column() == TputPerGpu)
        return QColor(120, 120, 120);
    if (role == Qt::BackgroundRole && field && *field != ReadingField::Engine && *field != ReadingField::Precision)
        return sparseBackground(r);
    if (role == Qt::ToolTipRole && field)
        if (const QString gap = energyGap(l.hardware, r, *field); !gap.isEmpty())
            return gap;
    if (role == Qt::ToolTipRole && index.column() == MeasuredJoulesPerToken && r.measuredGroup)
        return tr("Measured on %1 (the lowest among the groups whose runs carry power)")
            .arg(QString::fromStdString(groupDisplayName(*r.measuredGroup, false)));
    if (role == Qt::ToolTipRole && index.column() == Accuracy) {
        const QString versus = accuracyComparison(index.row());
        return versus.isEmpty() ? accuracyTip(r) : accuracyTip(r) + u'\n' + versus;
    }
    if (role == Qt::ForegroundRole && index.column() == Accuracy && accuracyClearlyBelow(index.row()))
        return noteColour(NoteKind::Warning);
    if (role == Qt::ToolTipRole)
        return sparseNote(r);
    if (role != Qt::DisplayRole)
        return {};
    if (field)
        return readingText(r, *field);
    switch (index.column()) {
    case Hardware:
        return hardwareName(l.hardware);
    case VsBaseline:
        if (vs.status == BaselineStatus::Baseline)
            return tr("baseline");
        return QString::fromStdString(ratioText(vs));
    case SpeedOfLight:
        return r.speedOfLightPct ? QStringLiteral("%1%").arg(*r.speedOfLightPct, 0, 'f', 1) : QStringLiteral("-");
    case Accuracy:
        return accuracyCell(r);
    }
    return {};
}

QVariant ReadoutModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Accuracy)
        return tr(
            "The accuracy of the reading's group (its latest evaluation as of the day), with its standard error; in "
            "amber where it is below the highest here (or the baseline's) by more than the error");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == SpeedOfLight)
        return tr("The reading as a share of its hardware's speed of light (the dashed line)");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == CostPerMTok)
        return tr("$ per million tokens at the chosen price, of the reading chosen");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == TputPerGpu)
        return tr("The best tok/s/GPU at the target: what one configuration delivers (as the plan sizes it), or the "
                  "frontier across configurations (the InferenceX site's), as the Reading box says; the other "
                  "is in each cell's tooltip and the sentence under the table (how far apart), and a hatch marks a "
                  "reading between measured points more than 2x apart");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == AllInJoulesPerToken)
        return tr(
            "Joules per token at all-in provisioned power per GPU (host, network, cooling included): kW x 1,000 / "
            "tok/s/GPU");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == TokensPerMegawatt)
        return tr("Tokens/s per MW of all-in provisioned power: tok/s/GPU x 1,000 / kW");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == MeasuredJoulesPerToken)
        return tr("Joules per token from the runs' measured average GPU power (GPU only: not comparable with the "
                  "all-in figure)");
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
        return tr("$/1M tok");
    case TokensPerDollar:
        return tr("Tokens per $");
    case VsBaseline:
        return m_baseline.empty() ? tr("vs baseline") : tr("vs %1").arg(hardwareName(m_baseline));
    case SpeedOfLight:
        return tr("% of SoL");
    case AllInJoulesPerToken:
        return tr("J/tok (all-in)");
    case TokensPerMegawatt:
        return tr("tok/s/MW (all-in)");
    case MeasuredJoulesPerToken:
        return tr("J/tok (measured GPU)");
    case Accuracy: {
        const std::string task
            = m_rows.empty() || m_rows.front().rows.empty() ? std::string() : m_rows.front().rows.front().accuracyTask;
        return accuracyHeader(task);
    }
    }
    return {};
}

const LadderRow* ReadoutModel::accuracyReference() const
{
    const LadderRow* best = nullptr;
    for (const HardwareLadder& l : m_rows) {
        const LadderRow& r = l.rows.front();
        if (!r.accuracy)
            continue;
        if (l.hardware == m_baseline)
            return &r;
        if (!best || r.accuracy->accuracy.value > best->accuracy->accuracy.value)
            best = &r;
    }
    return best;
}

QString ReadoutModel::accuracyComparison(int r) const
{
    const LadderRow* reference = accuracyReference();
    const LadderRow& mine = row(r);
    if (!reference || !mine.accuracy || reference == &mine)
        return {};
    const paretoscope::Accuracy& a = mine.accuracy->accuracy;
    const paretoscope::Accuracy& b = reference->accuracy->accuracy;
    std::string hw;
    for (const HardwareLadder& l : m_rows)
        if (&l.rows.front() == reference)
            hw = l.hardware;
    return tr("vs %1's %2%: %3 pts, %4")
        .arg(hardwareName(hw))
        .arg(100 * b.value, 0, 'f', 1)
        .arg(QString::asprintf("%+.1f", 100 * (a.value - b.value)))
        .arg(withinError(a, b) ? tr("within error") : tr("beyond the error (two standard errors each side)"));
}

bool ReadoutModel::accuracyClearlyBelow(int r) const
{
    const LadderRow* reference = accuracyReference();
    const LadderRow& mine = row(r);
    return reference && mine.accuracy && reference != &mine
        && mine.accuracy->accuracy.value < reference->accuracy->accuracy.value
        && !withinError(mine.accuracy->accuracy, reference->accuracy->accuracy);
}

bool ReadoutModel::anyAccuracy() const
{
    for (const HardwareLadder& l : m_rows)
        if (!l.rows.empty() && !l.rows.front().accuracyTask.empty())
            return true;
    return false;
}

bool ReadoutModel::anyMeasuredEnergy() const
{
    for (const HardwareLadder& l : m_rows)
        if (!l.rows.empty() && l.rows.front().measuredJoulesPerToken)
            return true;
    return false;
}

} // namespace paretoscope::ui
