#include "widgets/history/historypanel.h"

#include <QDate>

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QtConcurrent>

#include "core/analysis/baseline.h"
#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "core/model/runselection.h"
#include "core/output/historyreports.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/threadpriority.h"
#include "widgets/history/historychart.h"

namespace paretoscope::ui {

namespace {

constexpr qint64 kMinStartGapMs = 40; // a history at most 25 times a second while the target moves

QString number(double v)
{
    return QString::fromStdString(withThousands(v, v < 10 ? 1 : 0));
}

QString readingText(const LadderRow& r)
{
    if (!r.entry.value)
        return QString::fromLatin1(statusWords(r.entry.status).data(), qsizetype(statusWords(r.entry.status).size()));
    QString text = number(*r.entry.value);
    if (r.entry.low && r.entry.high)
        text += QStringLiteral(" [%1 – %2]").arg(number(*r.entry.low), number(*r.entry.high));
    return text;
}

// The configuration read (the hardware is in its own column): "SGLang · FP4", spec decoding added when used.
QString configText(const LadderRow& r)
{
    return r.entry.group ? QString::fromStdString(groupDisplayName(*r.entry.group, false)) : QString();
}

QString changeText(const DiffRow& d)
{
    if (!d.changePct)
        return QStringLiteral("–");
    const QString pct
        = QStringLiteral("%1%2%").arg(*d.changePct >= 0 ? QStringLiteral("+") : QString()).arg(*d.changePct, 0, 'f', 1);
    return d.withinSpread ? HistoryPanel::tr("%1 (%2)").arg(pct, QString::fromLatin1(kWithinSpreadWords)) : pct;
}

QIcon swatch(const std::string& hardware)
{
    QPixmap p(12, 12);
    p.fill(hardwareColour(hardware));
    return QIcon(p);
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

} // namespace

HistoryPanel::HistoryPanel(const PricingCatalog& pricing, QWidget* parent)
    : QWidget(parent)
    , m_pricing(pricing)
    , m_mode(new QComboBox(this))
    , m_before(new QComboBox(this))
    , m_after(new QComboBox(this))
    , m_caption(new QLabel(this))
    , m_export(new QPushButton(tr("Export CSV…"), this))
    , m_stack(new QStackedWidget(this))
    , m_chart(new HistoryChart(this))
    , m_table(new QTableWidget(this))
{
    m_pool.setMaxThreadCount(1);
    m_mode->addItem(tr("History"));
    m_mode->addItem(tr("Compare two dates"));
    m_mode->setToolTip(tr("The reading at the readout's target as of each run date, or the ladder's targets as of "
                          "two run dates side by side"));
    m_caption->setTextFormat(Qt::PlainText);
    // the caption gives way (its whole in its tooltip) rather than widen the window
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->setAlternatingRowColors(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stack->addWidget(m_chart);
    m_stack->addWidget(m_table);
    buildBar();
    connect(&m_watcher, &QFutureWatcher<Answer>::finished, this, &HistoryPanel::finished);
    m_later.setSingleShot(true);
    m_later.setTimerType(Qt::PreciseTimer);
    connect(&m_later, &QTimer::timeout, this, &HistoryPanel::inputsChanged);
    describe();
}

HistoryPanel::~HistoryPanel()
{
    m_watcher.waitForFinished();
}

void HistoryPanel::buildBar()
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_mode);
    m_before->setToolTip(tr("The earlier run date: the ladder as of it"));
    m_after->setToolTip(tr("The later run date: the ladder as of it"));
    bar->addWidget(m_before);
    bar->addWidget(m_after);
    bar->addWidget(m_caption, 1);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) { setCompareMode(index == 1); });
    auto dayChosen = [this] {
        m_in.before = m_before->currentData().toInt();
        m_in.after = m_after->currentData().toInt();
        inputsChanged();
    };
    connect(m_before, &QComboBox::activated, this, dayChosen);
    connect(m_after, &QComboBox::activated, this, dayChosen);
    connect(m_export, &QPushButton::clicked, this, &HistoryPanel::exportRequested);
}

void HistoryPanel::setTimeline(std::shared_ptr<const ScopeTimeline> timeline, TputMetric metric)
{
    m_in.timeline = std::move(timeline);
    m_in.metric = metric;
    fillDays();
    inputsChanged();
}

void HistoryPanel::setAsOf(const std::string& day)
{
    const QDate d = QDate::fromString(QString::fromStdString(day), Qt::ISODate);
    m_chart->setAsOf(d.isValid() ? d.year() * 10000 + d.month() * 100 + d.day() : 0);
}

void HistoryPanel::showProblem(const QString& message)
{
    m_in.timeline.reset();
    m_shown.reset();
    m_history.clear();
    m_diff.clear();
    m_chart->showMessage(message);
    m_table->setRowCount(0);
    emit shown();
}

// The compared days stay those chosen while the scope has them; otherwise its first and its latest run date.
void HistoryPanel::fillDays()
{
    const std::vector<int> days = m_in.timeline ? m_in.timeline->days() : std::vector<int> {};
    const auto has = [&](int d) { return std::find(days.begin(), days.end(), d) != days.end(); };
    if (!has(m_in.before))
        m_in.before = days.empty() ? 0 : days.front();
    if (!has(m_in.after))
        m_in.after = days.empty() ? 0 : days.back();
    for (QComboBox* box : { m_before, m_after }) {
        box->clear();
        for (int d : days)
            box->addItem(dayLabel(d), d);
    }
    m_before->setCurrentIndex(m_before->findData(m_in.before));
    m_after->setCurrentIndex(m_after->findData(m_in.after));
}

void HistoryPanel::setTarget(double target)
{
    m_in.target = target;
    inputsChanged();
}

void HistoryPanel::setPrice(const PriceChoice& price)
{
    m_in.price = price;
    inputsChanged();
}

void HistoryPanel::setHideSparse(bool hide)
{
    m_in.hideSparse = hide;
    inputsChanged();
}

void HistoryPanel::setTargets(const std::vector<double>& targets)
{
    m_in.targets = targets;
    inputsChanged();
}

void HistoryPanel::setCompareMode(bool compare)
{
    m_in.compare = compare;
    m_mode->setCurrentIndex(compare ? 1 : 0);
    m_stack->setCurrentIndex(compare ? 1 : 0);
    inputsChanged();
}

bool HistoryPanel::compareMode() const
{
    return m_in.compare;
}

void HistoryPanel::setCompareDays(int before, int after)
{
    m_in.before = before;
    m_in.after = after;
    m_before->setCurrentIndex(m_before->findData(before));
    m_after->setCurrentIndex(m_after->findData(after));
    inputsChanged();
}

int HistoryPanel::beforeDay() const
{
    return m_in.before;
}

int HistoryPanel::afterDay() const
{
    return m_in.after;
}

void HistoryPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    inputsChanged();
}

// Starts a computation of the current inputs, unless the panel is hidden, what it shows is current already, or one
// runs (when it ends, finished() comes back here for the inputs of then).
void HistoryPanel::inputsChanged()
{
    describe();
    if (!isVisible() || !m_in.timeline || (m_shown && m_shown->relevant() == m_in.relevant()) || m_running)
        return;
    // a drag asks for a history at every step: one is started at most every kMinStartGapMs, the latest target's
    // (the readout and the chart follow every step; laying a history out and painting it took 3 to 5 ms of each)
    if (m_sinceStarted.isValid() && m_sinceStarted.elapsed() < kMinStartGapMs) {
        if (!m_later.isActive())
            m_later.start(int(kMinStartGapMs - m_sinceStarted.elapsed()));
        return;
    }
    m_sinceStarted.start();
    ++m_computations;
    m_running = true; // not the watcher's isRunning(): a future can end before finished() is delivered
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [in = m_in.relevant(), &pricing = m_pricing] {
        runBehindTheGui(); // the panel's own pool: a slider step's paint goes first
        return compute(in, pricing);
    }));
}

HistoryPanel::Inputs HistoryPanel::Inputs::relevant() const
{
    Inputs r = *this;
    if (compare) {
        r.target = 0;
    } else {
        r.targets.clear();
        r.before = r.after = 0;
    }
    return r;
}

HistoryPanel::Answer HistoryPanel::compute(const Inputs& in, const PricingCatalog& pricing)
{
    QElapsedTimer clock;
    clock.start();
    Answer a;
    a.inputs = in;
    if (in.compare) {
        LadderRequest req;
        req.scope = in.timeline->scope();
        req.targets = in.targets;
        req.metric = in.metric;
        req.hideSparse = in.hideSparse;
        req.price = in.price;
        a.diff = computeDiff(*in.timeline, pricing, req, in.before, in.after);
    } else {
        HistoryRequest req;
        req.scope = in.timeline->scope();
        req.target = in.target;
        req.metric = in.metric;
        req.price = in.price;
        req.hideSparse = in.hideSparse;
        a.history = computeHistory(*in.timeline, pricing, req);
    }
    a.ms = double(clock.nsecsElapsed()) / 1e6;
    return a;
}

void HistoryPanel::finished()
{
    m_running = false;
    const Answer answer = m_watcher.result();
    // an answer for the scope in view is shown even if the target moved on meanwhile (closer than what is on
    // screen); one for a scope no longer in view is dropped
    if (answer.inputs.timeline == m_in.timeline && answer.inputs.compare == m_in.compare)
        present(answer);
    inputsChanged();
}

void HistoryPanel::present(const Answer& answer)
{
    QElapsedTimer clock;
    clock.start();
    m_computeMs = answer.ms;
    m_shown = answer.inputs;
    const Inputs& in = answer.inputs;
    if (answer.history) {
        if (!*answer.history) {
            m_history.clear();
            m_chart->showMessage(QString::fromStdString(answer.history->error()));
        } else {
            m_history = **answer.history;
            m_chart->setHistory(m_history, in.target, in.metric);
        }
    } else if (answer.diff) {
        m_diff = *answer.diff ? **answer.diff : std::vector<HardwareDiff> {};
        presentDiff(m_diff);
    }
    m_presentMs = double(clock.nsecsElapsed()) / 1e6;
    emit shown();
}

void HistoryPanel::presentDiff(const std::vector<HardwareDiff>& diff)
{
    const QString before = dayLabel(m_shown->before), after = dayLabel(m_shown->after);
    m_table->clear();
    m_table->setColumnCount(7);
    // the change beside the two readings; the configurations after them
    m_table->setHorizontalHeaderLabels({ tr("Hardware"), tr("Target\n(tok/s/user)"),
        tr("As of %1\n(tok/s/GPU)").arg(before), tr("As of %1\n(tok/s/GPU)").arg(after), tr("Change"),
        tr("Configuration\n%1").arg(before), tr("Configuration\n%1").arg(after) });
    int rows = 0;
    for (const HardwareDiff& h : diff)
        rows += int(h.rows.size());
    m_table->setRowCount(rows);
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    int r = 0;
    for (const HardwareDiff& h : diff)
        for (const DiffRow& d : h.rows) {
            auto* hw = cell(hardwareName(h.hardware));
            hw->setIcon(swatch(h.hardware));
            m_table->setItem(r, 0, hw);
            m_table->setItem(r, 1, cell(number(d.before.entry.target), right));
            m_table->setItem(r, 2, cell(readingText(d.before), right));
            m_table->setItem(r, 3, cell(readingText(d.after), right));
            m_table->setItem(r, 4, cell(changeText(d), right));
            m_table->setItem(r, 5, cell(configText(d.before)));
            m_table->setItem(r, 6, cell(configText(d.after)));
            ++r;
        }
    m_table->resizeColumnsToContents();
}

// The line above the chart or the table: what is shown, and how to read it.
void HistoryPanel::describe()
{
    m_before->setVisible(m_in.compare);
    m_after->setVisible(m_in.compare);
    if (m_in.compare)
        m_caption->setText(tr("the ladder's targets as of two run dates, and the change"));
    else
        m_caption->setText(tr("at %1 tok/s/user · ringed: engine or precision changed").arg(number(m_in.target)));
    m_caption->setToolTip(m_in.compare ? m_caption->text()
                                       : tr("The reading at %1 tok/s/user as of each run date, a line per hardware. "
                                            "Each point has its engine's marker, as on the main chart; a ringed "
                                            "point, labelled with what changed, has another engine or precision "
                                            "than the date before.")
                                             .arg(number(m_in.target)));
}

Result<std::string> HistoryPanel::csv() const
{
    if (!m_shown)
        return Error { tr("The History tab has shown nothing yet: open it first.").toStdString() };
    if (m_shown->compare)
        return diffCsv(m_diff, dayText(m_shown->before), dayText(m_shown->after));
    return historyCsv(m_history);
}

} // namespace paretoscope::ui
