// Words that misled (issue 61), each now said as it is: a task the store has no evaluation of, a best-Nse out of its
// range, a mix target too large, an as-of before every run; a failed import or sync that left a store file behind;
// a --source whose query string the routes were appended after.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/clirun.h"
#include "tests/support/replayserver.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace climessages { // named: the suites of a program compile in batches

const QString kRows = QStringLiteral("inferencex-app-api/benchmarks.json");
const QString kEvaluations = QStringLiteral("inferencex-app-api/evaluations.json");

QStringList scope(const QString& db)
{
    return { QStringLiteral("--db"), db, QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"),
        QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024") };
}

QString said(const Run& r)
{
    return QString::fromUtf8(r.err + r.out);
}

} // namespace climessages

class TestCliMessages : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db; // the real rows and their evaluations

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath(QStringLiteral("real.sqlite"));
        for (const QString& file : { climessages::kRows, climessages::kEvaluations }) {
            const Run r = runCli({ QStringLiteral("import"), QStringLiteral("--db"), m_db, fixture(file) });
            QVERIFY2(r.code == 0, r.err.constData());
        }
    }

    void aTaskWithoutEvaluationsIsAnErrorThatListsTheTasks()
    {
        Run r = runCli(QStringList { QStringLiteral("summary") } + climessages::scope(m_db)
            + QStringList { QStringLiteral("--target"), QStringLiteral("40"), QStringLiteral("--min-accuracy"),
                QStringLiteral("unknown:0.9") });
        QCOMPARE(r.code, 1);
        QVERIFY2(climessages::said(r).contains(QStringLiteral("no evaluation of dsr1 on 'unknown' (--min-accuracy)"))
                && climessages::said(r).contains(QStringLiteral("gsm8k")),
            r.err.constData());
        r = runCli(QStringList { QStringLiteral("ladder") } + climessages::scope(m_db)
            + QStringList { QStringLiteral("--min-accuracy"), QStringLiteral("unknown:0.9") });
        QCOMPARE(r.code, 1);
        r = runCli({ QStringLiteral("accuracy"), QStringLiteral("--db"), m_db, QStringLiteral("--model"),
            QStringLiteral("dsr1"), QStringLiteral("--task"), QStringLiteral("unknown") });
        QCOMPARE(r.code, 1);
        QVERIFY2(climessages::said(r).contains(QStringLiteral("on 'unknown' (--task)")), r.err.constData());
        // a task it has answers
        r = runCli(QStringList { QStringLiteral("ladder") } + climessages::scope(m_db)
            + QStringList { QStringLiteral("--min-accuracy"), QStringLiteral("gsm8k:0.5") });
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void outOfRangeValuesSayTheirRange()
    {
        Run r = runCli(QStringList { QStringLiteral("ladder") } + climessages::scope(m_db)
            + QStringList { QStringLiteral("--min-accuracy"), QStringLiteral("gsm8k:best-99se") });
        QCOMPARE(r.code, 2);
        QVERIFY2(climessages::said(r).contains(QStringLiteral("above 0 and at most 10")), r.err.constData());
        r = runCli({ QStringLiteral("plan"), QStringLiteral("--db"), m_db, QStringLiteral("--model"),
            QStringLiteral("dsr1"), QStringLiteral("--mix"), QStringLiteral("1024/1024:1@1e300"),
            QStringLiteral("--demand"), QStringLiteral("1000"), QStringLiteral("--unit"), QStringLiteral("tok/s"),
            QStringLiteral("--target"), QStringLiteral("40") });
        QCOMPARE(r.code, 2);
        QVERIFY2(climessages::said(r).contains(QStringLiteral("at most 1,000,000 (tok/s/user)")), r.err.constData());
    }

    // It spoke of runs marked as not trusted
    void anAsOfBeforeEveryRunSaysSo()
    {
        const Run r = runCli(QStringList { QStringLiteral("report") } + climessages::scope(m_db)
            + QStringList { QStringLiteral("--as-of"), QStringLiteral("1900-01-01"), QStringLiteral("--out"),
                m_dir.filePath(QStringLiteral("r.html")) });
        QCOMPARE(r.code, 1);
        QVERIFY2(climessages::said(r).contains(QStringLiteral("as of 1900-01-01"))
                && !climessages::said(r).contains(QStringLiteral("not trusted")),
            r.err.constData());
    }

    void aFailedImportOrSyncLeavesNoStoreBehind()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("new.sqlite"));
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[{\"model\": 1}]");
        f.close();
        Run r = runCli({ QStringLiteral("import"), QStringLiteral("--db"), db, bad });
        QCOMPARE(r.code, 1);
        QVERIFY2(!QFile::exists(db), "a failed import left a store");
        r = runCli({ QStringLiteral("sync"), QStringLiteral("--db"), db, QStringLiteral("--source"),
            QStringLiteral("http://127.0.0.1:1/api/v1") });
        QCOMPARE(r.code, 1);
        QVERIFY2(!QFile::exists(db), "a failed sync left a store");
        // a store that was there stays, with what it held
        r = runCli({ QStringLiteral("import"), QStringLiteral("--db"), db, fixture(climessages::kRows) });
        QCOMPARE(r.code, 0);
        r = runCli({ QStringLiteral("import"), QStringLiteral("--db"), db, bad });
        QCOMPARE(r.code, 1);
        QVERIFY(QFile::exists(db));
        r = runCli({ QStringLiteral("scopes"), QStringLiteral("--db"), db });
        QVERIFY2(r.code == 0 && r.out.contains("dsr1"), r.err.constData());
    }

    // The routes were appended after the query: http://host/api/v1?key=K/availability
    void aSourcesQueryStringFollowsEachRoute()
    {
        QTemporaryDir dir;
        ReplayServer server;
        std::ifstream in(fixture(climessages::kRows).toStdString());
        server.setBenchmarks(nlohmann::json::parse(in));
        const Run r = runCli({ QStringLiteral("sync"), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.sqlite")),
            QStringLiteral("--source"), QString::fromStdString(server.root()) + QStringLiteral("?key=k1"),
            QStringLiteral("--sequences"), QStringLiteral("1k/1k") });
        QVERIFY2(r.code == 0, climessages::said(r).toUtf8().constData());
        const std::vector<std::string> asked = server.takeRequests();
        QVERIFY(!asked.empty());
        QCOMPARE(asked.front(), std::string("/api/v1/availability?key=k1"));
        QVERIFY(std::all_of(asked.begin(), asked.end(), [](const std::string& p) { return p.ends_with("key=k1"); }));
        QVERIFY(std::any_of(asked.begin(), asked.end(),
            [](const std::string& p) { return p.starts_with("/api/v1/benchmarks/history?model="); }));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestCliMessages)
#include "tst_climessages.moc"
