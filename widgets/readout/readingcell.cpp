#include "widgets/readout/readingcell.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <QObject>

#include "core/model/displaynames.h"
#include "core/output/reports.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {
QVariant orNull(const std::optional<double>& v)
{
    return v ? QVariant(*v) : QVariant();
}
} // namespace

QString readingText(const LadderRow& r, ReadingField field)
{
    const auto& g = r.entry.group;
    QString none = QStringLiteral("-");
    switch (field) {
    case ReadingField::TputPerGpu:
        // no reading says why in a word or two (the tooltip in full); a spread of reruns follows it, as the CLI's table
        // writes it
        if (!r.entry.value)
            return statusShort(r.entry.status);
        if (r.entry.low && r.entry.high)
            return QString::fromStdString(withThousands(*r.entry.value)) + QStringLiteral(" [")
                + QString::fromStdString(withThousands(*r.entry.low)) + QStringLiteral(" - ")
                + QString::fromStdString(withThousands(*r.entry.high)) + u']';
        return QString::fromStdString(withThousands(*r.entry.value));
    case ReadingField::Engine:
        return g ? engineName(g->engine) : none;
    case ReadingField::Precision:
        return g ? QString::fromStdString(precisionWithSpecDecoding(*g)) : none;
    case ReadingField::CostPerMTok:
        return r.costPerMTok ? QString::fromStdString(money(*r.costPerMTok)) : none;
    case ReadingField::TokensPerDollar:
        return r.tokensPerDollar ? QString::fromStdString(withThousands(*r.tokensPerDollar)) : none;
    case ReadingField::AllInJoulesPerToken:
        return r.allInJoulesPerToken ? QString::fromStdString(withSignificant(*r.allInJoulesPerToken)) : none;
    case ReadingField::TokensPerMegawatt:
        return r.tokensPerSecondPerMw ? QString::fromStdString(withThousands(*r.tokensPerSecondPerMw)) : none;
    case ReadingField::MeasuredJoulesPerToken:
        return r.measuredJoulesPerToken ? QString::fromStdString(withSignificant(*r.measuredJoulesPerToken)) : none;
    }
    return none;
}

QString energyGap(const std::string& hardware, const LadderRow& r, ReadingField field)
{
    if (!r.entry.value)
        return {};
    if (field == ReadingField::MeasuredJoulesPerToken && !r.measuredJoulesPerToken)
        return QObject::tr("no measured power: the runs read here carry no average GPU power");
    if ((field == ReadingField::AllInJoulesPerToken || field == ReadingField::TokensPerMegawatt)
        && !r.allInJoulesPerToken)
        return QObject::tr("no all-in power figure for %1 in resources/hardware_power.json: no energy value")
            .arg(hardwareName(hardware));
    return {};
}

QVariant readingValue(const LadderRow& r, ReadingField field)
{
    switch (field) {
    case ReadingField::TputPerGpu:
        return orNull(r.entry.value);
    case ReadingField::CostPerMTok:
        return orNull(r.costPerMTok);
    case ReadingField::TokensPerDollar:
        return orNull(r.tokensPerDollar);
    case ReadingField::AllInJoulesPerToken:
        return orNull(r.allInJoulesPerToken);
    case ReadingField::TokensPerMegawatt:
        return orNull(r.tokensPerSecondPerMw);
    case ReadingField::MeasuredJoulesPerToken:
        return orNull(r.measuredJoulesPerToken);
    default:
        return readingText(r, field);
    }
}

QString statusShort(LadderStatus status)
{
    return QString::fromUtf8(statusShortWords(status)); // core's words: the CLI's too
}

QString statusText(LadderStatus status)
{
    return status == LadderStatus::Ok ? QString() : QString::fromUtf8(statusWords(status));
}

QVariant sparseBackground(const LadderRow& row)
{
    if (!row.entry.value || !row.entry.sparse)
        return {};
    return QBrush(QColor(214, 160, 40, 90), Qt::BDiagPattern);
}

QString sparseNote(const LadderRow& row)
{
    if (!row.entry.value)
        return {};
    QString note;
    if (row.entry.sparse) {
        QLocale en(QLocale::English);
        const double gap = row.entry.knotBelow > 0 ? row.entry.knotAbove / row.entry.knotBelow : 0;
        note = QObject::tr("Read between measured points at %1 and %2 tok/s/user (%3x apart): interpolated across the "
                           "gap, not measured near the target.")
                   .arg(en.toString(row.entry.knotBelow, 'g', 4), en.toString(row.entry.knotAbove, 'g', 4),
                       en.toString(gap, 'f', 1));
    }
    // what one configuration delivers, where it differs from the frontier's reading (docs/architecture.md 12.2)
    if (const std::string why = readingsDifferSentence(row.entry); !why.empty())
        note += (note.isEmpty() ? QString() : QStringLiteral("\n")) + QString::fromStdString(why);
    return note;
}

QString accuracyCell(const LadderRow& row)
{
    if (row.accuracy)
        return QStringLiteral("%1% \u00b1 %2")
            .arg(100 * row.accuracy->accuracy.value, 0, 'f', 1)
            .arg(100 * row.accuracy->accuracy.standardError, 0, 'f', 1);
    return row.entry.group ? QObject::tr("not evaluated") : QStringLiteral("-");
}

QString accuracyTip(const LadderRow& row)
{
    const QString task = QString::fromStdString(taskName(row.accuracyTask));
    if (!row.accuracy)
        return row.entry.group ? QObject::tr("%1: no evaluation of this group").arg(task) : QString();
    const EvaluationRecord& e = row.accuracy->evaluation;
    const QString config = e.disaggregated ? QObject::tr("disaggregated") : QStringLiteral("TP%1").arg(e.tp);
    return QObject::tr("%1 on %2 questions, %3; the configuration evaluated: %4, of %5 of this group")
        .arg(QString::fromStdString(accuracyText(row.accuracyTask, row.accuracy->accuracy)))
        .arg(e.questions)
        .arg(QString::fromStdString(e.date), config)
        .arg(row.accuracy->configurations);
}

QString accuracyHeader(const std::string& task)
{
    return task.empty() ? QObject::tr("Accuracy") : QString::fromStdString(taskName(task));
}

} // namespace paretoscope::ui
