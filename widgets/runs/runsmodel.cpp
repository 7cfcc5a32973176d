#include "widgets/runs/runsmodel.h"

#include <algorithm>
#include <iterator>

#include "core/model/layoutlabel.h"
#include "core/model/modelnames.h"
#include "core/model/runidentity.h"
#include "core/output/reports.h"
#include "widgets/common/displaynames.h"
#include "widgets/storejobs/storeworker.h"

namespace paretoscope::ui {

void RunsModel::setRuns(std::vector<StoredRun> runs)
{
    beginResetModel();
    ++m_generation;
    m_worker = nullptr;
    m_runs = std::move(runs);
    m_total = static_cast<long long>(m_runs.size());
    m_loading = false;
    m_atEnd = true;
    endResetModel();
}

void RunsModel::setSource(StoreWorker* worker, std::vector<long long> seriesIds, Scope dates, std::size_t maxRows,
    std::shared_ptr<const std::vector<long long>> selected)
{
    beginResetModel();
    ++m_generation;
    m_worker = worker;
    m_seriesIds = std::move(seriesIds);
    m_dates = std::move(dates);
    m_maxRows = maxRows;
    m_selected = std::move(selected);
    m_runs.clear();
    m_total = -1;
    m_atEnd = false;
    m_loading = true; // a view (or a model tester) asks for more while the reset is announced: the first page is coming
    endResetModel();
    requestPage(true);
}

bool RunsModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_worker && !m_loading && !m_atEnd && m_runs.size() < m_maxRows;
}

void RunsModel::fetchMore(const QModelIndex& parent)
{
    if (canFetchMore(parent))
        requestPage(false);
}

void RunsModel::requestPage(bool withCount)
{
    struct Page {
        std::vector<StoredRun> runs;
        long long total = -1;
    };
    m_loading = true;
    const long long after = m_runs.empty() ? 0 : m_runs.back().id;
    const std::size_t limit = std::min(kPageSize, m_maxRows - m_runs.size());
    // one kind for every page: a new source makes a page of the old one be skipped or dropped
    m_worker->post(
        QStringLiteral("runs page %1").arg(quintptr(this)), this,
        [ids = m_seriesIds, dates = m_dates, selected = m_selected, after, limit, withCount](RunStore& store) {
            Page page;
            if (selected) {
                // the next ids of the selection, read by id: each page costs the same however deep it is
                const auto from = std::upper_bound(selected->begin(), selected->end(), after);
                const auto to
                    = from + std::ptrdiff_t(std::min<std::size_t>(limit, std::size_t(selected->end() - from)));
                page.runs = store.runs(std::vector<long long>(from, to));
                page.total = withCount ? static_cast<long long>(selected->size()) : -1;
                return page;
            }
            page.runs = store.runsOfSeriesPage(ids, dates, after, limit);
            if (withCount)
                page.total = store.runCountOfSeries(ids, dates);
            return page;
        },
        [this, generation = m_generation, limit](Result<Page> page) {
            if (generation != m_generation)
                return;
            if (!page) {
                m_loading = false;
                m_atEnd = true;
                emit pageLoaded(QString::fromStdString(page.error()));
                return;
            }
            if (page->total >= 0)
                m_total = page->total;
            m_atEnd = page->runs.size() < limit;
            if (!page->runs.empty()) {
                // still loading while the rows are announced: a fetchMore then would ask for this page again
                const int first = static_cast<int>(m_runs.size());
                beginInsertRows({}, first, first + static_cast<int>(page->runs.size()) - 1);
                std::move(page->runs.begin(), page->runs.end(), std::back_inserter(m_runs));
                endInsertRows();
            }
            m_loading = false;
            emit pageLoaded({});
        });
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
    if (role == Qt::ToolTipRole && index.column() == Run)
        return plainToolTip(tr("%1 (%2): under \"latest\" a line of the chart is one configuration's points from its "
                               "newest run")
                                .arg(QString::fromStdString(runLabel(r.run)), QString::fromStdString(r.run)));
    if (role == Qt::ToolTipRole && index.column() == Source)
        return plainToolTip(QString::fromStdString(r.provenance.source + "\nsha256 " + r.provenance.sha256 + "\nformat "
            + r.provenance.format + (r.provenance.note.empty() ? "" : "\n" + r.provenance.note)));
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case Tp:
            return r.tp;
        case Ep:
            return r.ep;
        case DpAttention:
            return r.dpAttention;
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
        return QString::fromStdString(modelDisplayName(r.model));
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
    case DpAttention:
        return r.dpAttention ? tr("yes") : QStringLiteral("-");
    case Prefill:
        return r.disaggregated ? QString::fromStdString(prefillLabel(r)) : QStringLiteral("-");
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
    case Run:
        return QString::fromStdString(runLabel(r.run));
    case Source:
        return QString::fromStdString(r.provenance.source);
    }
    return {};
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Prefill)
        return tr("A disaggregated run's prefill side: its TP, EP, attention data parallel and workers, apart from the "
                  "decode side's (TP, EP and DP attn); two runs that differ only there are two configurations");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Run)
        return tr("The run each point comes from: an InferenceX workflow run, a live session, a cluster task or an "
                  "import. Under \"latest\" each line of the chart is one configuration's points from one run");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == DpAttention)
        return tr("Attention data parallel over the TP GPUs (vLLM --data-parallel-size, SGLang --enable-dp-attention): "
                  "runs with it are a configuration of their own, on a frontier point of their own");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = { "Model", "Hardware", "Engine", "Precision", "Spec. decoding", "TP", "EP", "DP attn",
        "Prefill", "GPUs", "Concurrency", "tok/s/user", "tok/s/GPU", "TTFT (ms)", "TPOT (ms)", "E2E latency (s)",
        "Run date", "Run", "Source" };
    static_assert(std::size(names) == ColumnCount);
    if (section >= 0 && section < ColumnCount)
        return tr(names[section]);
    return {};
}

} // namespace paretoscope::ui
