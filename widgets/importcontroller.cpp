#include "importcontroller.h"

#include <QLocale>
#include <QMetaObject>

#include "core/model/urls.h"

namespace paretoscope::ui {

ImportController::ImportController(QString storePath, QObject* parent)
    : QObject(parent)
    , m_path(std::move(storePath))
    , m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("importer"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

ImportController::~ImportController()
{
    m_cancel = true;
    m_thread.quit();
    m_thread.wait();
}

void ImportController::start(std::vector<ImportItem> items)
{
    m_busy = true;
    m_cancel = false;
    QMetaObject::invokeMethod(
        m_worker,
        [this, items = std::move(items)] {
            QList<ImportResultLine> results;
            qulonglong imported = 0;
            auto store = RunStore::open(m_path.toStdString());
            QLocale en(QLocale::English);
            if (store) // waits behind another writer, saying so, until that one is done or Cancel is pressed
                (*store)->setWaitFn(
                    [this](const std::string& message, double) {
                        QMetaObject::invokeMethod(
                            this, [this, m = QString::fromStdString(message)] { emit waiting(m); },
                            Qt::QueuedConnection);
                        return true;
                    },
                    [this] { return !m_cancel.load(); });
            if (!store) {
                results.push_back({ m_path, false, QString::fromStdString(store.error()), {} });
            } else {
                for (const ImportItem& item : items) {
                    const QString current = QString::fromStdString(redactUrl(item.pathOrUrl.toStdString()));
                    // progress at most every few MB keeps the queue to the GUI short
                    qint64 last = -1;
                    auto onProgress = [&](std::uint64_t done, std::uint64_t total) {
                        if (last < 0 || qint64(done) - last > (4 << 20) || done == total) {
                            last = qint64(done);
                            QMetaObject::invokeMethod(
                                this,
                                [this, current, done, total] { emit progress(current, qint64(done), qint64(total)); },
                                Qt::QueuedConnection);
                        }
                        return !m_cancel.load();
                    };
                    for (ImportOutcome& o :
                        importPath(**store, item.pathOrUrl.toStdString(), item.options, onProgress)) {
                        ImportResultLine line;
                        line.source = QString::fromStdString(o.source);
                        line.ok = o.result.ok();
                        if (line.ok) {
                            imported += o.result->imported;
                            const std::uint64_t n = o.result->imported;
                            const QString format = QString::fromStdString(o.result->format),
                                          duplicates = en.toString(qulonglong(o.result->duplicates));
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
                    if (m_cancel)
                        break;
                }
            }
            QMetaObject::invokeMethod(
                this,
                [this, results, imported] {
                    m_busy = false;
                    emit finished(results, imported);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace paretoscope::ui
