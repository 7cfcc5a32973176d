// File → Update from InferenceX…: the sync's options, its requests' progress, Cancel, and what changed.
#include "widgets/imports/syncdialog.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "core/model/displaynames.h"
#include "core/model/runselection.h"
#include "core/model/urls.h"
#include "widgets/imports/synccontroller.h"

namespace paretoscope::ui {
namespace {

enum Column { ItemColumn, ProgressColumn, ReceivedColumn, ImportedColumn, NoteColumn };

QString number(double v)
{
    return QLocale(QLocale::English).toString(v, 'f', 0);
}

QStringList splitList(const QString& text)
{
    QStringList out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            out << part.trimmed();
    return out;
}

} // namespace

SyncDialog::SyncDialog(SyncController& controller, QWidget* parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("Update from InferenceX"));
    auto* form = new QFormLayout;
    m_source = new QLineEdit(this);
    m_source->setToolTip(tr("The API's root; any server with the same routes (a mirror, a local replay)"));
    form->addRow(tr("Source:"), m_source);
    m_models = new QLineEdit(this);
    m_models->setPlaceholderText(tr("every model (or names: DeepSeek-R1-0528, gpt-oss-120b, …)"));
    form->addRow(tr("Models:"), m_models);
    m_sequences = new QLineEdit(this);
    m_sequences->setPlaceholderText(tr("every sequence (or 1k/1k, 8k/1k, 1k/8k, agentic)"));
    form->addRow(tr("Sequences:"), m_sequences);
    m_history = new QRadioButton(tr("Every run (each model's history)"), this);
    m_latest = new QRadioButton(tr("The latest view only"), this);
    auto* runs = new QHBoxLayout;
    runs->addWidget(m_history);
    runs->addWidget(m_latest);
    runs->addStretch(1);
    form->addRow(tr("Runs:"), runs);
    m_evaluations = new QCheckBox(tr("Accuracy runs too (evaluations)"), this);
    form->addRow(QString(), m_evaluations);
    m_since = new QLineEdit(this);
    m_since->setPlaceholderText(tr("yyyy-mm-dd (empty: every date)"));
    m_since->setMaximumWidth(m_since->fontMetrics().horizontalAdvance(m_since->placeholderText()) * 3 / 2);
    form->addRow(tr("Runs since:"), m_since);
    m_jobs = new QSpinBox(this);
    m_jobs->setRange(1, 16);
    m_jobs->setMaximumWidth(m_jobs->fontMetrics().horizontalAdvance(QStringLiteral("0000")) * 3);
    form->addRow(tr("Requests at once:"), m_jobs);
    m_onStart = new QCheckBox(tr("Look for new data when Paretoscope starts"), this);
    form->addRow(QString(), m_onStart);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_overall = new QProgressBar(this);
    m_overall->setRange(0, 1);
    m_overall->setValue(0);
    m_overall->setFormat(tr("%v of %m requests"));
    m_overall->hide(); // until a sync says how many
    m_items = new QTreeWidget(this);
    m_items->setRootIsDecorated(false);
    m_items->setHeaderLabels({ tr("Model and sequence"), tr("Progress"), tr("Received"), tr("Imported"), tr("Note") });
    for (int c : { ItemColumn, ReceivedColumn, ImportedColumn })
        m_items->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_items->header()->setSectionResizeMode(NoteColumn, QHeaderView::Stretch);
    m_items->setColumnWidth(ProgressColumn, 140);
    m_summary = new QPlainTextEdit(this);
    m_summary->setReadOnly(true);
    m_summary->setPlaceholderText(tr("What the sync changed appears here."));

    auto* buttons = new QDialogButtonBox(this);
    m_sync = buttons->addButton(tr("&Sync"), QDialogButtonBox::AcceptRole);
    m_cancel = buttons->addButton(tr("Cancel sync"), QDialogButtonBox::RejectRole);
    m_close = buttons->addButton(QDialogButtonBox::Close);
    m_cancel->setEnabled(false);
    connect(m_sync, &QPushButton::clicked, this, [this] { startSync(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_controller.cancel();
        m_status->setText(tr("Cancelling: the import under way is rolled back, what was completed stays…"));
    });
    connect(m_close, &QPushButton::clicked, this, &QDialog::close);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_overall);
    layout->addWidget(m_items, 3);
    layout->addWidget(m_summary, 2);
    layout->addWidget(buttons);
    resize(860, 640);
    restore();

    connect(&m_controller, &SyncController::planned, this, &SyncDialog::onPlanned);
    connect(&m_controller, &SyncController::itemProgress, this, &SyncDialog::onItem);
    connect(&m_controller, &SyncController::finished, this, &SyncDialog::onFinished);
    connect(&m_controller, &SyncController::waiting, this, [this](const QString& m) { m_status->setText(m); });
    connect(&m_controller, &SyncController::failed, this, [this](const QString& error) {
        setRunning(false);
        m_status->setText(tr("The sync did not start: %1").arg(error));
    });
}

Result<SyncOptions> SyncDialog::options() const
{
    SyncOptions o;
    o.source = m_source->text().trimmed().toStdString();
    if (o.source.empty())
        return Error {
            tr("Source: give the API's root, e.g. %1").arg(QString::fromLatin1(kInferenceXApi)).toStdString()
        };
    for (const QString& m : splitList(m_models->text()))
        o.models.push_back(m.toStdString());
    for (const QString& s : splitList(m_sequences->text())) {
        auto seq = parseSyncSequence(s.toStdString());
        if (!seq)
            return Error { tr("Sequences: %1").arg(QString::fromStdString(seq.error())).toStdString() };
        o.sequences.push_back(*seq);
    }
    o.history = m_history->isChecked();
    o.evaluations = m_evaluations->isChecked();
    o.since = m_since->text().trimmed().toStdString();
    if (!o.since.empty() && dayNumber(o.since) == 0)
        return Error { tr("Runs since: '%1' is not a yyyy-mm-dd date").arg(m_since->text().trimmed()).toStdString() };
    o.jobs = m_jobs->value();
    return o;
}

bool SyncDialog::startSync()
{
    if (m_controller.busy()) {
        m_status->setText(tr("A sync is running already."));
        return false;
    }
    auto o = options();
    if (!o) {
        m_status->setText(QString::fromStdString(o.error()));
        return false;
    }
    keep();
    m_items->clear();
    m_summary->clear();
    m_itemsEnded = 0;
    m_status->setText(tr("Reading what %1 has…").arg(QString::fromStdString(redactUrl(o->source))));
    setRunning(true);
    m_controller.start(*o);
    return true;
}

void SyncDialog::onPlanned(const QStringList& items, const QStringList& upToDate, const QStringList& notes)
{
    m_overall->setRange(0, std::max<int>(1, int(items.size())));
    m_overall->setValue(0);
    m_overall->setVisible(!items.isEmpty());
    for (const QString& label : items) {
        auto* row = new QTreeWidgetItem(m_items, { label, QString(), QString(), QString(), tr("queued") });
        auto* bar = new QProgressBar(m_items);
        bar->setRange(0, 1);
        bar->setValue(0);
        bar->setTextVisible(false);
        m_items->setItemWidget(row, ProgressColumn, bar);
    }
    QString text = items.isEmpty() ? tr("Nothing new: every model and sequence asked is up to date.")
                                   : tr("%n request(s) to make", nullptr, int(items.size()));
    if (!items.isEmpty() && !upToDate.isEmpty())
        text += tr("; %n model(s) and sequence(s) up to date", nullptr, int(upToDate.size()));
    for (const QString& n : notes)
        text += QStringLiteral("\n") + tr("Note: %1").arg(n);
    m_status->setText(text);
}

void SyncDialog::onItem(int item, int stage, qint64 bytes, const QString& error)
{
    QTreeWidgetItem* row = m_items->topLevelItem(item);
    if (!row)
        return;
    auto* bar = qobject_cast<QProgressBar*>(m_items->itemWidget(row, ProgressColumn));
    row->setText(ReceivedColumn, bytes > 0 ? tr("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 1) : QString());
    switch (static_cast<SyncStage>(stage)) {
    case SyncStage::Fetching:
        row->setText(NoteColumn, tr("downloading"));
        if (bar)
            bar->setRange(0, 0); // busy: the answers do not say their length beforehand
        break;
    case SyncStage::Importing:
        row->setText(NoteColumn, tr("importing"));
        break;
    case SyncStage::Done:
    case SyncStage::Skipped:
        row->setText(NoteColumn, tr("done"));
        if (bar) {
            bar->setRange(0, 1);
            bar->setValue(1);
        }
        m_overall->setValue(++m_itemsEnded);
        break;
    case SyncStage::Failed:
        row->setText(NoteColumn, error);
        row->setToolTip(NoteColumn, error);
        row->setForeground(NoteColumn, QColor(180, 30, 30));
        if (bar) {
            bar->setRange(0, 1);
            bar->setValue(0);
        }
        m_overall->setValue(++m_itemsEnded);
        break;
    }
}

void SyncDialog::onFinished()
{
    setRunning(false);
    const auto& report = m_controller.lastReport();
    if (!report)
        return;
    QLocale en(QLocale::English);
    for (int i = 0; i < int(report->items.size()); ++i)
        if (QTreeWidgetItem* row = m_items->topLevelItem(i)) {
            const SyncItemResult& r = report->items[std::size_t(i)];
            if (r.error.empty())
                row->setText(ImportedColumn,
                    tr("%1 new, %2 stored before")
                        .arg(en.toString(qulonglong(r.imported)),
                            en.toString(qulonglong(r.duplicates) + qulonglong(r.skipped))));
        }
    for (int i = int(report->items.size()); i < m_items->topLevelItemCount(); ++i)
        m_items->topLevelItem(i)->setText(NoteColumn, tr("not fetched: cancelled"));
    m_summary->setPlainText(describeSyncReport(*report));
    m_status->setText(report->cancelled ? tr("Cancelled: what was completed is kept; the next sync goes on from there.")
            : report->failed() > 0
            ? tr("%n request(s) failed: the next sync fetches them again.", nullptr, int(report->failed()))
            : tr("Done."));
    std::uint64_t added = report->changes.newEvaluations;
    for (const auto& [model, n] : report->changes.newRuns)
        added += n;
    if (added > 0)
        emit storeChanged();
}

void SyncDialog::setRunning(bool running)
{
    m_sync->setEnabled(!running);
    m_cancel->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*> {
             m_source, m_models, m_sequences, m_history, m_latest, m_evaluations, m_since, m_jobs })
        w->setEnabled(!running);
}

void SyncDialog::closeEvent(QCloseEvent* event)
{
    keep();
    QDialog::closeEvent(event); // a sync under way goes on; reopening shows it again
}

void SyncDialog::keep() const
{
    QSettings s;
    s.beginGroup(QStringLiteral("sync"));
    s.setValue(QStringLiteral("source"), m_source->text().trimmed());
    s.setValue(QStringLiteral("models"), m_models->text().trimmed());
    s.setValue(QStringLiteral("sequences"), m_sequences->text().trimmed());
    s.setValue(QStringLiteral("history"), m_history->isChecked());
    s.setValue(QStringLiteral("evaluations"), m_evaluations->isChecked());
    s.setValue(QStringLiteral("since"), m_since->text().trimmed());
    s.setValue(QStringLiteral("jobs"), m_jobs->value());
    s.setValue(QStringLiteral("checkOnStart"), m_onStart->isChecked());
}

void SyncDialog::restore()
{
    QSettings s;
    s.beginGroup(QStringLiteral("sync"));
    m_source->setText(s.value(QStringLiteral("source"), QString::fromLatin1(kInferenceXApi)).toString());
    m_models->setText(s.value(QStringLiteral("models")).toString());
    m_sequences->setText(s.value(QStringLiteral("sequences")).toString());
    (s.value(QStringLiteral("history"), true).toBool() ? m_history : m_latest)->setChecked(true);
    m_evaluations->setChecked(s.value(QStringLiteral("evaluations"), true).toBool());
    m_since->setText(s.value(QStringLiteral("since")).toString());
    m_jobs->setValue(s.value(QStringLiteral("jobs"), 4).toInt());
    m_onStart->setChecked(s.value(QStringLiteral("checkOnStart"), false).toBool());
}

bool SyncDialog::checkOnStart()
{
    return QSettings().value(QStringLiteral("sync/checkOnStart"), false).toBool();
}

SyncOptions SyncDialog::keptOptions()
{
    QSettings s;
    s.beginGroup(QStringLiteral("sync"));
    SyncOptions o;
    o.source = s.value(QStringLiteral("source"), QString::fromLatin1(kInferenceXApi)).toString().toStdString();
    for (const QString& m : splitList(s.value(QStringLiteral("models")).toString()))
        o.models.push_back(m.toStdString());
    for (const QString& q : splitList(s.value(QStringLiteral("sequences")).toString()))
        if (auto seq = parseSyncSequence(q.toStdString()))
            o.sequences.push_back(*seq);
    o.history = s.value(QStringLiteral("history"), true).toBool();
    o.evaluations = false; // the check asks only for the list
    return o;
}

QString SyncDialog::summaryText() const
{
    return m_summary->toPlainText();
}

QString SyncDialog::statusText() const
{
    return m_status->text();
}

QString describeSyncReport(const SyncReport& report)
{
    QLocale en(QLocale::English);
    QStringList lines;
    std::uint64_t total = 0;
    QStringList perModel;
    for (const auto& [model, n] : report.changes.newRuns) {
        total += n;
        perModel << QStringLiteral("%1 %2").arg(QString::fromStdString(model), en.toString(qulonglong(n)));
    }
    lines << QObject::tr("%1 new runs (%2).")
                 .arg(en.toString(qulonglong(total)),
                     perModel.isEmpty() ? QObject::tr("none") : perModel.join(QStringLiteral(", ")));
    if (report.changes.newEvaluations > 0)
        lines << QObject::tr("%1 new accuracy runs.").arg(en.toString(qulonglong(report.changes.newEvaluations)));
    if (!report.upToDate.empty())
        lines << QObject::tr("%1 models and sequences were up to date.").arg(report.upToDate.size());
    // groups new to the store counted per model and sequence; those with a newer run than before listed
    std::map<QString, int> fresh;
    QStringList moved;
    for (const LineChange& l : report.changes.lines) {
        const QString scope = QString::fromStdString(l.model + " " + l.sequence);
        if (l.before.empty())
            ++fresh[scope];
        else
            moved << QStringLiteral("  %1, %2: %3 → %4")
                         .arg(scope, QString::fromStdString(l.group), QString::fromStdString(l.before),
                             QString::fromStdString(l.after));
    }
    if (!fresh.empty()) {
        QStringList parts;
        for (const auto& [scope, n] : fresh)
            parts << QStringLiteral("%1 %2").arg(scope).arg(n);
        lines << QObject::tr("New groups (hardware, engine, precision, spec decoding): %1.")
                     .arg(parts.join(QStringLiteral(", ")));
    }
    if (!moved.isEmpty())
        lines << QString() << QObject::tr("Groups with a newer run (%1):").arg(moved.size()) << moved;
    if (!report.changes.readings.empty()) {
        lines
            << QString()
            << QObject::tr("Readings that moved by more than 5%, tok/s/GPU (%1):").arg(report.changes.readings.size());
        for (const ReadingChange& c : report.changes.readings) {
            QString change;
            if (c.before && c.after)
                change = QStringLiteral("%1 → %2 (%3%4%)")
                             .arg(number(*c.before), number(*c.after),
                                 *c.after > *c.before ? QStringLiteral("+") : QString())
                             .arg(std::lround(100.0 * (*c.after - *c.before) / *c.before));
            else if (c.after)
                change = QObject::tr("new: %1").arg(number(*c.after));
            else
                change = QObject::tr("gone (was %1)").arg(number(*c.before));
            QString group = QString::fromStdString(c.groupAfter.empty() ? c.groupBefore : c.groupAfter);
            if (!c.groupBefore.empty() && !c.groupAfter.empty() && c.groupBefore != c.groupAfter)
                group = QStringLiteral("%1 → %2").arg(
                    QString::fromStdString(c.groupBefore), QString::fromStdString(c.groupAfter));
            lines << QStringLiteral("  %1 %2, %3 at %4 tok/s/user: %5  [%6]")
                         .arg(QString::fromStdString(c.model), QString::fromStdString(c.sequence),
                             QString::fromStdString(hardwareDisplayName(c.hardware)), number(c.target), change, group);
        }
    }
    if (report.failed() > 0) {
        lines << QString() << QObject::tr("Failed (fetched again by the next sync):");
        for (const SyncItemResult& r : report.items)
            if (!r.error.empty())
                lines << QStringLiteral("  ") + QString::fromStdString(r.error);
    }
    for (const std::string& n : report.notes)
        lines << QObject::tr("Note: %1").arg(QString::fromStdString(n));
    return lines.join(QLatin1Char('\n'));
}

} // namespace paretoscope::ui
