// The store shared, as paretoscope-cli meets it: an import waits for another writer and says for whom while readers go
// on undisturbed; two imports, a live session and a reader at once, every row accounted for afterwards.
#include <QtTest>

#include <QJsonDocument>

#include "core/store/writetransaction.h"
#include "tests/support/agggenerator.h"
#include "tests/support/clichild.h"
#include "tests/support/simprocess.h"
#include "tests/support/storecensus.h"
#include "tests/support/storequeries.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestStoreSharing : public QObject {
    Q_OBJECT
private slots:
    // A writer holds the store (here the test, for as long as it likes): an import waits for it, says for whom every
    // few seconds, and lands whole once the other is done; readers meanwhile never wait, and see the store as it was.
    void writersQueueAndReadersNeverWait()
    {
        QTemporaryDir dir;
        const QString db = filledStore(dir);
        QVERIFY(!db.isEmpty());
        const Census before = census(db);
        const QString small = dir.filePath(QStringLiteral("small.json"));
        QVERIFY(writeAggArray(small.toStdString(), 500, 99) > 0);
        const QByteArray scopesBefore = cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db,
                                                QStringLiteral("--format"), QStringLiteral("json") })
                                            .out;

        auto holder = RunStore::open(db.toStdString());
        QVERIFY(holder);
        auto held = WriteTransaction::begin(**holder, "importing a file the test holds back");
        QVERIFY(held);
        CliChild importer({ QStringLiteral("import"), QStringLiteral("--db"), db, small });
        // the import waits, and says for whom, as long as the other writer holds the store
        QElapsedTimer t;
        t.start();
        QByteArray said;
        // the whole line: stderr is unbuffered, and the message comes in several writes
        while (t.elapsed() < 60000 && !(said = readAll(importer.errFile())).contains("s so far)"))
            QThread::msleep(20);
        QVERIFY2(said.contains("waiting while another writer has this store")
                && said.contains("importing a file the test holds back"),
            said.constData());
        QVERIFY(importer.running());
        for (int i = 0; i < 5; ++i) { // readers go on meanwhile, and see the store without the waiting import
            const Run r = cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db, QStringLiteral("--format"),
                QStringLiteral("json") });
            QVERIFY2(r.code == 0, qPrintable(text(r)));
            QCOMPARE(r.out, scopesBefore);
        }
        QVERIFY(importer.running());
        QVERIFY(held->commit());
        const Run done = importer.wait();
        QVERIFY2(done.code == 0, qPrintable(text(done)));
        QCOMPARE(census(db).runs, before.runs + 500);
        QCOMPARE(census(db).brokenReferences, 0LL);
        QVERIFY(cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db, QStringLiteral("--format"),
                        QStringLiteral("json") })
                    .out
            != scopesBefore);
    }

    // Everything at once on one store: two imports, a live session and a reader in a loop. Nobody fails or is
    // locked out, the readers see whole states only, and every row is accounted for afterwards.
    void twoImportsASessionAndAReaderAtOnce()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("shared.sqlite"));
        QCOMPARE(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code, 0);
        const Census before = census(db);
        const QString a = dir.filePath(QStringLiteral("a.json")), b = dir.filePath(QStringLiteral("b.json"));
        QVERIFY(writeAggArray(a.toStdString(), 60000, 21) > 0);
        QVERIFY(writeAggArray(b.toStdString(), 60000, 22) > 0);
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("2") });
        QVERIFY(sim.ok());

        CliChild importA({ QStringLiteral("import"), QStringLiteral("--db"), db, a });
        CliChild session({ QStringLiteral("bench"), QStringLiteral("--db"), db, QStringLiteral("--endpoint"), sim.url(),
            QStringLiteral("--hardware"), QStringLiteral("b300"), QStringLiteral("--engine"), QStringLiteral("vllm"),
            QStringLiteral("--isl"), QStringLiteral("32"), QStringLiteral("--osl"), QStringLiteral("8"),
            QStringLiteral("--concurrency"), QStringLiteral("1,2,4") });
        CliChild importB({ QStringLiteral("import"), QStringLiteral("--db"), db, b });
        int reads = 0;
        while (importA.running() || importB.running() || session.running()) {
            const Run r = cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db, QStringLiteral("--format"),
                QStringLiteral("json") });
            QVERIFY2(r.code == 0, qPrintable(text(r)));
            QVERIFY(QJsonDocument::fromJson(r.out).isArray());
            ++reads;
            QThread::msleep(20); // a reader in a loop, not one that takes a core from the writers
        }
        const Run ra = importA.wait(), rb = importB.wait(), rs = session.wait();
        QVERIFY2(ra.code == 0, qPrintable(text(ra)));
        QVERIFY2(rb.code == 0, qPrintable(text(rb)));
        QVERIFY2(rs.code == 0, qPrintable(text(rs)));
        QCOMPARE(rs.out.count('\n'), 3); // a JSON line per level, each stored
        QVERIFY(reads > 0);

        // every row accounted for: the seed, both files whole, three levels, nothing else
        const Census after = census(db);
        QCOMPARE(after.runs, before.runs + 60000 + 60000 + 3);
        QCOMPARE(after.hashes, after.runs);
        QCOMPARE(after.brokenReferences, 0LL);
        QCOMPARE(after.integrity, QStringLiteral("ok"));
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.path LIKE "
                     "'%a.json'"),
            60000LL);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.path LIKE "
                     "'%b.json'"),
            60000LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM session_levels WHERE run_id IS NOT NULL"), 3LL);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sessions WHERE status = 'finished'"), 1LL);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreSharing)
#include "tst_storesharing.moc"
