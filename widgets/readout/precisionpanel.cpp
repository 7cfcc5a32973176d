#include "widgets/readout/precisionpanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "core/analysis/accuracy.h"
#include "core/analysis/precisiontradeoff.h"
#include "core/model/displaynames.h"
#include "core/output/accuracyreports.h"

namespace paretoscope::ui {

namespace {
// The columns that hold numbers (right-aligned), as the CLI's table aligns them.
constexpr bool kNumeric[] = { false, false, true, false, true, false, false };
constexpr int kAccuracyColumn = 5; // precisionRows' "Accuracy"
} // namespace

PrecisionPanel::PrecisionPanel(const PricingCatalog& pricing, QWidget* parent)
    : QWidget(parent)
    , m_pricing(pricing)
    , m_heading(new QLabel(this))
    , m_table(new QTableWidget(this))
{
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_heading);
    layout->addWidget(m_table, 1);
}

void PrecisionPanel::setData(std::shared_ptr<const ScopeData> scopeData)
{
    m_data = std::move(scopeData);
    refresh();
}

void PrecisionPanel::setTarget(double target)
{
    if (m_target == target)
        return;
    m_target = target;
    refresh();
}

void PrecisionPanel::setPrice(const PriceChoice& price)
{
    m_price = price;
    refresh();
}

QString PrecisionPanel::heading() const
{
    return m_heading->text();
}

void PrecisionPanel::refresh()
{
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (!m_data || m_data->frontiers.empty()) {
        m_heading->setText(tr("No runs in this scope."));
        return;
    }
    LadderRequest req;
    req.scope = m_data->scope;
    req.targets = { m_target };
    req.metric = m_data->metric;
    req.price = m_price;
    // every group of the scope: what choosing a precision costs, whatever accuracy the filter panel requires
    const std::vector<GroupFrontier>& groups
        = m_data->accuracyFilter ? m_data->accuracyFilter->before : m_data->frontiers;
    const EvaluationIndex none;
    const EvaluationIndex& evaluations = m_data->evaluations ? *m_data->evaluations : none;
    const std::string task = m_data->accuracyTask.empty() ? std::string("gsm8k") : m_data->accuracyTask;
    const auto tradeoffs = precisionTradeoff(groups, m_pricing, req, evaluations, task);
    if (!tradeoffs) {
        m_heading->setText(QString::fromStdString(tradeoffs.error()));
        return;
    }
    const QString at = QLocale(QLocale::English).toString(m_target, 'g', 6);
    m_heading->setText(evaluations.empty()
            ? tr("Each precision's best reading per hardware at %1 tok/s/user. This model has no evaluations stored: "
                 "import InferenceX evaluations to see the accuracy that comes with each.")
                  .arg(at)
            : tr("Each precision's best reading per hardware at %1 tok/s/user with the %2 accuracy of the group read; "
                 "FP4 against FP8: the ratios and the accuracy difference, within error where the two intervals of "
                 "two standard errors overlap.")
                  .arg(at, QString::fromStdString(taskName(task))));
    std::set<std::string> precisions;
    for (const GroupFrontier& g : groups)
        precisions.insert(g.key.precision);
    if (precisions.size() == 1 && !m_data->scope.precisions.empty()) // the filter panel chose one
        m_heading->setText(m_heading->text() + u' '
            + tr("Tick another precision under Precision in the filters to compare %1 with it.")
                  .arg(QString::fromStdString(precisionDisplayName(*precisions.begin()))));
    const auto rows = precisionRows(*tradeoffs, task, m_target);
    m_table->setColumnCount(int(rows.front().size()));
    m_table->setRowCount(int(rows.size()) - 1);
    for (std::size_t c = 0; c < rows.front().size(); ++c)
        m_table->setHorizontalHeaderItem(int(c), new QTableWidgetItem(QString::fromStdString(rows.front()[c])));
    for (std::size_t r = 1; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(rows[r][c]));
            item->setTextAlignment(
                (c < std::size(kNumeric) && kNumeric[c] ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
            m_table->setItem(int(r) - 1, int(c), item);
        }
    m_table->setColumnHidden(kAccuracyColumn, evaluations.empty()); // "not evaluated" on every row says nothing
    m_table->resizeColumnsToContents();
}

} // namespace paretoscope::ui
