// The window's import: dialogs for missing fields, progress and Cancel, the results.
#include "widgets/imports/importflow.h"

#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <map>
#include <optional>

#include "core/import/formats/recordmapper.h"
#include "core/import/importer.h"
#include "core/model/urls.h"
#include "widgets/imports/importdialogs.h"

namespace paretoscope::ui {

ImportFlow::ImportFlow(const QString& storePath, QWidget* window)
    : m_importer(storePath)
    , m_window(window)
{
    connect(&m_importer, &ImportController::progress, this, [this](const QString& source, qint64 done, qint64 total) {
        if (!m_progress)
            return;
        // a URL keeps its host and path in view (its credentials are gone already); a file its name
        m_progress->setLabelText(
            tr("Importing %1").arg(isUrl(source.toStdString()) ? source : QFileInfo(source).fileName()));
        m_progress->setMaximum(total > 0 ? 1000 : 0);
        if (total > 0)
            m_progress->setValue(int(done * 1000 / total));
    });
    connect(&m_importer, &ImportController::waiting, this, [this](const QString& message) {
        if (m_progress)
            m_progress->setLabelText(message);
    });
    connect(&m_importer, &ImportController::finished, this, [this](const QList<ImportResultLine>& results, qulonglong) {
        if (m_progress) {
            m_progress->reset();
            m_progress->deleteLater();
            m_progress = nullptr;
        }
        m_lastResults = results;
        if (m_showResults) {
            auto* dialog = new ImportResultsDialog(results, m_window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
        }
        emit finished();
    });
}

void ImportFlow::importPaths(const QStringList& paths)
{
    // a bench result does not say what it ran on: asked once per file, or once for every such file of a folder
    std::vector<ImportItem> items;
    std::vector<std::optional<Format>> formats;
    for (const QString& path : paths) {
        std::optional<Format> f;
        if (!isUrl(path.toStdString()) && QFileInfo(path).isFile())
            if (auto format = detectFileFormat(path.toStdString());
                format && (*format == Format::VllmBench || *format == Format::SglangBench))
                f = *format;
        formats.push_back(f);
    }
    ImportOptions remembered;
    std::map<std::pair<QString, int>, ImportOptions> forFolder; // (folder, format) -> the answers given once
    for (int i = 0; i < paths.size(); ++i) {
        const QString& path = paths[i];
        ImportItem item { path, {} };
        if (const auto format = formats[std::size_t(i)]) {
            const QString folder = QFileInfo(path).absolutePath();
            const auto key = std::make_pair(folder, int(*format));
            if (auto it = forFolder.find(key); it != forFolder.end()) {
                item.options = it->second;
                // the model each file names is its own
                if (const QString model = modelInFile(path); !model.isEmpty())
                    item.options.model = model.toStdString();
            } else {
                int rest = 0;
                for (int j = i + 1; j < paths.size(); ++j)
                    rest += formats[std::size_t(j)] == format && QFileInfo(paths[j]).absolutePath() == folder;
                CallerFieldsDialog dialog(path, QString::fromLatin1(formatName(*format).data()), m_window);
                dialog.setOptions(remembered);
                dialog.offerForRest(rest, folder);
                if (dialog.exec() != QDialog::Accepted)
                    continue;
                item.options = remembered = dialog.options();
                if (dialog.applyToRest())
                    forFolder[key] = item.options;
            }
        }
        items.push_back(std::move(item));
    }
    if (!items.empty())
        importItems(std::move(items));
}

void ImportFlow::importItems(std::vector<ImportItem> items)
{
    if (m_importer.busy()) {
        QMessageBox::information(m_window, tr("Import"), tr("An import is still running."));
        return;
    }
    m_progress = new QProgressDialog(tr("Importing…"), tr("Cancel"), 0, 0, m_window);
    auto* progressLabel = new QLabel(m_progress);
    progressLabel->setTextFormat(Qt::PlainText); // it names the file being read
    m_progress->setLabel(progressLabel);
    m_progress->setWindowTitle(tr("Import"));
    m_progress->setMinimumDuration(400);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    connect(m_progress, &QProgressDialog::canceled, this, [this] { m_importer.cancel(); });
    emit started();
    m_importer.start(std::move(items));
}

} // namespace paretoscope::ui
