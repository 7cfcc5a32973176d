// A server that trickles, bombs or redirects elsewhere (issue 61): each request ends within its bounds with an error
// that says why, and no message carries a password, however it is spelled in the URL.
#include <QtTest>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <fcntl.h>
#include <unistd.h>

#include "core/import/httpfetch.h"
#include "core/model/printable.h"
#include "core/model/urls.h"
#include "core/output/reportdoc.h"
#include "tests/support/suite.h"
#include "tests/support/testserver.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace networkbounds { // named: the suites of a program compile in batches

HttpOptions quick()
{
    HttpOptions o;
    o.connectTimeoutMs = 5000;
    o.totalTimeoutMs = 0;
    o.maxBytes = 4ull << 30;
    o.stallSeconds = 60;
    return o;
}

// A download into an unnamed file in a temporary folder; its outcome and the bytes it kept.
struct Downloaded {
    Result<std::uint64_t> result = Error { "" };
    off_t kept = 0;
};

Downloaded download(const QTemporaryDir& dir, const std::string& url, const HttpOptions& options)
{
    const int fd = ::open(dir.path().toLocal8Bit().constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    Downloaded out;
    out.result = httpDownload(url, fd, options);
    out.kept = ::lseek(fd, 0, SEEK_END);
    ::close(fd);
    return out;
}

} // namespace networkbounds

class TestNetworkBounds : public QObject {
    Q_OBJECT

private slots:
    // A body trickled at a byte every 50 ms under a 2 GB Content-Length defeated the stall check, and nothing
    // else ended it
    void aTrickledBodyEndsAtTheWholeRequestsLimit()
    {
        QTemporaryDir dir;
        TestServer server("[]");
        server.serveDeclared("/slow", 2'000'000'000ull);
        HttpOptions o = networkbounds::quick();
        o.maxTimeMs = 1500;
        QElapsedTimer clock;
        clock.start();
        const auto got = networkbounds::download(dir, server.url("/slow"), o);
        QVERIFY(!got.result.ok());
        QVERIFY2(got.result.error().find("took too long") != std::string::npos, got.result.error().c_str());
        QVERIFY2(clock.elapsed() < 30000, qPrintable(QString::number(clock.elapsed()))); // not the stall's 60 s
        QCOMPARE(HttpOptions {}.maxTimeMs, 600000L); // the default: 10 minutes
    }

    // A 4.3 MB gzip filled 1 GB of disk per request
    void aCompressedBombIsRefusedBeforeItFillsTheDisk()
    {
        QTemporaryDir dir;
        TestServer server("[]");
        const std::string zeros(256u << 20, '0'); // 256 MB of one byte: about 250 KB as gzip
        const std::string bomb = gzipped(zeros);
        QVERIFY(bomb.size() < 1u << 20);
        server.serveEncoded("/bomb", bomb, "gzip");
        const auto got = networkbounds::download(dir, server.url("/bomb"), networkbounds::quick());
        QVERIFY(!got.result.ok());
        QVERIFY2(
            got.result.error().find("decodes to more than 100 times") != std::string::npos, got.result.error().c_str());
        QVERIFY2(got.kept < 64 << 20, qPrintable(QString::number(got.kept)));
        // an honest compressed answer (JSON compresses 10 to 30 times) decodes whole
        std::string rows = "[";
        for (long long i = 0; i < 200000; ++i)
            rows += (i ? "," : "") + std::string("{\"conc\":") + std::to_string(i * 7919 % 100003)
                + ",\"x\":" + std::to_string(i * 104729 % 1000003) + "}";
        rows += "]";
        server.serveEncoded("/honest", gzipped(rows), "gzip");
        const auto honest = networkbounds::download(dir, server.url("/honest"), networkbounds::quick());
        QVERIFY2(honest.result.ok(), honest.result.ok() ? "" : honest.result.error().c_str());
        QCOMPARE(static_cast<std::size_t>(honest.kept), rows.size());
    }

    void redirectsStayOnTheSourcesHost()
    {
        QTemporaryDir dir;
        TestServer server("[{\"here\":1}]");
        TestServer elsewhere("[{\"elsewhere\":1}]");
        // another host (localhost is not 127.0.0.1 by name), then the same host on another port
        server.redirect("/away", "http://localhost:" + std::to_string(elsewhere.port()) + "/api/v1/benchmarks");
        server.redirect("/near", elsewhere.url("/api/v1/benchmarks"));
        auto away = httpGet(server.url("/away"), networkbounds::quick());
        QVERIFY(!away.ok());
        QVERIFY2(away.error().find("redirected to another host (http://localhost:") != std::string::npos
                && away.error().find("not followed") != std::string::npos,
            away.error().c_str());
        auto near = httpGet(server.url("/near"), networkbounds::quick());
        QVERIFY2(near.ok() && near->find("elsewhere") != std::string::npos, near.ok() ? near->c_str() : "");
        HttpOptions anywhere = networkbounds::quick();
        anywhere.anyHostRedirect = true;
        auto allowed = httpGet(server.url("/away"), anywhere);
        QVERIFY2(allowed.ok(), allowed.ok() ? "" : allowed.error().c_str());
        // the streamed download (import by URL) alike
        const auto streamed = networkbounds::download(dir, server.url("/away"), networkbounds::quick());
        QVERIFY(!streamed.result.ok());
        QVERIFY(streamed.result.error().find("another host") != std::string::npos);
    }

    void passwordsNeverReachAMessage_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a # in it") << QStringLiteral("http://alice:pa#ss9@host/api/v1")
                                   << QStringLiteral("http://host/api/v1");
        QTest::newRow("a ? in it") << QStringLiteral("http://alice:pa?ss9@host/api/v1")
                                   << QStringLiteral("http://host/api/v1");
        QTest::newRow("a / in it") << QStringLiteral("http://alice:pa/ss9@host/api/v1")
                                   << QStringLiteral("http://host/api/v1");
        QTest::newRow("an @ in the query")
            << QStringLiteral("http://alice:pass9@host/a?mail=x@y") << QStringLiteral("http://host/a?mail=x@y");
        QTest::newRow("a token in the query") << QStringLiteral("https://host:8443/a?model=m&api_token=pass9")
                                              << QStringLiteral("https://host:8443/a?model=m");
        QTest::newRow("an @ in a path") << QStringLiteral("http://host:8080/users/@me")
                                        << QStringLiteral("http://host:8080/users/@me");
    }
    void passwordsNeverReachAMessage()
    {
        QFETCH(QString, url);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(redactUrl(url.toStdString())), shown);
        // and in an error of a request to it
        HttpOptions o = networkbounds::quick();
        o.connectTimeoutMs = 500;
        auto got = httpGet(url.toStdString(), o);
        if (!got.ok()) {
            QVERIFY2(got.error().find("pass9") == std::string::npos && got.error().find("ss9") == std::string::npos,
                got.error().c_str());
        }
    }

    // The HTML report held raw NUL, ESC and U+202E; a terminal line, a newline and U+202E from a server's name
    void controlAndDirectionMarksAreNeitherPrintedNorKept()
    {
        const std::string name = std::string("h200\x1b[2J\n\xe2\x80\xae") + "exe.txt\xc2\x9b" + std::string(1, '\0');
        QCOMPARE(QString::fromStdString(printable(name)), QStringLiteral("h200\\x1b[2J\\n\\u202eexe.txt\\u009b\\x00"));
        QCOMPARE(QString::fromStdString(htmlEscaped(name + "<b>")), QStringLiteral("h200[2J\nexe.txt&lt;b&gt;"));
        // text that only looks like a mark's start stays as it is: an em dash (E2 80 94), an accent (C3 A9)
        const std::string plain = "a\xe2\x80\x94"
                                  "b\xc3\xa9";
        QCOMPARE(printable(plain), plain);
        QCOMPARE(htmlEscaped(plain), plain);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestNetworkBounds)
#include "tst_networkbounds.moc"
