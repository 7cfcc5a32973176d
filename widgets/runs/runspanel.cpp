#include "widgets/runs/runspanel.h"
#include <QLocale>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>

namespace paretoscope::ui {

namespace {

// Keeps the rows that hold every word of the filter, each in any column ("mi355x mtp": MI355X runs with MTP).
class WordsFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setWords(const QString& text)
    {
        m_words = text.split(u' ', Qt::SkipEmptyParts);
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        const QAbstractItemModel* m = sourceModel();
        for (const QString& word : m_words) {
            bool found = false;
            for (int c = 0; c < m->columnCount(parent) && !found; ++c)
                found = m->index(row, c, parent).data().toString().contains(word, Qt::CaseInsensitive);
            if (!found)
                return false;
        }
        return true;
    }

private:
    QStringList m_words;
};

} // namespace

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new RunsModel(this))
    , m_proxy(new WordsFilter(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_info(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // columns fitted to the first 100 rows of a page, not 1,000: a page of 500 arrives without a long stand
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    m_table->setAlternatingRowColors(true);
    m_filter->setPlaceholderText(tr("Filter runs: every word, in any column"));
    m_filter->setClearButtonEnabled(true);
    m_info->setTextFormat(Qt::PlainText);
    auto* del = new QPushButton(tr("Delete selected…"), this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_info);
    bar->addWidget(del);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        static_cast<WordsFilter*>(m_proxy)->setWords(text);
        showCount();
    });
    connect(m_model, &RunsModel::pageLoaded, this, [this](const QString& error) {
        if (!error.isEmpty()) {
            holdRows(true, false);
            m_info->setText(error);
            return;
        }
        if (!m_sized && m_model->rowCount() > 0) {
            m_sized = true; // once, on the first page: later pages keep the widths
            // the rows painted once their columns are fitted: the fitting lays out every cell's text (the
            // delegate keeps it), a few columns a turn; painted at once, the page's first paint laid them all out
            // in one turn (10 ms of the GUI thread on a 1920x1080 screen)
            holdRows(true, true);
            fitColumns(0, m_fitting);
        }
        showCount();
    });
    connect(del, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRunIds();
        if (ids.empty())
            return;
        // the runs named, and No the default: Return alone deletes nothing
        QStringList named;
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        for (int k = 0; k < rows.size() && k < 5; ++k) {
            // what tells runs of one configuration apart too: its concurrency and its date
            const auto cell = [&](int c) { return m_proxy->index(rows[k].row(), c).data().toString(); };
            QString parallel = tr("TP %1 EP %2").arg(cell(RunsModel::Tp), cell(RunsModel::Ep));
            if (cell(RunsModel::DpAttention) == u"yes")
                parallel += tr(" DP attention");
            const QStringList cells { cell(RunsModel::Hardware), cell(RunsModel::Engine), cell(RunsModel::Precision),
                cell(RunsModel::Spec), parallel, tr("concurrency %1").arg(cell(RunsModel::Concurrency)),
                cell(RunsModel::Date) };
            named << QStringLiteral("• ") + cells.join(QStringLiteral(" · "));
        }
        if (rows.size() > 5)
            named << tr("… and %1 more").arg(rows.size() - 5);
        QMessageBox box(QMessageBox::Question, tr("Delete runs"),
            (ids.size() == 1 ? tr("Delete this run from the store? This cannot be undone.")
                             : tr("Delete these %1 runs from the store? This cannot be undone.").arg(ids.size()))
                + QStringLiteral("\n\n") + named.join(u'\n'),
            QMessageBox::Yes | QMessageBox::No, this);
        box.setTextFormat(Qt::PlainText);
        box.setDefaultButton(QMessageBox::No);
        if (box.exec() == QMessageBox::Yes)
            emit deleteRequested(ids);
    });
}

void RunsPanel::fitColumns(int from, quint64 fitting)
{
    if (fitting != m_fitting) { // a new source came: its first page fits the columns again
        holdRows(true, false);
        return;
    }
    // a few columns a turn of the event loop: measuring all 17 columns of a page's first 100 rows at once held the GUI
    // thread 11 to 26 ms, and a page lands while a new scope is being shown. The next turn on a 1 ms timer: a zero
    // one is a posted event, and posted events ran back to back with the scope's delivery and its repaint, before
    // the event loop took its timers or input (a deletion with the Runs tab in front held it 21 ms; 12 now)
    constexpr int kColumnsPerTurn = 4;
    const int to = std::min(from + kColumnsPerTurn, m_proxy->columnCount());
    for (int c = from; c < to; ++c)
        m_table->resizeColumnToContents(c);
    if (to < m_proxy->columnCount())
        QTimer::singleShot(1, Qt::PreciseTimer, this, [this, to, fitting] { fitColumns(to, fitting); });
    else
        holdRows(true, false);
}

void RunsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // the page brought to the front: its filter line and head first, the rows a turn later (the page painted whole
    // stood 14 to 27 ms on a 1920x1080 screen); rows held for their fitting stay held until it ends (a 1 ms timer, as
    // paintNextTurn's: a zero one is a posted event, run in the pass that paints the page)
    if (!event->spontaneous() && !m_heldForShow) {
        holdRows(false, true);
        QTimer::singleShot(1, Qt::PreciseTimer, this, [this] { holdRows(false, false); });
    }
}

void RunsPanel::holdRows(bool forFitting, bool held)
{
    (forFitting ? m_heldForFitting : m_heldForShow) = held;
    m_table->viewport()->setUpdatesEnabled(!m_heldForFitting && !m_heldForShow);
}

void RunsPanel::setRuns(std::vector<StoredRun> runs)
{
    ++m_fitting;
    m_model->setRuns(std::move(runs));
    m_table->resizeColumnsToContents();
    holdRows(true, false);
    m_sized = true;
    showCount();
}

void RunsPanel::showRuns(StoreWorker* worker, std::vector<long long> seriesIds, const Scope& dates,
    std::shared_ptr<const std::vector<long long>> selected)
{
    m_sized = false;
    ++m_fitting;
    m_model->setSource(worker, std::move(seriesIds), dates, kMaxRows, std::move(selected));
    showCount();
}

void RunsPanel::showCount()
{
    QLocale en(QLocale::English);
    const auto n = [&](std::size_t v) { return en.toString(qulonglong(v)); };
    const std::size_t loaded = m_model->runs().size();
    const std::size_t matching = std::size_t(m_proxy->rowCount());
    if (m_model->total() < 0) {
        m_info->setText(tr("Reading runs…"));
        return;
    }
    const std::size_t inScope = std::size_t(m_model->total());
    if (loaded < inScope) {
        const QString rest = m_model->canFetchMore({}) || m_model->loading() ? tr("scroll for more")
                                                                             : tr("narrow the filters to see the rest");
        m_info->setText(matching < loaded
                ? tr("%1 match of %2 runs shown (%3 in scope); %4").arg(n(matching), n(loaded), n(inScope), rest)
                : tr("%1 of %2 runs shown; %3").arg(n(loaded), n(inScope), rest));
    } else {
        m_info->setText(
            matching < loaded ? tr("%1 of %2 runs match").arg(n(matching), n(loaded)) : tr("%1 runs").arg(n(loaded)));
    }
}

QString RunsPanel::countText() const
{
    return m_info->text();
}

void RunsPanel::setFilterText(const QString& text)
{
    m_filter->setText(text);
}

std::vector<long long> RunsPanel::selectedRunIds() const
{
    std::vector<long long> ids;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        ids.push_back(m_proxy->data(i, RunsModel::RunIdRole).toLongLong());
    return ids;
}

} // namespace paretoscope::ui
