// The store on a full disk, as paretoscope-cli meets it: a disk that fills part-way through an import (a child process
// with RLIMIT_FSIZE lowered, and a small tmpfs where one can be mounted) leaves nothing of the file, and the next
// import lands in its own scopes only.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <map>
#include <unistd.h>

#include "core/store/runstore.h"
#include "tests/support/agggenerator.h"
#include "tests/support/clichild.h"
#include "tests/support/storecensus.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

// The run ids and content hashes of one scope, as an export of it would list them.
std::map<long long, std::uint64_t> scopeRuns(const QString& db, const Scope& scope)
{
    std::map<long long, std::uint64_t> out;
    auto s = RunStore::open(db.toStdString(), StoreAccess::ReadOnly);
    if (!s)
        return out;
    std::vector<long long> ids;
    for (const Series& se : (*s)->series(scope))
        ids.push_back(se.id);
    for (const StoredRun& r : (*s)->runsOfSeries(ids, scope))
        out[r.id] = contentHash(r.record);
    return out;
}

Scope dsr1(int isl, int osl)
{
    return lengthScope("dsr1", isl, osl);
}

bool canMountTmpfs()
{
    return QProcess::execute(QStringLiteral("unshare"), { QStringLiteral("-rm"), QStringLiteral("true") }) == 0
        || QProcess::execute(QStringLiteral("unshare"), { QStringLiteral("-m"), QStringLiteral("true") }) == 0;
}

} // namespace

class TestStoreFullDisk : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_huge = m_dir.filePath(QStringLiteral("huge.json"));
        QVERIFY(writeAggArray(m_huge.toStdString(), 300000, 7) > 0);
        // the InferenceX fixture's DeepSeek-R1 1k/1k scope, imported alone
        const QString reference = filledStore(m_dir, QStringLiteral("reference.sqlite"));
        m_apiScopeRuns = scopeRuns(reference, dsr1(1024, 1024)).size();
        QVERIFY(m_apiScopeRuns > 100);
    }

    // A disk that fills part-way through an import (the file size limit reached: SQLite sees EFBIG as an I/O
    // error, or a short write as SQLITE_FULL, and rolls the transaction back by itself) leaves nothing of the file:
    // no run, source or series, no broken reference; the message says the disk is full; and the next import's records
    // land in their own scopes only. 300,000 records, so that the import's page cache spills to the file before the
    // commit: a failure then comes from an insert in the middle of the file, where the row-by-row retry once wrote
    // rows in autocommit mode after SQLite had rolled back.
    void fullDiskLeavesNothingOfTheFile_data()
    {
        QTest::addColumn<qint64>("headroom");
        QTest::addColumn<bool>("thenWhole");
        QTest::newRow("full early") << qint64(2 << 20) << false;
        QTest::newRow("full part-way, pages spilled") << qint64(50 << 20) << true;
        QTest::newRow("full at the commit") << qint64(80 << 20) << false;
    }

    void fullDiskLeavesNothingOfTheFile()
    {
        QFETCH(qint64, headroom);
        QFETCH(bool, thenWhole);
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        QCOMPARE(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code, 0);
        const Census before = census(db);

        // the store's files may grow to its size plus the headroom
        const Run r = cli({ QStringLiteral("import"), QStringLiteral("--db"), db, m_huge },
            Limits { QFileInfo(db).size() + headroom, false });
        QCOMPARE(r.code, 1);
        const QJsonObject line = QJsonDocument::fromJson(r.out.trimmed()).object();
        const QString error = line[QStringLiteral("error")].toString();
        QVERIFY2(error.contains(QStringLiteral("is full")) || error.contains(QStringLiteral("may grow no larger")),
            qPrintable(text(r)));

        const Census after = census(db);
        QVERIFY2(after == before, qPrintable(describe(before) + QStringLiteral(" -> ") + describe(after)));
        QCOMPARE(after.brokenReferences, 0LL);
        QCOMPARE(after.hashes, after.runs);
        QCOMPARE(cli({ QStringLiteral("check"), QStringLiteral("--db"), db }).code, 0);

        // nothing of the failed file is adopted by the next import's series: its scopes hold exactly its runs
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db, fixture(kApi) }).code, 0);
        QCOMPARE(scopeRuns(db, dsr1(1024, 1024)).size(), m_apiScopeRuns);
        QCOMPARE(census(db).runs, before.runs + 435);
        if (thenWhole) {
            const Run whole = cli({ QStringLiteral("import"), QStringLiteral("--db"), db, m_huge });
            QCOMPARE(whole.code, 0);
            QCOMPARE(QJsonDocument::fromJson(whole.out.trimmed()).object()[QStringLiteral("imported")].toInt(), 300000);
        }
    }

    // The same on a real full disk: a 50 MB tmpfs in a mount namespace of the test's own (skipped where none can
    // be made).
    void fullTmpfsLeavesNothingOfTheFile()
    {
        if (!canMountTmpfs())
            QSKIP("no mount namespace can be made here (unshare -m / -rm refused)");
        QTemporaryDir dir;
        const QString db = filledStore(dir);
        QVERIFY(!db.isEmpty());
        const Census before = census(db);
        const QString mnt = dir.filePath(QStringLiteral("mnt")), out = dir.filePath(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(mnt) && QDir().mkpath(out));
        // inside the namespace: the store copied onto the tmpfs, the import that fills it, the store copied back
        const QString script = QStringLiteral("set -e; mount -t tmpfs -o size=50m tmpfs '%1'; cp '%2' '%1/s.sqlite'; "
                                              "set +e; '%3' import --db '%1/s.sqlite' '%4' > '%5/import.out'; "
                                              "echo $? > '%5/code'; cp '%1'/s.sqlite* '%5/'")
                                   .arg(mnt, db, cliProgram(), m_huge, out);
        QProcess sh;
        sh.start(QStringLiteral("unshare"),
            { ::getuid() == 0 ? QStringLiteral("-m") : QStringLiteral("-rm"), QStringLiteral("sh"),
                QStringLiteral("-c"), script });
        QVERIFY(sh.waitForFinished(300000));
        QVERIFY2(sh.exitCode() == 0, sh.readAllStandardError().constData());
        QCOMPARE(readAll(out + QStringLiteral("/code")).trimmed(), QByteArray("1"));
        const QString error = QJsonDocument::fromJson(readAll(out + QStringLiteral("/import.out")).trimmed())
                                  .object()[QStringLiteral("error")]
                                  .toString();
        QVERIFY2(error.contains(QStringLiteral("is full")), qPrintable(error));
        const Census after = census(out + QStringLiteral("/s.sqlite"));
        QVERIFY2(after == before, qPrintable(describe(before) + QStringLiteral(" -> ") + describe(after)));
    }

private:
    QTemporaryDir m_dir;
    QString m_huge;
    std::size_t m_apiScopeRuns = 0;
};

PARETOSCOPE_GUILESS_SUITE(TestStoreFullDisk)
#include "tests/support/testpaths.h"
#include "tst_storefulldisk.moc"
