#include "runspanel.h"
#include <QLocale>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace paretoscope::ui {

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new RunsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_info(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_filter->setPlaceholderText(tr("Filter runs (any column)"));
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
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(del, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRunIds();
        if (ids.empty())
            return;
        if (QMessageBox::question(this, tr("Delete runs"),
                tr("Delete %n run(s) from the store? This cannot be undone.", nullptr, int(ids.size())))
            == QMessageBox::Yes)
            emit deleteRequested(ids);
    });
}

void RunsPanel::setRuns(std::vector<StoredRun> runs, std::size_t inScope)
{
    const std::size_t shown = runs.size();
    m_model->setRuns(std::move(runs));
    QLocale en(QLocale::English);
    m_info->setText(shown < inScope ? tr("%1 of %2 runs shown; narrow the filters to see the rest")
                                          .arg(en.toString(qulonglong(shown)), en.toString(qulonglong(inScope)))
                                    : tr("%1 runs").arg(en.toString(qulonglong(shown))));
    m_table->resizeColumnsToContents();
}

std::vector<long long> RunsPanel::selectedRunIds() const
{
    std::vector<long long> ids;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        ids.push_back(m_proxy->data(i, RunsModel::RunIdRole).toLongLong());
    return ids;
}

} // namespace paretoscope::ui
