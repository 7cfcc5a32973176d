#include "widgets/filters/filterpanel.h"

#include "core/model/modelnames.h"

#include <QLocale>

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "core/analysis/scopehint.h"
#include "core/model/modelnames.h"
#include "core/model/precision.h"
#include "widgets/common/displaynames.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/filters/slolimits.h"

namespace paretoscope::ui {

namespace {
const char* kListNames[] = { "hardware", "engine", "precision", "spec" };

QString scopeText(const ScopeSummary& s)
{
    QString lengths = s.isl > 0 ? QStringLiteral("ISL %1 / OSL %2").arg(s.isl).arg(s.osl) : QString();
    const QString what = lengths.isEmpty() ? QString::fromStdString(s.workload) : lengths;
    return QStringLiteral("%1 · %2 (%3 runs)")
        .arg(QString::fromStdString(modelLabel(s.model)), what, QLocale(QLocale::English).toString(s.runs));
}
} // namespace

FilterPanel::FilterPanel(QWidget* parent)
    : QWidget(parent)
    , m_scope(new QComboBox(this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_includeMarked(new QCheckBox(tr("Include marked runs"), this))
    , m_limits(new SloLimits(this))
    , m_accuracy(new AccuracyControl(this))
    , m_excludeFlagged(new QCheckBox(tr("Drop flagged runs"), this))
    , m_allGpus(new QCheckBox(tr("Per all GPUs"), this))
    , m_runDates(new RunDatesControl(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 4, 6); // the sidebar is narrow: its room goes to the lists and boxes
    layout->addWidget(new QLabel(tr("Model and workload"), this));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // the box fits the column and elides; its list opens as wide as its longest entry, and the tooltip says it all
    m_scope->setMinimumContentsLength(12);
    layout->addWidget(m_scope);
    const QString titles[] = { tr("Hardware"), tr("Engine"), tr("Precision"), tr("Speculative decoding") };
    for (int i = 0; i < 4; ++i) {
        auto* l = new QListWidget(this);
        l->setMaximumHeight(i == 0 ? 150 : 96);
        layout->addWidget(new QLabel(titles[i], this));
        layout->addWidget(l, i == 0 ? 2 : 1);
        m_lists[static_cast<std::size_t>(i)] = l;
        connect(l, &QListWidget::itemChanged, this, [this, i](QListWidgetItem* item) {
            const QString key = QString::fromLatin1(kListNames[i]) + u':' + item->data(Qt::UserRole).toString();
            unchecked().removeAll(key);
            if (item->checkState() == Qt::Unchecked)
                unchecked() << key;
            emit filtersChanged();
        });
    }
    auto* dates = new QFormLayout;
    auto* validator = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{4}-\\d{2}-\\d{2}")), this);
    for (QLineEdit* e : { m_from, m_to }) {
        e->setPlaceholderText(tr("yyyy-mm-dd (any)"));
        e->setValidator(validator);
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::editingFinished, this, &FilterPanel::filtersChanged);
        connect(e, &QLineEdit::textChanged, this, [this](const QString& t) {
            if (t.isEmpty())
                emit filtersChanged();
        });
    }
    dates->addRow(tr("Runs from"), m_from);
    dates->addRow(tr("to"), m_to);
    layout->addLayout(dates);
    layout->addWidget(new QLabel(tr("Service-level limits"), this));
    layout->addWidget(m_limits);
    connect(m_limits, &SloLimits::changed, this, &FilterPanel::filtersChanged);
    layout->addWidget(new QLabel(tr("Accuracy"), this));
    layout->addWidget(m_accuracy);
    connect(m_accuracy, &AccuracyControl::changed, this, &FilterPanel::filtersChanged);
    layout->addWidget(m_runDates);
    connect(m_runDates, &RunDatesControl::runsChanged, this, &FilterPanel::filtersChanged);
    connect(m_runDates, &RunDatesControl::asOfChanged, this, &FilterPanel::asOfChanged);
    m_includeMarked->setToolTip(tr("A live level with more than 5% of its requests failed, or with a request cut by a "
                                   "timeout, is marked: drawn as a hollow ring and left out of frontiers and readings "
                                   "unless this is checked."));
    connect(m_includeMarked, &QCheckBox::toggled, this, &FilterPanel::filtersChanged);
    layout->addWidget(m_includeMarked);
    m_excludeFlagged->setToolTip(tr("A live level carries validity flags when its numbers may mislead (client-bound, "
                                    "low effective concurrency, prefix-cache hits, prompt tokens miscounted, failed "
                                    "requests, telemetry gaps): checked, such runs are left out altogether."));
    connect(m_excludeFlagged, &QCheckBox::toggled, this, &FilterPanel::filtersChanged);
    layout->addWidget(m_excludeFlagged);
    m_allGpus->setToolTip(tr("Disaggregated runs: unchecked, output tokens per decode GPU and input tokens per prefill "
                             "GPU, as the InferenceX site shows them; checked, every metric per all the deployment's "
                             "GPUs (paretoscope-cli --basis all). Total tokens are per all GPUs either way."));
    connect(m_allGpus, &QCheckBox::toggled, this, &FilterPanel::filtersChanged);
    layout->addWidget(m_allGpus);
    layout->addStretch();
    // the boxes shrink with the sidebar (their text whole in the list that drops down and in the tooltip), so that
    // the column never scrolls sideways and the notes wrap in its width
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(std::min(box->minimumContentsLength(), 6));
    }
    for (QLabel* label : findChildren<QLabel*>())
        label->setWordWrap(true);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &FilterPanel::baseScopeChanged);
    connect(m_scope, &QComboBox::currentIndexChanged, this,
        [this] { m_scope->setToolTip(m_scope->currentData(Qt::ToolTipRole).toString()); });
}

void FilterPanel::setScopes(const std::vector<ScopeSummary>& scopes)
{
    const QString keep = scopeKey();
    m_scopes = scopes;
    const QSignalBlocker block(m_scope);
    m_scope->clear();
    for (std::size_t i = 0; i < scopes.size(); ++i) {
        m_scope->addItem(scopeText(scopes[i]), int(i));
        m_scope->setItemData(int(i), plainToolTip(scopeText(scopes[i])), Qt::ToolTipRole);
    }
    for (int i = 0; i < m_scope->count(); ++i) {
        const auto& s = m_scopes[static_cast<std::size_t>(i)];
        if (QString::fromStdString(s.model + '\x1f' + s.workload) + QStringLiteral("\x1f%1/%2").arg(s.isl).arg(s.osl)
            == keep)
            m_scope->setCurrentIndex(i);
    }
    m_scope->view()->setMinimumWidth(m_scope->view()->sizeHintForColumn(0) + 24);
    m_scope->setToolTip(m_scope->currentData(Qt::ToolTipRole).toString());
}

QString FilterPanel::selectedScopeText() const
{
    return m_scope->currentText();
}

QString FilterPanel::scopeKey() const
{
    const int i = m_scope->currentIndex();
    if (i < 0 || i >= static_cast<int>(m_scopes.size()))
        return {};
    const auto& s = m_scopes[static_cast<std::size_t>(i)];
    return QString::fromStdString(s.model + '\x1f' + s.workload) + QStringLiteral("\x1f%1/%2").arg(s.isl).arg(s.osl);
}

bool FilterPanel::selectScope(const QString& given, const QString& workload, int isl, int osl)
{
    // the model as stored, or the InferenceX site's name of one stored key (a view says DeepSeek-R1-0528 for dsr1)
    std::vector<std::string> models;
    models.reserve(m_scopes.size());
    for (const auto& s : m_scopes)
        models.push_back(s.model);
    const QString model = QString::fromStdString(resolveModelName(given.toStdString(), models).model);
    for (std::size_t i = 0; i < m_scopes.size(); ++i) {
        const auto& s = m_scopes[i];
        if (QString::fromStdString(s.model) == model
            && (workload.isEmpty() || QString::fromStdString(s.workload) == workload)
            && (isl == 0 || (s.isl == isl && s.osl == osl))) {
            m_scope->setCurrentIndex(int(i));
            return true;
        }
    }
    return false;
}

QStringList& FilterPanel::unchecked()
{
    return m_unchecked[scopeKey()];
}

void FilterPanel::setSeries(const std::vector<Series>& series)
{
    m_series = series;
    std::array<std::set<std::string>, 4> values;
    for (const Series& s : series) {
        values[0].insert(s.key.hardware);
        values[1].insert(s.key.engine);
        values[2].insert(s.key.precision);
        values[3].insert(s.key.specDecoding);
    }
    // one precision per view by default when there are several (core's defaultViewPrecision), until the user picks
    const QString precisionKey = QStringLiteral("precision:");
    QStringList& off = unchecked();
    const bool anyPrecisionChoice
        = std::any_of(off.begin(), off.end(), [&](const QString& u) { return u.startsWith(precisionKey); });
    if (const auto keep = defaultViewPrecision(values[2]); keep && !anyPrecisionChoice) {
        for (const auto& p : values[2])
            if (p != *keep)
                off << precisionKey + QString::fromStdString(p);
    }
    for (int i = 0; i < 4; ++i) {
        QListWidget* l = list(i);
        const QSignalBlocker block(l);
        l->clear();
        for (const std::string& v : values[static_cast<std::size_t>(i)]) {
            QString label = i == 0 ? hardwareName(v)
                : i == 1           ? engineName(v)
                : i == 2           ? precisionName(v)
                                   : QString::fromStdString(v);
            auto* item = new QListWidgetItem(label, l);
            item->setData(Qt::UserRole, QString::fromStdString(v));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            const QString key = QString::fromLatin1(kListNames[i]) + u':' + QString::fromStdString(v);
            item->setCheckState(off.contains(key) ? Qt::Unchecked : Qt::Checked);
        }
    }
}

Scope FilterPanel::baseScope() const
{
    Scope s;
    const int i = m_scope->currentIndex();
    if (i < 0 || i >= static_cast<int>(m_scopes.size()))
        return s;
    const auto& sum = m_scopes[static_cast<std::size_t>(i)];
    s.model = sum.model;
    s.workload = sum.workload;
    if (sum.isl > 0 && sum.osl > 0) {
        s.isl = sum.isl;
        s.osl = sum.osl;
    }
    return s;
}

Scope FilterPanel::scope() const
{
    Scope s = baseScope();
    std::array<std::vector<std::string>*, 4> into { &s.hardware, &s.engines, &s.precisions, &s.specDecoding };
    for (int i = 0; i < 4; ++i) {
        QListWidget* l = list(i);
        bool all = true;
        std::vector<std::string> checked;
        for (int r = 0; r < l->count(); ++r) {
            if (l->item(r)->checkState() == Qt::Checked)
                checked.push_back(l->item(r)->data(Qt::UserRole).toString().toStdString());
            else
                all = false;
        }
        // an empty filter means "all"; with everything unchecked nothing matches
        if (!all && checked.empty())
            s.matchesNothing = true;
        else if (!all)
            *into[static_cast<std::size_t>(i)] = checked;
    }
    keepHardwareWithRuns(s);
    if (m_from->hasAcceptableInput())
        s.dateFrom = m_from->text().toStdString();
    if (m_to->hasAcceptableInput())
        s.dateTo = m_to->text().toStdString();
    s.includeMarked = m_includeMarked->isChecked();
    m_limits->applyTo(s);
    s.excludeFlagged = m_excludeFlagged->isChecked();
    s.basis = m_allGpus->isChecked() ? TputBasis::AllGpus : TputBasis::Serving;
    s.runs = m_runDates->runs();
    s.asOf = m_runDates->asOf();
    return s;
}

void FilterPanel::setUncheckedByScope(const QVariantMap& values)
{
    m_unchecked.clear();
    for (auto it = values.begin(); it != values.end(); ++it)
        m_unchecked.insert(it.key(), it.value().toStringList());
}

QVariantMap FilterPanel::uncheckedByScope() const
{
    QVariantMap out;
    for (auto it = m_unchecked.begin(); it != m_unchecked.end(); ++it)
        if (!it.value().isEmpty())
            out.insert(it.key(), it.value());
    return out;
}

namespace {

// The value of a series in one of the four lists.
const std::string& valueOf(const Series& s, int list)
{
    return list == 0 ? s.key.hardware : list == 1 ? s.key.engine : list == 2 ? s.key.precision : s.key.specDecoding;
}

QString valueLabel(int list, const std::string& v)
{
    return list == 0 ? hardwareName(v)
        : list == 1  ? engineName(v)
        : list == 2  ? precisionName(v)
                     : QString::fromStdString(v);
}

} // namespace

void FilterPanel::keepHardwareWithRuns(Scope& s) const
{
    // the hardware named are those ticked whose runs the other filters keep: a ticked hardware whose runs another
    // filter hides all of (FP8 only, with FP4 chosen) read "no runs" in the readout, the ladder and the plan, and in
    // the CLI's answer to a copied view, as soon as another hardware was unticked
    if (s.hardware.empty() || s.matchesNothing || m_series.empty())
        return;
    const auto kept = [](const std::vector<std::string>& chosen, const std::string& value) {
        return chosen.empty() || std::find(chosen.begin(), chosen.end(), value) != chosen.end();
    };
    std::vector<std::string> withRuns;
    for (const std::string& hw : s.hardware)
        if (std::any_of(m_series.begin(), m_series.end(), [&](const Series& x) {
                return valueOf(x, 0) == hw && kept(s.engines, valueOf(x, 1)) && kept(s.precisions, valueOf(x, 2))
                    && kept(s.specDecoding, valueOf(x, 3));
            }))
            withRuns.push_back(hw);
    s.hardware = std::move(withRuns);
    s.matchesNothing = s.hardware.empty(); // ticked hardware, none with runs the other filters keep
}

long long FilterPanel::runsBeforeFilters() const
{
    long long n = 0;
    for (const Series& s : m_series)
        n += s.runs;
    return n;
}

long long FilterPanel::runsAfterFilters() const
{
    const QStringList off = m_unchecked.value(scopeKey());
    long long n = 0;
    for (const Series& s : m_series) {
        bool shown = true;
        for (int i = 0; i < 4; ++i)
            shown = shown
                && !off.contains(QString::fromLatin1(kListNames[i]) + u':' + QString::fromStdString(valueOf(s, i)));
        n += shown ? s.runs : 0;
    }
    return n;
}

QString FilterPanel::hiddenByFilters() const
{
    static const char* titles[] = { "Hardware", "Engine", "Precision", "Speculative decoding" };
    const QStringList off = m_unchecked.value(scopeKey());
    QLocale en(QLocale::English);
    QStringList parts;
    for (int i = 0; i < 4; ++i) {
        std::map<std::string, long long> hidden;
        for (const Series& s : m_series)
            if (off.contains(QString::fromLatin1(kListNames[i]) + u':' + QString::fromStdString(valueOf(s, i))))
                hidden[valueOf(s, i)] += s.runs;
        for (const auto& [value, runs] : hidden)
            parts << (runs == 1
                    ? tr("%1 %2 hides 1 run").arg(tr(titles[i]), valueLabel(i, value))
                    : tr("%1 %2 hides %3 runs").arg(tr(titles[i]), valueLabel(i, value), en.toString(runs)));
    }
    if (!m_from->text().isEmpty() || !m_to->text().isEmpty())
        parts << tr("only runs dated %1 to %2 are shown")
                     .arg(m_from->text().isEmpty() ? tr("any day") : m_from->text(),
                         m_to->text().isEmpty() ? tr("today") : m_to->text());
    Scope limited;
    m_limits->applyTo(limited);
    if (const std::string limits = limitsText(limited); !limits.empty())
        parts << tr("only runs within %1 count").arg(QString::fromStdString(limits));
    if (parts.isEmpty() && !m_includeMarked->isChecked())
        parts << tr("the runs left are marked as not trusted (Include marked runs shows them)");
    return parts.join(QStringLiteral("; "));
}

void FilterPanel::setFilters(const Scope& scope)
{
    const std::array<const std::vector<std::string>*, 4> wanted { &scope.hardware, &scope.engines, &scope.precisions,
        &scope.specDecoding };
    // the entry with no value records that precisions were chosen: the one-precision default stays away
    QStringList off { QStringLiteral("precision:") };
    for (int i = 0; i < 4; ++i) {
        const auto& values = *wanted[static_cast<std::size_t>(i)];
        QListWidget* l = list(i);
        const QSignalBlocker block(l);
        for (int r = 0; r < l->count(); ++r) {
            const std::string v = l->item(r)->data(Qt::UserRole).toString().toStdString();
            const bool on = values.empty() || std::find(values.begin(), values.end(), v) != values.end();
            l->item(r)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            if (!on)
                off << QString::fromLatin1(kListNames[i]) + u':' + QString::fromStdString(v);
        }
    }
    unchecked() = off;
    const QSignalBlocker b1(m_from), b2(m_to), b3(m_includeMarked), b4(m_excludeFlagged), b5(m_allGpus);
    m_allGpus->setChecked(scope.basis == TputBasis::AllGpus);
    m_from->setText(QString::fromStdString(scope.dateFrom));
    m_to->setText(QString::fromStdString(scope.dateTo));
    m_includeMarked->setChecked(scope.includeMarked);
    m_limits->setFrom(scope);
    m_excludeFlagged->setChecked(scope.excludeFlagged);
}

void FilterPanel::resetFilters()
{
    // every precision on, as asked: the entry with no value records the choice, so that the one-precision default
    // does not come back
    unchecked() = QStringList { QStringLiteral("precision:") };
    for (int i = 0; i < 4; ++i) {
        QListWidget* l = list(i);
        const QSignalBlocker block(l);
        for (int r = 0; r < l->count(); ++r)
            l->item(r)->setCheckState(Qt::Checked);
    }
    {
        const QSignalBlocker b1(m_from), b2(m_to);
        m_from->clear();
        m_to->clear();
    }
    m_limits->clear();
    m_runDates->play(false);
    {
        const QSignalBlocker b(m_runDates);
        m_runDates->setAsOf({});
    }
    emit filtersChanged();
}

void FilterPanel::setIncludeMarked(bool include)
{
    const QSignalBlocker block(m_includeMarked);
    m_includeMarked->setChecked(include);
}

bool FilterPanel::includeMarked() const
{
    return m_includeMarked->isChecked();
}

void FilterPanel::setDates(const QString& from, const QString& to)
{
    m_from->setText(from);
    m_to->setText(to);
}

} // namespace paretoscope::ui
