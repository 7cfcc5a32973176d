#include "widgets/readout/ladderpanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>

#include "core/analysis/ladderaccuracy.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {
QString targetsText(const std::vector<double>& targets)
{
    QStringList parts;
    for (double t : targets)
        parts << QString::number(t, 'g', 6);
    return parts.join(QStringLiteral(", "));
}
} // namespace

LadderPanel::LadderPanel(const PricingCatalog& pricing, QWidget* parent)
    : QWidget(parent)
    , m_pricing(pricing)
    , m_edit(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new LadderModel(this))
{
    m_edit->setText(targetsText(m_targets));
    m_edit->setToolTip(tr("Interactivity targets in tok/s/user, separated by commas"));
    m_error->setStyleSheet(noteStyle(NoteKind::Error));
    m_error->setTextFormat(Qt::PlainText);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Targets (tok/s/user):"), this));
    bar->addWidget(m_edit, 1);
    bar->addWidget(m_error);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8); // rows as tall as the text
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    connect(m_edit, &QLineEdit::editingFinished, this, [this] {
        std::vector<double> targets;
        for (const QString& part : m_edit->text().split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok || !(v > 0)) {
                m_error->setText(tr("'%1' is not a number above zero").arg(part.trimmed()));
                return;
            }
            targets.push_back(v);
        }
        if (targets.empty()) {
            m_error->setText(tr("give at least one target"));
            return;
        }
        m_error->clear();
        m_targets = targets;
        refresh();
        emit targetsChanged(m_targets);
    });
}

void LadderPanel::setTargets(const std::vector<double>& targets)
{
    if (targets.empty())
        return;
    m_targets = targets;
    m_edit->setText(targetsText(targets));
    refresh();
    emit targetsChanged(m_targets);
}

void LadderPanel::setData(std::shared_ptr<const ScopeData> scopeData)
{
    m_data = std::move(scopeData);
    refresh();
}

void LadderPanel::setHideSparse(bool hide)
{
    m_hideSparse = hide;
    refresh();
}

void LadderPanel::setReading(Reading reading)
{
    if (m_reading == reading)
        return;
    m_reading = reading;
    refresh();
}

void LadderPanel::setCustomPrice(std::optional<double> usdPerGpuHour)
{
    if (m_custom == usdPerGpuHour)
        return;
    m_custom = usdPerGpuHour;
    refresh();
}

Result<std::vector<HardwareLadder>> LadderPanel::ladder(const PriceChoice& price) const
{
    if (!m_data)
        return Error { "no scope loaded" };
    LadderRequest req;
    req.scope = m_data->scope;
    req.targets = m_targets;
    req.metric = m_data->metric;
    req.price = price;
    req.hideSparse = m_hideSparse;
    req.reading = m_reading;
    auto ladders = computeLadder(m_data->frontiers, m_pricing, req);
    if (ladders) // the share of the speed of light, as the readout shows it (and the CSV export takes it from here)
        attachSpeedOfLight(*ladders, m_data->speedOfLight);
    // the accuracy of each reading's group, as the readout shows it, on the scope's task
    if (ladders && m_data->evaluations && !m_data->evaluations->empty())
        attachAccuracy(*ladders, *m_data->evaluations, m_data->accuracyTask, req.scope.asOf, &m_data->frontiers,
            m_data->knotConfigurations.get());
    return ladders;
}

void LadderPanel::refresh()
{
    if (!m_data)
        return;
    std::vector<TierLadder> tiers;
    for (const PricingTier& t : m_pricing.tiers) {
        PriceChoice p;
        p.tierKey = t.key;
        if (auto l = ladder(p))
            tiers.push_back({ QString::fromStdString(t.key), QString::fromStdString(t.label), std::move(*l) });
    }
    if (m_custom) {
        PriceChoice p;
        p.customUsdPerGpuHour = m_custom;
        if (auto l = ladder(p))
            tiers.push_back({ tr("custom"), tr("custom $%1/GPU/hr").arg(*m_custom, 0, 'f', 2), std::move(*l) });
    }
    m_model->setLadders(std::move(tiers));
    m_table->setColumnHidden(LadderModel::Accuracy, !m_model->anyAccuracy()); // a model without evaluations
    fitColumnsLater();
}

void LadderPanel::fitColumnsLater()
{
    if (m_fitPending)
        return;
    m_fitPending = true;
    // a millisecond on: a timer of 0 ran in the same stand as the chart's repaint the new scope caused
    if (isVisible())
        QTimer::singleShot(1, Qt::PreciseTimer, this, [this] {
            m_fitPending = false;
            m_table->resizeColumnsToContents();
        });
}

void LadderPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_fitPending) {
        m_fitPending = false;
        m_table->resizeColumnsToContents();
    }
}

} // namespace paretoscope::ui
