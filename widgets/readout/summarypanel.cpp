#include "widgets/readout/summarypanel.h"

#include "widgets/common/displaynames.h"

#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTextBrowser>

namespace paretoscope::ui {

SummaryPanel::SummaryPanel(QWidget* parent)
    : QWidget(parent)
    , m_view(new QTextBrowser(this))
{
    m_view->setOpenLinks(false);
    auto* copy = new QPushButton(tr("Copy as Markdown"), this);
    auto* save = new QPushButton(tr("Save as Markdown…"), this);
    auto* bar = new QHBoxLayout;
    bar->addStretch();
    bar->addWidget(copy);
    bar->addWidget(save);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view, 1);
    layout->addLayout(bar);
    connect(copy, &QPushButton::clicked, this, &SummaryPanel::copy);
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save summary"), QStringLiteral("summary.md"), tr("Markdown (*.md)"));
        if (path.isEmpty())
            return;
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(m_markdown.toUtf8()) < 0 || !f.commit())
            plainMessage(this, false, tr("Save summary"), tr("Cannot write %1: %2").arg(path, f.errorString()));
    });
}

void SummaryPanel::setReport(const Result<SummaryReport>& report)
{
    m_markdown = report ? QString::fromStdString(summaryMarkdown(*report)) : QString::fromStdString(report.error());
    m_stale = true;
    if (isVisible())
        render();
}

void SummaryPanel::showEvent(QShowEvent* event)
{
    if (m_stale)
        render();
    QWidget::showEvent(event);
}

void SummaryPanel::render()
{
    m_stale = false;
    // GitHub tables, but no HTML: a model named <img src=...> stays those characters
    QTextDocument::MarkdownFeatures features(QTextDocument::MarkdownDialectGitHub);
    features |= QTextDocument::MarkdownNoHTML;
    m_view->document()->setMarkdown(m_markdown, features);
}

void SummaryPanel::copy() const
{
    QGuiApplication::clipboard()->setText(m_markdown);
}

} // namespace paretoscope::ui
