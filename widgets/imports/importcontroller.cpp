#include "widgets/imports/importcontroller.h"

#include <QLocale>

#include "core/model/urls.h"

namespace paretoscope::ui {

ImportController::ImportController(QString storePath, QObject* parent)
    : WriterController(std::move(storePath), QStringLiteral("importer"), Share::BehindTheGui, parent)
{
}

ImportController::~ImportController()
{
    stop();
}

void ImportController::start(std::vector<ImportItem> items)
{
    runJob([this, items = std::move(items)]() -> std::function<void()> {
        QList<ImportResultLine> results;
        qulonglong imported = 0;
        // waits behind another writer, saying so, until that one is done or Cancel is pressed
        if (auto store = openForWriting())
            results = importAll(**store, items, imported);
        else
            results.push_back({ storePath(), false, QString::fromStdString(store.error()), {} });
        return [this, results, imported] { emit finished(results, imported); };
    });
}

QList<ImportResultLine> ImportController::importAll(
    RunStore& store, const std::vector<ImportItem>& items, qulonglong& imported)
{
    QList<ImportResultLine> results;
    QLocale en(QLocale::English);
    for (const ImportItem& item : items) {
        const QString current = QString::fromStdString(redactUrl(item.pathOrUrl.toStdString()));
        // progress at most every few MB keeps the queue to the GUI short
        qint64 last = -1;
        auto onProgress = [&](std::uint64_t done, std::uint64_t total) {
            if (last < 0 || qint64(done) - last > (4 << 20) || done == total) {
                last = qint64(done);
                toGui([this, current, done, total] { emit progress(current, qint64(done), qint64(total)); });
            }
            return !cancelled();
        };
        for (ImportOutcome& o : importPath(store, item.pathOrUrl.toStdString(), item.options, onProgress)) {
            ImportResultLine line;
            line.source = QString::fromStdString(o.source);
            line.ok = o.result.ok();
            if (line.ok) {
                imported += o.result->imported;
                const std::uint64_t n = o.result->imported;
                const QString format = QString::fromStdString(o.result->format),
                              duplicates = en.toString(qulonglong(o.result->duplicates));
                if (o.result->evaluations) // accuracy runs, stored beside the runs
                    line.message = n == 1 ? tr("1 evaluation imported (%1), %2 already stored").arg(format, duplicates)
                                          : tr("%1 evaluations imported (%2), %3 already stored")
                                                .arg(en.toString(qulonglong(n)), format, duplicates);
                else
                    line.message = n == 1 ? tr("1 run imported (%1), %2 already stored").arg(format, duplicates)
                                          : tr("%1 runs imported (%2), %3 already stored")
                                                .arg(en.toString(qulonglong(n)), format, duplicates);
                // what was kept or left out without refusing the file, said in full
                for (const std::string& note : o.result->notes)
                    line.notes << QString::fromStdString(note);
            } else {
                line.message = QString::fromStdString(o.result.error());
            }
            results.push_back(line);
        }
        if (cancelled())
            break;
    }
    return results;
}

} // namespace paretoscope::ui
