// What paretoscope-cli's import is given by URL and by path: schemes it does not take, a file of zero bytes and an
// empty one said in plain words; credentials in URLs never stored, printed or exported; bodies too large to hold
// streamed, or refused by their declared length.
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <sqlite3.h>

#include "core/store/sqlite.h"
#include "tests/support/agggenerator.h"
#include "tests/support/clichild.h"
#include "tests/support/storecensus.h"
#include "tests/support/suite.h"
#include "tests/support/testserver.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestStoreUrls : public QObject {
    Q_OBJECT
private slots:
    // What an import is told in plain words: schemes it does not take, a file of zero bytes, an empty one.
    void importMessagesSayWhatHappened()
    {
        QTemporaryDir dir;
        const QString db = filledStore(dir);
        const QString zeros = dir.filePath(QStringLiteral("zeros.json")),
                      empty = dir.filePath(QStringLiteral("empty.json"));
        {
            QFile f(zeros);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(2) << 30)); // 2 GB of zero bytes, sparse
        }
        QVERIFY(writeFile(empty, {}));
        const Run r = cli({ QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("file:///tmp/x.json"),
            QStringLiteral("ftp://example.com/x.json"), zeros, empty, QStringLiteral("HtTp://127.0.0.1:1/api") });
        QCOMPARE(r.code, 1);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        auto errorOf
            = [&](int i) { return QJsonDocument::fromJson(lines[i]).object()[QStringLiteral("error")].toString(); };
        QVERIFY2(errorOf(0).contains(QStringLiteral("file:// is not supported")), qPrintable(errorOf(0)));
        QVERIFY2(errorOf(1).contains(QStringLiteral("ftp:// is not supported")), qPrintable(errorOf(1)));
        QVERIFY2(errorOf(2).contains(QStringLiteral("binary data")) && !errorOf(2).contains(QStringLiteral("empty")),
            qPrintable(errorOf(2)));
        QVERIFY2(errorOf(3).contains(QStringLiteral("empty")), qPrintable(errorOf(3)));
        // the scheme in any case is http: it is fetched (and here nothing listens)
        QVERIFY2(errorOf(4).contains(QStringLiteral("cannot reach the server")), qPrintable(errorOf(4)));
    }

    // Credentials in a URL are never stored, printed or exported.
    void credentialsInUrlsAreStripped()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("creds.sqlite"));
        TestServer server(readAll(fixture(kApi)).toStdString());
        const QString url = QStringLiteral("http://alice:S3cretPW@127.0.0.1:%1/api/v1/benchmarks?model=dsr1&api_token="
                                           "T999&X-Amz-Signature=SIG777&page=2")
                                .arg(server.port());
        const Run r = cli({ QStringLiteral("import"), QStringLiteral("--db"), db, url });
        QVERIFY2(r.code == 0, qPrintable(text(r)));
        const QByteArray exported
            = cli({ QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                      QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
                      QStringLiteral("1024"), QStringLiteral("--format"), QStringLiteral("csv") })
                  .out;
        const QByteArray frontier = cli(
            { QStringLiteral("frontier"), QStringLiteral("--db"), db, QStringLiteral("--model"), QStringLiteral("dsr1"),
                QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024") })
                                        .out;
        const QByteArray stored = readAll(db) + readAll(db + QStringLiteral("-wal"));
        for (const QByteArray& where : { r.out, r.err, exported, frontier, stored }) {
            for (const char* secret : { "S3cretPW", "alice", "T999", "SIG777" })
                QVERIFY2(!where.contains(secret), secret);
        }
        const QString kept
            = QStringLiteral("http://127.0.0.1:%1/api/v1/benchmarks?model=dsr1&page=2").arg(server.port());
        QVERIFY2(r.out.contains(kept.toUtf8()), r.out.constData());
        QVERIFY(exported.contains(kept.toUtf8()));

        // a store written before credentials were stripped loses them when it is opened
        const QString old = dir.filePath(QStringLiteral("old.sqlite"));
        QVERIFY(RunStore::createAtVersion(old.toStdString(), 5));
        sqlite3* raw = nullptr;
        sqlite3_open(old.toUtf8().constData(), &raw);
        sql::exec(raw,
            "INSERT INTO sources(path, sha256, format, imported_at) VALUES "
            "('https://bob:hunter2@host/api?token=abc&model=m', '', 'inferencex-api', 0);"
            "INSERT INTO sessions(started_at, status, pid, config) VALUES "
            "(0, 'finished', 1, '{\"endpoint\":\"http://u:pw9@host:8000\",\"model\":\"m\"}')");
        sqlite3_close(raw);
        QVERIFY(RunStore::open(old.toStdString()));
        QCOMPARE(QString::fromStdString(textOf(old, "SELECT path FROM sources")),
            QStringLiteral("https://host/api?model=m"));
        QVERIFY(!QString::fromStdString(textOf(old, "SELECT config FROM sessions")).contains(QStringLiteral("pw9")));
    }

    // A URL body streams into the import: memory stays small whatever its size, and a declared length over the
    // limit is refused before any of it is read.
    void urlBodiesStream()
    {
        QTemporaryDir dir;
        const QString body = dir.filePath(QStringLiteral("body.json"));
        const std::uint64_t bytes = writeAggArray(body.toStdString(), 200000, 11);
        QVERIFY(bytes > (250u << 20));
        TestServer server("[]");
        server.serveFile("/big.json", body.toStdString());
        server.serveDeclared("/huge.json", 5ull << 30);
        const QString db = dir.filePath(QStringLiteral("url.sqlite"));
        QVERIFY(RunStore::open(db.toStdString()));
        // peak memory as the kernel counts it for the child
        CliChild importer(
            { QStringLiteral("import"), QStringLiteral("--db"), db, QString::fromStdString(server.url("/big.json")) });
        const Run r = importer.wait();
        QVERIFY2(r.code == 0, qPrintable(text(r)));
        QVERIFY(r.out.contains("\"imported\":200000"));
        const double peakMb = double(importer.peakKb()) / 1024.0;
        // AddressSanitizer's shadow memory and quarantine say nothing of the program's own (the asan preset sets
        // PARETOSCOPE_SANITIZED): the bound is checked in the plain build
        if (!qEnvironmentVariableIsSet("PARETOSCOPE_SANITIZED"))
            QVERIFY2(peakMb > 1 && peakMb < 120,
                qPrintable(QStringLiteral("peak RSS %1 MB for a %2 MB body").arg(peakMb).arg(bytes >> 20)));
        qInfo("a %llu MB body imported by URL at %.0f MB peak RSS", qulonglong(bytes >> 20), peakMb);

        const Run huge = cli(
            { QStringLiteral("import"), QStringLiteral("--db"), db, QString::fromStdString(server.url("/huge.json")) });
        QCOMPARE(huge.code, 1);
        QVERIFY2(text(huge).contains(QStringLiteral("declares 5368.7 MB"))
                && text(huge).contains(QStringLiteral("refused before reading")),
            qPrintable(text(huge)));
        QCOMPARE(census(db).runs, 200000LL);
    }

private:
    static std::string textOf(const QString& db, const char* sql)
    {
        sqlite3* raw = nullptr;
        sqlite3_open_v2(db.toUtf8().constData(), &raw, SQLITE_OPEN_READONLY, nullptr);
        std::string out;
        {
            sql::Statement s(raw, sql);
            if (s.step())
                out = s.text(0);
        }
        sqlite3_close(raw);
        return out;
    }
};

PARETOSCOPE_GUILESS_SUITE(TestStoreUrls)
#include "tst_storeurls.moc"
