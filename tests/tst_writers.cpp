// The explorer's writers of the store (the import, the live session and the cluster collection share one skeleton,
// widgets/storejobs/writercontroller.h): a writer that finds the store held by another waits, says for whom, and lands
// whole once the other is done; Cancel while it waits gives up and leaves nothing of it in the store; the window's
// reads meanwhile never wait.
#include <QtTest>

#include "core/store/runstore.h"
#include "core/store/writetransaction.h"
#include "tests/support/agggenerator.h"
#include "tests/support/suite.h"
#include "widgets/imports/importcontroller.h"

using namespace paretoscope;
using namespace paretoscope::ui;
using namespace paretoscope::testsupport;

class TestWriters : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db, m_file;

    // A store held by another writer (here the test) for as long as `held` lives.
    std::optional<WriteTransaction> hold(std::unique_ptr<RunStore>& holder)
    {
        auto t = WriteTransaction::begin(*holder, "a test holding the store");
        return t ? std::optional<WriteTransaction>(std::move(*t)) : std::nullopt;
    }

    long long runCount()
    {
        auto store = RunStore::open(m_db.toStdString());
        return store ? (*store)->runCount() : -1;
    }

    // An import started while the test holds the store, once it says it waits: the holder, the importer and its spies.
    struct WaitingImport {
        std::unique_ptr<RunStore> holder;
        std::optional<WriteTransaction> held;
        std::unique_ptr<ImportController> importer;
        std::unique_ptr<QSignalSpy> waiting, finished;
    };
    bool startWaitingImport(WaitingImport& w)
    {
        auto holder = RunStore::open(m_db.toStdString());
        if (!holder)
            return false;
        w.holder = std::move(*holder);
        w.held = hold(w.holder);
        if (!w.held)
            return false;
        w.importer = std::make_unique<ImportController>(m_db);
        w.waiting = std::make_unique<QSignalSpy>(w.importer.get(), &WriterController::waiting);
        w.finished = std::make_unique<QSignalSpy>(w.importer.get(), &ImportController::finished);
        w.importer->start({ ImportItem { m_file, {} } });
        return w.importer->busy() && w.waiting->wait(30000);
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<QList<ImportResultLine>>();
        QVERIFY(m_dir.isValid());
        m_file = m_dir.filePath(QStringLiteral("runs.json"));
        QVERIFY(writeAggArray(m_file.toStdString(), 300, 7) > 0);
    }

    void init()
    {
        m_db = m_dir.filePath(QStringLiteral("store-%1.sqlite").arg(QString::fromLatin1(QTest::currentTestFunction())));
        QVERIFY(RunStore::open(m_db.toStdString()));
    }

    void importWaitsForAnotherWriterSaysSoAndLandsWhole()
    {
        WaitingImport w;
        QVERIFY(startWaitingImport(w));
        const QString said = w.waiting->first().first().toString();
        QVERIFY2(said.contains(QLatin1String("a test holding the store")), qPrintable(said));
        QVERIFY(w.importer->busy());
        QCOMPARE(w.finished->count(), 0);
        // the window's reads go on meanwhile, and see the store without the waiting import
        auto reader = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(reader);
        QCOMPARE((*reader)->runCount(), 0LL);

        w.held.reset(); // the other writer is done
        QVERIFY(w.finished->wait(60000));
        QVERIFY(!w.importer->busy());
        const auto results = w.finished->first().first().value<QList<ImportResultLine>>();
        QCOMPARE(results.size(), qsizetype(1));
        QVERIFY2(results.first().ok, qPrintable(results.first().message));
        QCOMPARE(w.finished->first().at(1).toULongLong(), 300ULL);
        QCOMPARE(runCount(), 300LL);
    }

    void cancelWhileWaitingGivesUpAndLeavesNothing()
    {
        WaitingImport w;
        QVERIFY(startWaitingImport(w));
        w.importer->cancel();
        QVERIFY(w.finished->wait(30000)); // gives up while the other writer still holds the store
        QVERIFY(!w.importer->busy());
        const auto results = w.finished->first().first().value<QList<ImportResultLine>>();
        QCOMPARE(results.size(), qsizetype(1));
        QVERIFY(!results.first().ok);
        QVERIFY2(!results.first().message.isEmpty(), "the refusal says why");
        QCOMPARE(w.finished->first().at(1).toULongLong(), 0ULL);
        w.held.reset();
        QCOMPARE(runCount(), 0LL);
    }

    // A controller destroyed while its job waits behind another writer stops the job and returns at once: closing the
    // window during a long wait does not hang it.
    void destroyedWhileWaitingStopsTheJob()
    {
        WaitingImport w;
        QVERIFY(startWaitingImport(w));
        QElapsedTimer t;
        t.start();
        w.waiting.reset();
        w.finished.reset();
        w.importer.reset();
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        w.held.reset();
        QCOMPARE(runCount(), 0LL);
    }

    void aStoreThatCannotBeOpenedIsNamed()
    {
        ImportController importer(m_dir.filePath(QStringLiteral("no/such/folder/store.sqlite")));
        QSignalSpy finished(&importer, &ImportController::finished);
        importer.start({ ImportItem { m_file, {} } });
        QVERIFY(finished.wait(30000));
        const auto results = finished.first().first().value<QList<ImportResultLine>>();
        QCOMPARE(results.size(), qsizetype(1));
        QVERIFY(!results.first().ok);
        QVERIFY2(results.first().source.contains(QLatin1String("no/such/folder")), qPrintable(results.first().source));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestWriters)
#include "tst_writers.moc"
