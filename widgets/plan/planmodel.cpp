#include "widgets/plan/planmodel.h"

#include <QFont>
#include <QLocale>

#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

QString dollars(double v)
{
    return QStringLiteral("$") + thousandsText(v, v < 100 ? 2 : 0);
}

// a figure that may be missing: "-" where the plan has none
template <typename F> QString orDash(const std::optional<double>& v, F format)
{
    return v ? format(*v) : QStringLiteral("-");
}

} // namespace

void PlanModel::setBudget(const BudgetPlan& budget)
{
    Plan plan;
    plan.target = budget.target;
    plan.metric = budget.metric;
    QStringList serves;
    int most = -1;
    for (const BudgetHardware& b : budget.hardware) {
        if (b.most)
            most = int(plan.hardware.size());
        plan.hardware.push_back(b.plan);
        if (!b.fits) {
            serves << QString::fromStdString(b.why);
            continue;
        }
        QString text = thousandsText(b.totalTokPerS.value_or(b.servedTokPerS)) + tr(" tok/s");
        if (b.users)
            text += tr(" · %1 users").arg(thousandsText(*b.users));
        if (b.requestsPerS)
            text += tr(" · %1 req/s").arg(thousandsText(*b.requestsPerS, *b.requestsPerS < 100 ? 1 : 0));
        serves << text;
    }
    const bool wasBudget = m_budget;
    m_serves = serves;
    m_most = most;
    m_budget = true;
    if (!wasBudget) {
        beginResetModel();
        m_plan = std::move(plan);
        endResetModel();
        return;
    }
    setPlanRows(std::move(plan));
}

void PlanModel::setPlan(Plan plan)
{
    if (m_budget) {
        beginResetModel();
        m_budget = false;
        m_serves.clear();
        m_most = -1;
        m_plan = std::move(plan);
        endResetModel();
        return;
    }
    setPlanRows(std::move(plan));
}

void PlanModel::setPlanRows(Plan plan)
{
    bool sameRows = plan.hardware.size() == m_plan.hardware.size();
    for (std::size_t i = 0; sameRows && i < plan.hardware.size(); ++i)
        sameRows = plan.hardware[i].hardware == m_plan.hardware[i].hardware;
    if (!sameRows) {
        beginResetModel();
        m_plan = std::move(plan);
        endResetModel();
        return;
    }
    m_plan = std::move(plan);
    if (!m_plan.hardware.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int PlanModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_plan.hardware.size());
}

int PlanModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PlanModel::configText(const PlanConfig& c)
{
    QStringList parts;
    QString par;
    if (c.tp > 0)
        par += QStringLiteral("TP%1").arg(c.tp);
    if (c.ep > 1)
        par += QStringLiteral(" EP%1").arg(c.ep);
    if (!par.isEmpty())
        parts << par.trimmed();
    if (c.dpAttention)
        parts << tr("DP attn");
    if (c.disaggregated)
        parts << QStringLiteral("%1P + %2D").arg(c.prefillGpus).arg(c.decodeGpus);
    if (c.concurrency > 0)
        parts << tr("conc %1").arg(c.concurrency);
    return parts.join(QStringLiteral(" · "));
}

QVariant PlanModel::display(const HardwarePlan& h, int column) const
{
    const bool sized = h.sized();
    switch (column) {
    case Hardware:
        return QString(hardwareName(h.hardware) + (h.cheapest ? tr("  ★ cheapest") : QString()));
    case Status:
        return QString::fromStdString(planReadingWords(h));
    case TputPerGpu:
        return orDash(h.tputPerGpu, [](double v) { return thousandsText(v); });
    case Reading:
        return h.group ? QString::fromStdString(groupDisplayName(*h.group, false)) : QStringLiteral("-");
    case Accuracy: // "95.5% ± 0.6" (the task is in the header); "not evaluated" is a state, never 0
        if (h.accuracy)
            return QStringLiteral("%1% \u00b1 %2")
                .arg(100 * h.accuracy->accuracy.value, 0, 'f', 1)
                .arg(100 * h.accuracy->accuracy.standardError, 0, 'f', 1);
        return h.read() && !h.accuracyTask.empty() ? tr("not evaluated") : QStringLiteral("-");
    case Config:
        if (!h.sizing)
            return QStringLiteral("-");
        return QString::fromStdString(deployAsText(h));
    case ReplicaGpus:
        return sized && h.replicaGpus > 0 ? QString::number(h.replicaGpus) : QStringLiteral("-");
    case GpusExact:
        return sized ? thousandsText(h.gpusExact, 1) : QStringLiteral("-");
    case Gpus:
        return sized ? thousandsText(double(h.gpus)) : QStringLiteral("-");
    case Replicas:
        return sized && h.replicas > 0 ? thousandsText(double(h.replicas)) : QStringLiteral("-");
    case Nodes:
        if (!sized || h.nodes <= 0)
            return QStringLiteral("-");
        return QString(thousandsText(double(h.nodes)) + QLatin1Char(' ')
            + (h.nodeUnit == "rack" ? tr("racks of %1").arg(h.gpusPerNode) : tr("× %1 GPUs").arg(h.gpusPerNode)));
    case PowerMw:
        // a deployment under a megawatt reads in kW (core's powerText)
        return orDash(h.powerKw, [](double kw) { return QString::fromStdString(powerText(kw)); });
    case JoulesPerToken:
        return orDash(h.energyJPerToken, [](double v) { return thousandsText(v, v < 10 ? 3 : 1); });
    case TokensPerMw:
        return orDash(h.tokensPerSPerMw, [](double v) { return thousandsText(v); });
    case CostPerHour:
        return orDash(h.costPerHour, dollars);
    case CostPerMonth:
        return orDash(h.costPerMonth, dollars);
    case CostPerMTok:
        return orDash(h.costPerMTok, [](double v) { return QString::fromStdString(money(v)); });
    case CostPerMTokEffective:
        return orDash(h.costPerMTokEffective, [](double v) { return QString::fromStdString(money(v)); });
    default:
        return {};
    }
}

QVariant PlanModel::raw(const HardwarePlan& h, int column) const
{
    auto opt = [](const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); };
    const bool sized = h.sized();
    switch (column) {
    case TputPerGpu:
        return opt(h.tputPerGpu);
    case ReplicaGpus:
        return sized ? QVariant(h.replicaGpus) : QVariant();
    case GpusExact:
        return sized ? QVariant(h.gpusExact) : QVariant();
    case Gpus:
        return sized ? QVariant(qlonglong(h.gpus)) : QVariant();
    case Replicas:
        return sized ? QVariant(qlonglong(h.replicas)) : QVariant();
    case Nodes:
        return sized ? QVariant(qlonglong(h.nodes)) : QVariant();
    case PowerMw:
        return opt(h.powerMw);
    case JoulesPerToken:
        return opt(h.energyJPerToken);
    case TokensPerMw:
        return opt(h.tokensPerSPerMw);
    case CostPerHour:
        return opt(h.costPerHour);
    case CostPerMonth:
        return opt(h.costPerMonth);
    case CostPerMTok:
        return opt(h.costPerMTok);
    case CostPerMTokEffective:
        return opt(h.costPerMTokEffective);
    default:
        return display(h, column);
    }
}

QString PlanModel::toolTip(const HardwarePlan& h, int column) const
{
    QStringList lines;
    // the sentence columns are cut to a width on the page: their whole text first
    if (column == Status || column == Config)
        if (const QString text = display(h, column).toString(); !text.isEmpty())
            lines << text;
    if ((column == Config || column == Status || column == TputPerGpu) && h.sizing) {
        if (h.reading == PlanReading::Interpolated && h.lower)
            lines << tr("Sized between two measured points of one configuration: %1 at %2 tok/s/user and %3 at %4 "
                        "tok/s/user")
                         .arg(configText(*h.lower), thousandsText(h.lower->interactivity, 1), configText(*h.sizing),
                             thousandsText(h.sizing->interactivity, 1));
        else
            lines << tr("Sized on a measured point: %1 at %2 tok/s/user")
                         .arg(configText(*h.sizing), thousandsText(h.sizing->interactivity, 1));
        if (h.frontierTputPerGpu && h.frontierRatio)
            lines << tr("The frontier reads %1 tok/s/GPU at the target (%2x this), across configurations: not "
                        "what one deployment delivers")
                         .arg(thousandsText(*h.frontierTputPerGpu), QString::number(*h.frontierRatio, 'f', 2));
    }
    if (column == CostPerHour && h.tco)
        lines << tr("TCO: $%1/GPU/hr = capital $%2 + energy $%3 + other $%4 (%5 kW per GPU, PUE %6)")
                     .arg(QString::number(h.tco->usdPerGpuHour, 'f', 3), QString::number(h.tco->capital, 'f', 3),
                         QString::number(h.tco->energy, 'f', 3), QString::number(h.tco->other, 'f', 3),
                         QString::number(h.tco->kwPerGpu, 'f', 2), QString::number(h.tco->pue, 'f', 2));
    else if (column == CostPerHour && h.usdPerGpuHour)
        lines << tr("$%1 per GPU-hour (%2)")
                     .arg(QString::number(*h.usdPerGpuHour, 'f', 2), QString::fromStdString(h.priceSource));
    if (column == JoulesPerToken && h.measuredJPerToken)
        lines << tr("Measured, GPU only: %1 J/token").arg(thousandsText(*h.measuredJPerToken, 3));
    if (column == JoulesPerToken || column == TokensPerMw || column == PowerMw)
        lines << tr("All-in provisioned power per GPU (host, network, cooling and facility included)");
    for (const std::string& note : h.notes)
        lines << QString::fromStdString(note);
    return lines.join(QLatin1Char('\n'));
}

QVariant PlanModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const HardwarePlan& h = m_plan.hardware[std::size_t(index.row())];
    if (m_budget && (role == Qt::DisplayRole || role == Qt::UserRole)) {
        if (index.column() == Serves)
            return index.row() < m_serves.size() ? QVariant(m_serves[index.row()]) : QVariant();
        if (index.column() == Hardware)
            return QString(hardwareName(h.hardware) + (index.row() == m_most ? tr("  ★ serves the most") : QString()));
    }
    if (m_budget && role == Qt::FontRole && index.row() == m_most) {
        QFont f;
        f.setBold(true);
        return f;
    }
    switch (role) {
    case Qt::DisplayRole:
        return display(h, index.column());
    case Qt::UserRole:
        return raw(h, index.column());
    case Qt::ToolTipRole: {
        const QString tip = toolTip(h, index.column());
        return tip.isEmpty() ? QVariant() : QVariant(plainToolTip(tip));
    }
    case Qt::FontRole:
        if (h.cheapest) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case Hardware:
        case Status:
        case Serves:
        case Reading:
        case Config:
            return QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
        default:
            return QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        }
    default:
        return {};
    }
}

QVariant PlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    // two lines where a title has two parts: the columns stay as narrow as their numbers, and every one is in view
    // on a wide page
    const bool output = m_plan.metric == TputMetric::Output;
    switch (section) {
    case Hardware:
        return tr("Hardware");
    case Status:
        return tr("Status");
    case Serves:
        return tr("Serves at\nthe target");
    case TputPerGpu:
        return output ? tr("Output\ntok/s/GPU") : tr("Tok/s/GPU");
    case Reading:
        return tr("Engine ·\nprecision");
    case Config:
        return tr("Deploy as");
    case ReplicaGpus:
        return tr("GPUs per\nreplica");
    case GpusExact:
        return tr("GPUs\n(exact)");
    case Gpus:
        return tr("GPUs");
    case Replicas:
        return tr("Replicas");
    case Nodes:
        return tr("Nodes");
    case PowerMw:
        return tr("Power\n(all-in)");
    case JoulesPerToken:
        return tr("J/token");
    case TokensPerMw:
        return tr("Tok/s\nper MW");
    case CostPerHour:
        return tr("$/hour");
    case CostPerMonth:
        return tr("$/month");
    case CostPerMTok:
        return tr("$/1M tok\n(list)");
    case CostPerMTokEffective:
        return tr("$/1M tok\n(at demand)");
    case Accuracy: {
        std::string task;
        for (const HardwarePlan& h : m_plan.hardware)
            task = h.accuracyTask.empty() ? task : h.accuracyTask;
        return task.empty() ? tr("Accuracy") : QString::fromStdString(taskName(task));
    }
    default:
        return {};
    }
}

} // namespace paretoscope::ui
