#include "widgets/readout/readingcell.h"

#include <cmath>

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
    const auto g = r.group(); // of the reading chosen (the view's "Reading")
    QString none = QStringLiteral("-");
    switch (field) {
    case ReadingField::TputPerGpu:
    case ReadingField::TputPerGpuBoth: {
        // no reading says why in a word or two (the tooltip in full); a spread of reruns follows a frontier reading,
        // as the CLI's table writes it; then "sparse" where it lies across a gap, and the other reading where the two
        // differ (LadderEntry::readingsDiffer)
        const auto v = r.value();
        if (!v)
            return statusShort(r.entry.status);
        QString text = QString::fromStdString(withThousands(*v));
        if (r.reading == Reading::Frontier && r.entry.low && r.entry.high)
            text += QStringLiteral(" [") + QString::fromStdString(withThousands(*r.entry.low)) + QStringLiteral(" - ")
                + QString::fromStdString(withThousands(*r.entry.high)) + u']';
        if (field == ReadingField::TputPerGpu) // the readout: the hatch, the tooltip and its sentence say sparse
            return text;
        if (r.entry.readSparse(r.reading))
            text += QObject::tr(" (sparse)");
        const Reading other = r.reading == Reading::Frontier ? Reading::Deployable : Reading::Frontier;
        if (const auto o = r.entry.read(other); o && r.entry.readingsDiffer())
            text += (other == Reading::Frontier ? QObject::tr(" · frontier %1") : QObject::tr(" · one config %1"))
                        .arg(QString::fromStdString(withThousands(*o)));
        return text;
    }
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
    if (!r.value())
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
    case ReadingField::TputPerGpuBoth:
        return orNull(r.value());
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
    if (!row.value() || !row.entry.readSparse(row.reading))
        return {};
    return QBrush(QColor(214, 160, 40, 90), Qt::BDiagPattern);
}

QString sparseNote(const LadderRow& row)
{
    if (!row.value())
        return {};
    QString note;
    if (row.entry.readSparse(row.reading)) {
        // the two measured points the reading chosen lies between: one configuration's, or the frontier's
        const bool one = row.reading == Reading::Deployable && row.entry.clamped == Clamp::None && row.entry.deployable;
        const double below = one ? row.entry.deployable->knotBelow : row.entry.knotBelow;
        const double above = one ? row.entry.deployable->knotAbove : row.entry.knotAbove;
        QLocale en(QLocale::English);
        const double gap = below > 0 ? above / below : 0;
        note = (one ? QObject::tr("Sparse: read between this configuration's concurrencies at %1 and %2 tok/s/user "
                                  "(%3x apart): interpolated across the gap, not measured near the target.")
                    : QObject::tr("Sparse: read between measured points at %1 and %2 tok/s/user (%3x apart): "
                                  "interpolated across the gap, not measured near the target."))
                   .arg(en.toString(below, 'g', 4), en.toString(above, 'g', 4), en.toString(gap, 'f', 1));
    }
    // the two readings, where they differ (docs/architecture.md 12.2)
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
    return row.group() ? QObject::tr("not evaluated") : QStringLiteral("-");
}

QString accuracyTip(const LadderRow& row)
{
    const QString task = QString::fromStdString(taskName(row.accuracyTask));
    if (!row.accuracy)
        return row.group() ? QObject::tr("%1: no evaluation of this group").arg(task) : QString();
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
