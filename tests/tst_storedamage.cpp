// A damaged store and one that cannot be written, as paretoscope-cli meets them: every command answers whole or says
// the store is damaged, check names the hurt table, recover copies out what can be read (past a lost first page, and
// naming a table whose root is lost); a read-only folder still reads.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>
#include <memory>
#include <sqlite3.h>

#include "core/store/sqlite.h"
#include "tests/support/agggenerator.h"
#include "tests/support/clichild.h"
#include "tests/support/storecensus.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestStoreDamage : public QObject {
    Q_OBJECT
private slots:
    // A damaged store: every command that reads it either answers whole or exits 1 saying the store is damaged,
    // never a partial answer with exit 0; check names the hurt table; recover copies out what can be read, each run
    // as it was.
    void damagedStoreIsNamedCheckedAndRecovered()
    {
        QTemporaryDir dir;
        const QString db = filledStore(dir);
        QVERIFY(!db.isEmpty());
        const QString gen = dir.filePath(QStringLiteral("gen.json"));
        QVERIFY(writeAggArray(gen.toStdString(), 10000, 3) > 0);
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db, gen }).code, 0);
        const QString original = dir.filePath(QStringLiteral("original.sqlite"));
        QVERIFY(QFile::copy(db, original));
        std::map<long long, std::uint64_t> before;
        {
            auto s = RunStore::open(original.toStdString(), StoreAccess::ReadOnly);
            for (const StoredRun& r : (*s)->allRuns())
                before[r.id] = contentHash(r.record);
        }
        const QJsonArray scopes = QJsonDocument::fromJson(cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db,
                                                                  QStringLiteral("--format"), QStringLiteral("json") })
                                                              .out)
                                      .array();
        QVERIFY(scopes.size() > 5);
        // noise over 64 KiB of the runs table's pages at 1 MiB, and over a leaf of the index every scope's count
        // reads (runs_series: where it lies, from SQLite's own page statistics)
        long long indexLeaf = 0, pageSize = 0;
        {
            sqlite3* raw = nullptr;
            sqlite3_open_v2(original.toUtf8().constData(), &raw, SQLITE_OPEN_READONLY, nullptr);
            const std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(raw, sqlite3_close_v2);
            sql::Statement leaves(raw,
                "SELECT pageno FROM dbstat WHERE name = 'runs_series' AND pagetype = 'leaf' "
                "ORDER BY path");
            std::vector<long long> pages;
            while (leaves.step())
                pages.push_back(leaves.int64(0));
            QVERIFY(pages.size() >= 3);
            indexLeaf = pages[pages.size() / 2];
            sql::Statement size(raw, "PRAGMA page_size");
            QVERIFY(size.step());
            pageSize = size.int64(0);
        }
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadWrite));
            quint32 x = 12345;
            for (const auto& [at, length] :
                { std::pair { 1LL << 20, 65536LL }, { (indexLeaf - 1) * pageSize, pageSize } }) {
                QVERIFY(f.seek(at));
                QByteArray noise(length, '\0');
                for (char& c : noise)
                    c = static_cast<char>((x = x * 1103515245u + 12345u) >> 24);
                f.write(noise);
            }
        }
        const Run sc = cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db });
        QCOMPARE(sc.code, 1);
        QVERIFY(sc.out.isEmpty());
        QVERIFY2(sc.err.contains("the store is damaged") && sc.err.contains("paretoscope-cli check --db"),
            sc.err.constData());
        int damagedScopes = 0;
        for (const QJsonValue v : scopes) {
            const QJsonObject o = v.toObject();
            const QStringList args { QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                o[QStringLiteral("model")].toString(), QStringLiteral("--isl"),
                QString::number(o[QStringLiteral("isl")].toInt()), QStringLiteral("--osl"),
                QString::number(o[QStringLiteral("osl")].toInt()), QStringLiteral("--workload"),
                o[QStringLiteral("workload")].toString(), QStringLiteral("--runs"), QStringLiteral("all"),
                QStringLiteral("--format"), QStringLiteral("csv") };
            if (o[QStringLiteral("isl")].toInt() == 0)
                continue; // the bundled scope has no fixed lengths: its own test is in tst_cli
            const Run e = cli(args);
            if (e.code == 0) {
                // whole: a header and one row per run the scope holds
                QCOMPARE(e.out.count('\n') - 1, o[QStringLiteral("runs")].toInt());
            } else {
                ++damagedScopes;
                QCOMPARE(e.code, 1);
                QVERIFY(e.out.isEmpty());
                QVERIFY2(e.err.contains("the store is damaged"), e.err.constData());
            }
        }
        QVERIFY2(damagedScopes > 0, "the damage reaches some scope");

        const Run check = cli({ QStringLiteral("check"), QStringLiteral("--db"), db });
        QCOMPARE(check.code, 1);
        QVERIFY2(check.out.contains("damaged") && check.out.contains("runs: ") && check.out.contains("recover"),
            check.out.constData());
        QVERIFY2(check.out.contains("series: ok"), check.out.constData());

        const QString saved = dir.filePath(QStringLiteral("saved.sqlite"));
        const Run rec = cli({ QStringLiteral("recover"), QStringLiteral("--db"), db, QStringLiteral("--to"), saved });
        QVERIFY2(rec.code == 0, qPrintable(text(rec)));
        QVERIFY2(rec.out.contains("unreadable: ids"), rec.out.constData());
        QCOMPARE(cli({ QStringLiteral("check"), QStringLiteral("--db"), saved }).code, 0);
        auto s = RunStore::open(saved.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(s);
        const auto recovered = (*s)->allRuns();
        QVERIFY2(recovered.size() > before.size() / 2 && recovered.size() < before.size(),
            qPrintable(QString::number(recovered.size())));
        QVERIFY(
            rec.out.contains(QByteArray("recovered ") + QByteArray::number(qulonglong(recovered.size())) + " runs"));
        for (const StoredRun& r : recovered) {
            QVERIFY(before.count(r.id));
            QCOMPARE(contentHash(r.record), before[r.id]);
        }
        // the recovered store works as a store: duplicates found, and what was lost can be imported again
        QCOMPARE(QJsonDocument::fromJson(
                     cli({ QStringLiteral("import"), QStringLiteral("--db"), saved, fixture(kApi) }).out.trimmed())
                     .object()[QStringLiteral("duplicates")]
                     .toInt(),
            435);
        const Run regen = cli({ QStringLiteral("import"), QStringLiteral("--db"), saved, gen });
        QCOMPARE(regen.code, 0);
        QCOMPARE(census(saved).runs, static_cast<long long>(before.size()));
        QCOMPARE(census(saved).brokenReferences, 0LL);
    }

    // recover steps over a damaged first page of a table (no row before it to start from), and says the whole table
    // is lost when the table's root page is.
    void recoverStepsOverAFirstPageAndNamesALostRoot()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("store.sqlite")), gen = dir.filePath(QStringLiteral("gen.json"));
        QVERIFY(writeAggArray(gen.toStdString(), 10000, 4) > 0);
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db, gen }).code, 0);
        std::map<long long, std::uint64_t> before;
        {
            auto s = RunStore::open(db.toStdString(), StoreAccess::ReadOnly);
            for (const StoredRun& r : (*s)->allRuns())
                before[r.id] = contentHash(r.record);
        }
        // the runs table's pages, from SQLite's own page statistics
        long long firstLeaf = 0, root = 0, pageSize = 0;
        {
            sqlite3* raw = nullptr;
            sqlite3_open_v2(db.toUtf8().constData(), &raw, SQLITE_OPEN_READONLY, nullptr);
            sql::Statement leaf(raw,
                "SELECT pageno FROM dbstat WHERE name = 'runs' AND pagetype = 'leaf' ORDER BY path "
                "LIMIT 1");
            if (leaf.step())
                firstLeaf = leaf.int64(0);
            sql::Statement r(raw, "SELECT rootpage FROM sqlite_schema WHERE name = 'runs'");
            if (r.step())
                root = r.int64(0);
            sql::Statement p(raw, "PRAGMA page_size");
            if (p.step())
                pageSize = p.int64(0);
            leaf = sql::Statement();
            r = sql::Statement();
            p = sql::Statement();
            sqlite3_close(raw);
        }
        QVERIFY(firstLeaf > 0 && root > 0 && firstLeaf != root && pageSize > 0);
        auto damaged = [&](const QString& name, long long page) {
            const QString copy = dir.filePath(name);
            QFile::copy(db, copy);
            QFile f(copy);
            f.open(QIODevice::ReadWrite);
            f.seek((page - 1) * pageSize);
            f.write(QByteArray(int(pageSize), '\x5a'));
            return copy;
        };

        const QString leafLost = damaged(QStringLiteral("leaf.sqlite"), firstLeaf);
        const Run rec = cli({ QStringLiteral("recover"), QStringLiteral("--db"), leafLost, QStringLiteral("--to"),
            dir.filePath(QStringLiteral("leaf-saved.sqlite")) });
        QVERIFY2(rec.code == 0, qPrintable(text(rec)));
        QVERIFY2(rec.out.contains("unreadable: ids 1 to "), rec.out.constData());
        auto s = RunStore::open(dir.filePath(QStringLiteral("leaf-saved.sqlite")).toStdString(), StoreAccess::ReadOnly);
        const auto saved = (*s)->allRuns();
        QVERIFY2(saved.size() + 100 > before.size() && saved.size() < before.size(),
            qPrintable(QString::number(saved.size())));
        for (const StoredRun& r : saved)
            QCOMPARE(contentHash(r.record), before[r.id]);

        const QString rootLost = damaged(QStringLiteral("root.sqlite"), root);
        const Run gone = cli({ QStringLiteral("recover"), QStringLiteral("--db"), rootLost, QStringLiteral("--to"),
            dir.filePath(QStringLiteral("root-saved.sqlite")) });
        QVERIFY2(gone.code == 0, qPrintable(text(gone)));
        QVERIFY2(gone.out.contains("runs: 0 saved; unreadable: the whole table"), gone.out.constData());
        QVERIFY2(gone.out.contains("series: ") && !gone.out.contains("series: 0 saved"), gone.out.constData());
        QCOMPARE(
            cli({ QStringLiteral("check"), QStringLiteral("--db"), dir.filePath(QStringLiteral("root-saved.sqlite")) })
                .code,
            0);
    }

    // A folder that cannot be written: commands that only read the store work; one that writes says why it cannot.
    void readOnlyFolderStillReads()
    {
        QTemporaryDir dir;
        const QString db = filledStore(dir);
        QVERIFY(!db.isEmpty());
        QFile::setPermissions(dir.path(),
            QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
                | QFile::ExeOther);
        QFile::setPermissions(db, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther);
        const Limits reader { -1, true }; // as root, permissions bind only another user
        const Run scopes = cli({ QStringLiteral("scopes"), QStringLiteral("--db"), db }, reader);
        if (scopes.code == 127)
            QSKIP("uid 65534 cannot run the CLI from this build folder (a checkout under a private home)");
        QVERIFY2(scopes.code == 0 && scopes.out.contains("dsr1"), qPrintable(text(scopes)));
        const Run ladder = cli({ QStringLiteral("ladder"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                                   QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"),
                                   QStringLiteral("--osl"), QStringLiteral("1024"), QStringLiteral("--hardware"),
                                   QStringLiteral("b200"), QStringLiteral("--format"), QStringLiteral("csv") },
            reader);
        QVERIFY2(ladder.code == 0, qPrintable(text(ladder)));
        const Run write = cli({ QStringLiteral("import"), QStringLiteral("--db"), db, fixture(kApi) }, reader);
        QCOMPARE(write.code, 1);
        QVERIFY2(text(write).contains(QStringLiteral("read-only"))
                || text(write).contains(QStringLiteral("cannot write to its folder")),
            qPrintable(text(write)));
        QVERIFY(!text(write).contains(QStringLiteral("attempt to write a readonly database")));
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreDamage)
#include "tst_storedamage.moc"
