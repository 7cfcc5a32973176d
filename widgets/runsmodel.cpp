#include "runsmodel.h"

#include "core/output/reports.h"
#include "displaynames.h"

namespace paretoscope::ui {

void RunsModel::setRuns(std::vector<StoredRun> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int RunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QVariant number(const std::optional<double>& v)
{
    return v ? QVariant(*v) : QVariant();
}

QString text(const std::optional<double>& v, double scale, int decimals)
{
    if (!v)
        return QStringLiteral("-");
    return QString::fromStdString(withThousands(*v * scale, decimals));
}

QString count(int v)
{
    return v > 0 ? QString::number(v) : QStringLiteral("-");
}

} // namespace

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const StoredRun& run = m_runs[static_cast<std::size_t>(index.row())];
    const RunRecord& r = run.record;
    if (role == RunIdRole)
        return run.id;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Tp && index.column() <= E2el ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Source)
        return plainToolTip(QString::fromStdString(r.provenance.source + "\nsha256 " + r.provenance.sha256 + "\nformat "
            + r.provenance.format + (r.provenance.note.empty() ? "" : "\n" + r.provenance.note)));
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case Tp:
            return r.tp;
        case Ep:
            return r.ep;
        case Gpus:
            return r.gpus;
        case Concurrency:
            return r.concurrency;
        case Interactivity:
            return number(r.interactivity);
        case TputPerGpu:
            return number(r.tputPerGpu);
        case Ttft:
            return number(r.ttft.median);
        case Tpot:
            return number(r.tpot.median);
        case E2el:
            return number(r.e2el.median);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Model:
        return QString::fromStdString(r.model);
    case Hardware:
        return hardwareName(r.hardware);
    case Engine:
        return engineName(r.engine);
    case Precision:
        return precisionName(r.precision);
    case Spec:
        return QString::fromStdString(r.specDecoding);
    case Tp:
        return count(r.tp);
    case Ep:
        return count(r.ep);
    case Gpus:
        return count(r.gpus);
    case Concurrency:
        return count(r.concurrency);
    case Interactivity:
        return text(r.interactivity, 1, 1);
    case TputPerGpu:
        return text(r.tputPerGpu, 1, 0);
    case Ttft:
        return text(r.ttft.median, 1000, 1);
    case Tpot:
        return text(r.tpot.median, 1000, 2);
    case E2el:
        return text(r.e2el.median, 1, 2);
    case Date:
        return QString::fromStdString(r.runDate);
    case Source:
        return QString::fromStdString(r.provenance.source);
    }
    return {};
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = { "Model", "Hardware", "Engine", "Precision", "Spec. decoding", "TP", "EP", "GPUs",
        "Concurrency", "tok/s/user", "tok/s/GPU", "TTFT (ms)", "TPOT (ms)", "E2E latency (s)", "Run date", "Source" };
    if (section >= 0 && section < ColumnCount)
        return tr(names[section]);
    return {};
}

} // namespace paretoscope::ui
