#include "widgets/session/sessionpanel.h"
#include "core/live/validity.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

QLabel* plain(QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setTextFormat(Qt::PlainText); // names come from servers and files: never rich text
    l->setWordWrap(true);
    return l;
}

QString ms(double seconds, int decimals)
{
    return seconds < 0 ? QStringLiteral("-")
                       : QLocale(QLocale::English).toString(seconds * 1000, 'f', decimals) + QStringLiteral(" ms");
}

} // namespace

SessionPanel::SessionPanel(QWidget* parent)
    : QWidget(parent)
    , m_title(plain(this))
    , m_status(plain(this))
    , m_bar(new QProgressBar(this))
    , m_live(plain(this))
    , m_levels(new QTableWidget(0, 8, this))
    , m_log(new QPlainTextEdit(this))
    , m_cancel(new QPushButton(tr("Cancel session"), this))
    , m_history(new QListWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* head = new QHBoxLayout;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setText(tr("No live session running. Session → New live session… (Ctrl+L) starts one."));
    head->addWidget(m_title, 1);
    head->addWidget(m_cancel);
    layout->addLayout(head);
    layout->addWidget(m_status);
    layout->addWidget(m_bar);
    layout->addWidget(m_live);
    m_levels->setHorizontalHeaderLabels({ tr("Level"), tr("Concurrency"), tr("tok/s/user"), tr("tok/s/GPU"),
        tr("TTFT (median)"), tr("TPOT (median)"), tr("Failed / power"), tr("Validity") });
    m_levels->verticalHeader()->hide();
    m_levels->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_levels->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_levels->horizontalHeader()->setStretchLastSection(true);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("The engine's log appears here when Paretoscope launched it."));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 0.9);
    m_log->setFont(mono);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_levels);
    split->addWidget(m_log);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    auto* past = plain(this);
    past->setText(tr("Sessions in this store"));
    layout->addWidget(past);
    m_history->setMaximumHeight(m_history->fontMetrics().height() * 3 + 8);
    layout->addWidget(m_history);
    m_bar->setVisible(false);
    m_log->setVisible(false); // only a launched engine has a log to show
    m_cancel->setEnabled(false);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_status->setText(tr("Cancelling: closing every stream and stopping the engine…"));
        emit cancelRequested();
    });
}

void SessionPanel::started(const QString& title)
{
    m_title->setText(title);
    m_status->setText(tr("Starting…"));
    m_levels->setRowCount(0);
    m_log->clear();
    m_log->setVisible(false);
    m_live->clear();
    m_bar->setVisible(true);
    m_bar->setRange(0, 0);
    m_cancel->setEnabled(true);
}

void SessionPanel::showNote(const QString& line)
{
    m_status->setText(line);
}

void SessionPanel::showProgress(const LiveLevel& l)
{
    QLocale en(QLocale::English);
    if (l.level < 0) {
        m_bar->setRange(0, 0);
        m_live->setText(tr("Waiting for the engine to be healthy: %1 s").arg(en.toString(l.elapsed, 'f', 0)));
        return;
    }
    if (l.warmupsLeft > 0) {
        m_bar->setRange(0, 0);
        m_live->setText(tr("Level %1, concurrency %2: warming up (%3 requests left, not counted)")
                            .arg(l.level + 1)
                            .arg(l.concurrency)
                            .arg(l.warmupsLeft));
        return;
    }
    m_bar->setRange(0, std::max(1, l.total));
    m_bar->setValue(l.finished);
    m_bar->setFormat(tr("level %1 · %v of %m requests").arg(l.level + 1));
    m_live->setText(tr("Concurrency %1 · TTFT %2 · TPOT %3 · %4 output tok/s · %5 failed · %6 s")
                        .arg(l.concurrency)
                        .arg(ms(l.medianTtft, 1), ms(l.medianTpot, 2), en.toString(l.outputTokensPerSecond, 'f', 0))
                        .arg(l.failed)
                        .arg(en.toString(l.elapsed, 'f', 1)));
}

void SessionPanel::addLevel(const StoredLevelLine& l)
{
    QLocale en(QLocale::English);
    int row = m_levels->rowCount();
    m_levels->insertRow(row);
    QStringList cells { QString::number(l.level + 1), QString::number(l.concurrency),
        en.toString(l.interactivity, 'f', 1), en.toString(l.tputPerGpu, 'f', 0), ms(l.medianTtft, 1),
        ms(l.medianTpot, 2),
        QString::number(l.failed)
            + (l.avgPowerW >= 0 ? tr(" · %1 W").arg(en.toString(l.avgPowerW, 'f', 0)) : QString()),
        l.validity.isEmpty() ? tr("ok") : l.validity };
    QString why;
    if (!l.reason.isEmpty())
        why += tr("Chosen: %1").arg(l.reason);
    for (const QString& flag : l.validity.split(u',', Qt::SkipEmptyParts))
        why += (why.isEmpty() ? QString() : QStringLiteral("\n"))
            + QString::fromStdString(flagDescription(flag.toStdString()));
    const bool standsOut = !l.marked.isEmpty() || !l.notStored.isEmpty() || !l.validity.isEmpty();
    if (!l.marked.isEmpty())
        why += (why.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Marked as not trusted: %1").arg(l.marked);
    if (!l.notStored.isEmpty())
        why += (why.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Not stored: %1").arg(l.notStored);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (standsOut) // a marked, flagged or unstored level stands out in its row, the reason in its tooltip
            item->setForeground(QColor(!l.notStored.isEmpty() ? 0xb0261b : 0x9a6700));
        if (!why.isEmpty())
            item->setToolTip(plainToolTip(why));
        m_levels->setItem(row, c, item);
    }
}

void SessionPanel::showLog(const QString& tail)
{
    m_log->setVisible(true);
    m_log->setPlainText(tail);
    m_log->moveCursor(QTextCursor::End);
}

void SessionPanel::ended(const QString& status, const QString& reason)
{
    m_bar->setVisible(false);
    m_cancel->setEnabled(false);
    QString text = status == QLatin1String("finished") ? tr("Finished: %n level(s) stored.", nullptr, storedLevels())
        : status == QLatin1String("cancelled") ? tr("Cancelled; %n finished level(s) kept.", nullptr, storedLevels())
        : status == QLatin1String("error")     ? tr("Could not start: %1").arg(reason)
                                               : tr("Failed; %n finished level(s) kept.", nullptr, storedLevels());
    if (status != QLatin1String("error") && !reason.isEmpty())
        text += QLatin1Char(' ') + reason;
    m_status->setText(text);
}

void SessionPanel::setSessions(const std::vector<SessionInfo>& sessions)
{
    m_history->clear();
    for (const SessionInfo& s : sessions) {
        QString hardware = QString::fromStdString(s.simulation.empty() ? s.config.hardware : s.simulation);
        QString line = tr("#%1 · %2 · %3 · %4 · %n level(s)", nullptr, s.levels)
                           .arg(s.id)
                           .arg(QDateTime::fromSecsSinceEpoch(s.startedAt).toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                               QString::fromStdString(s.status),
                               hardwareName(hardware.toStdString()) + QStringLiteral(" · ")
                                   + QString::fromStdString(s.config.model));
        if (!s.reason.empty())
            line += QStringLiteral(" · ") + QString::fromStdString(s.reason).section(u'\n', 0, 0);
        m_history->addItem(line); // a QListWidgetItem's text is plain
    }
}

int SessionPanel::storedLevels() const
{
    return m_levels->rowCount();
}

QString SessionPanel::statusText() const
{
    return m_status->text();
}

} // namespace paretoscope::ui
