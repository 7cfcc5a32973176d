// Data from someone else is bounded: costs finite or refused, prices and demands within bounds, collected results
// checked against their task, outside files read regular and bounded, control characters escaped in messages.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/analysis/numberformat.h"
#include "core/analysis/tco.h"
#include "core/analysis/viewoptions.h"
#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionstore.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"
#include "core/output/reports.h"
#include "core/store/storecheck.h"
#include "tests/support/clichild.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/simtasks.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

namespace fs = std::filesystem;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARETOSCOPE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(PARETOSCOPE_ASAN)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

} // namespace

class TestOutsideBounds : public QObject {
    Q_OBJECT

private slots:
    // 8. Costs and prices must be finite and sane, refused with the field named; a demand too small to size says so;
    // tables print any magnitude.
    void costsAreFiniteOrRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("years 1e-308") << "amortization_years"
                                      << "1e-308";
        QTest::newRow("capex 1e308") << "capex_per_gpu_usd"
                                     << "1e308";
        QTest::newRow("power 1e308") << "power_kw"
                                     << "1e308";
        QTest::newRow("electricity 1e308") << "electricity_usd_per_kwh"
                                           << "1e308";
        QTest::newRow("pue 1e9") << "pue"
                                 << "1e9";
        QTest::newRow("other 1e300") << "other_opex_usd_per_gpu_hour"
                                     << "1e300";
    }

    void costsAreFiniteOrRefused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        nlohmann::json entry { { "capex_per_gpu_usd", 40000 }, { "amortization_years", 4 }, { "power_kw", 1.9 },
            { "electricity_usd_per_kwh", 0.1 }, { "pue", 1.2 }, { "other_opex_usd_per_gpu_hour", 0.2 } };
        std::string doc = nlohmann::json { { "source", "s" }, { "hardware", { { "b300", entry } } } }.dump();
        const std::string key = "\"" + field.toStdString() + "\":";
        const std::size_t at = doc.find(key) + key.size();
        doc.replace(at, doc.find_first_of(",}", at) - at, value.toStdString());
        auto tco = parseTco(doc, "tco.json");
        QVERIFY2(!tco, doc.c_str());
        QVERIFY2(QString::fromStdString(tco.error())
                     .startsWith(QStringLiteral("tco.json: hardware.b300.") + field + QStringLiteral(": must be")),
            tco.error().c_str());
    }

    void pricesAndDemandsOutOfBounds()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code == 0);
        const QStringList scope { QStringLiteral("--db"), db, QStringLiteral("--model"),
            QStringLiteral("DeepSeek-V4.1-Flash"), QStringLiteral("--workload"), QStringLiteral("agentic coding") };
        auto price = cli(QStringList { QStringLiteral("ladder") } + scope
            + QStringList { QStringLiteral("--price"), QStringLiteral("1e308") });
        QCOMPARE(price.code, 2);
        QVERIFY2(price.err.contains("--price must be"), price.err.constData());
        auto planPrice = cli(QStringList { QStringLiteral("plan") } + scope
            + QStringList { QStringLiteral("--demand"), QStringLiteral("1e6"), QStringLiteral("--unit"),
                QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("50"), QStringLiteral("--price"),
                QStringLiteral("1e308") });
        QVERIFY(planPrice.code != 0);
        QVERIFY2(planPrice.err.contains("at most 10,000"), planPrice.err.constData());
        auto tiny = cli(QStringList { QStringLiteral("plan") } + scope
            + QStringList { QStringLiteral("--demand"), QStringLiteral("5e-324"), QStringLiteral("--unit"),
                QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("50") });
        QVERIFY(tiny.code != 0);
        QVERIFY2(tiny.err.contains("too small to size"), tiny.err.constData());
        auto huge = cli(QStringList { QStringLiteral("plan") } + scope
            + QStringList { QStringLiteral("--demand"), QStringLiteral("1e300"), QStringLiteral("--unit"),
                QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("50") });
        QVERIFY(huge.code != 0);
        QVERIFY2(huge.err.contains("too large to size"), huge.err.constData());
        // every magnitude in a table: with an exponent past what a column holds, never cut
        QCOMPARE(QString::fromStdString(money(8.458e96)), QStringLiteral("$8.458e+96"));
        QCOMPARE(QString::fromStdString(withThousands(1e100)), QStringLiteral("1.000e+100"));
        QCOMPARE(QString::fromStdString(withThousands(123456789)), QStringLiteral("123,456,789"));
        QCOMPARE(QString::fromStdString(money(0.0021)), QStringLiteral("$0.002"));
    }

    // 9. collect imports only Paretoscope JSON of the task's own configuration; a mismatch names the task and field.
    void collectChecksEachResultAgainstItsTask_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("why");
        QTest::newRow("model") << "model"
                               << "task 0 (a): field model";
        QTest::newRow("lengths") << "isl"
                                 << "task 0 (a): field isl/osl";
        QTest::newRow("concurrency") << "concurrency"
                                     << "task 0 (a): field concurrency: the result says 7";
        QTest::newRow("gpus") << "gpus"
                              << "task 0 (a): field gpus";
        QTest::newRow("an aggregate file") << "format"
                                           << "where only paretoscope-json is taken: refused";
    }

    void collectChecksEachResultAgainstItsTask()
    {
        QFETCH(QString, field);
        QFETCH(QString, why);
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString() + "/sweep";
        const std::string text = simMatrix({ "a" });
        auto m = parseMatrix(text, "m.json");
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        RunRecord r = simResult(m->configurations[0], 1);
        if (field == QStringLiteral("model"))
            r.model = "another-model";
        else if (field == QStringLiteral("isl"))
            r.isl = 8192;
        else if (field == QStringLiteral("concurrency"))
            r.concurrency = 7;
        else if (field == QStringLiteral("gpus"))
            r.gpus = 64;
        if (field == QStringLiteral("format"))
            QVERIFY(fs::copy_file(fixture("inferencex-agg/agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_"
                                          "spec-mtp_conc4_MI355-gbt350-odcdh5-wbb3.json")
                                      .toStdString(),
                dir + "/results/0.json"));
        else
            writeText(dir + "/results/0.json", "[" + runRecordJson(r) + "]");
        writeText(dir + "/status/0", "finished\n");
        auto store = openTempStore(tmp);
        auto st = arrayStatus(dir, store->path());
        QVERIFY(st);
        auto collected = collectFinished(*store, dir, *st);
        QCOMPARE(collected.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(collected[0].error).contains(why), collected[0].error.c_str());
        QCOMPARE(store->runCount(), std::uint64_t(0));
        QVERIFY(!st->tasks[0].collected);
        // the task's own result is taken
        writeText(dir + "/results/0.json", "[" + runRecordJson(simResult(m->configurations[0], 1)) + "]");
        collected = collectFinished(*store, dir, *st);
        QVERIFY2(collected[0].error.empty(), collected[0].error.c_str());
        QCOMPARE(collected[0].imported, std::size_t(1));
    }

    // 10. What is read from outside files is bounded: a 1 GB TCO file is refused unread, a 100 MB status file is not
    // printed whole, a journal line of 1 GB is skipped without being held in memory.
    void outsideFilesAreBounded()
    {
        QTemporaryDir tmp;
        const std::string base = tmp.path().toStdString();
        const auto sparse = [](const std::string& path, off_t size, const std::string& head) {
            writeText(path, head);
            return ::truncate(path.c_str(), size) == 0;
        };
        QVERIFY(sparse(base + "/tco.json", off_t(1) << 30, "{\"source\": \""));
        auto tco = readRegularFile(base + "/tco.json", limits::kSmallJson);
        QVERIFY(!tco);
        QVERIFY2(QString::fromStdString(tco.error()).contains(QStringLiteral("refused unread")), tco.error().c_str());

        const std::string dir = base + "/sweep";
        const std::string text = simMatrix({ "a" });
        auto m = parseMatrix(text, "m.json");
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        QVERIFY(sparse(dir + "/status/0", off_t(100) << 20, "failed: "));
        auto status
            = CliChild({ QStringLiteral("cluster"), QStringLiteral("status"), QString::fromStdString(dir) }).wait(60);
        QCOMPARE(status.code, 0);
        QVERIFY2(status.out.size() < 4096, qPrintable(QString::number(status.out.size())));
        QVERIFY(status.out.contains("larger than 65536 bytes"));

        const QString db = QString::fromStdString(base + "/store.sqlite");
        long long id = 0;
        {
            auto store = openTempStore(tmp);
            auto made = createSession(*store, quickConfig("http://127.0.0.1:1"), "");
            QVERIFY(made && finishSession(*store, *made, "failed", "full"));
            id = *made;
        }
        const std::string folder = base + "/store.sqlite-sessions";
        fs::create_directories(folder);
        QVERIFY(sparse(folder + "/session-" + std::to_string(id) + ".jsonl", off_t(1) << 30, "{\"session\":"));
        CliChild recover({ QStringLiteral("sessions"), QStringLiteral("--db"), db, QStringLiteral("--recover") });
        auto done = recover.wait(120);
        QCOMPARE(done.code, 1);
        QVERIFY2(done.out.contains("longer than 268435456 bytes"), done.out.constData());
        // held to the line's limit (256 MiB), not the file's 1 GB (AddressSanitizer's shadow and quarantine about
        // double what a process holds)
        QVERIFY2(recover.peakKb() < (long(limits::kJournalLine / 1024) + 64L * 1024) * (kSanitized ? 3 : 1),
            qPrintable(QString::number(recover.peakKb())));
    }

    // 11. Control characters of values are printed escaped; the same hardware twice in a TCO file is an error.
    void messagesEscapeControlCharacters()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code == 0);
        auto r = cli({ QStringLiteral("ladder"), QStringLiteral("--db"), db, QStringLiteral("--model"),
            QString::fromUtf8("x\x1b[2J\rgone\xc2\x9b"), QStringLiteral("--isl"), QStringLiteral("1"),
            QStringLiteral("--osl"), QStringLiteral("1") });
        QCOMPARE(r.code, 1);
        QVERIFY2(!r.err.contains('\x1b') && !r.err.contains('\r') && !r.err.contains("\xc2\x9b"), r.err.constData());
        QVERIFY2(r.err.contains("\\x1b[2J\\rgone\\u009b"), r.err.constData());
        QCOMPARE(QString::fromStdString(printable(std::string("a\0b\nc", 5))), QStringLiteral("a\\x00b\\nc"));

        auto twice = parseTco(R"({"source": "s", "hardware": {"b300": {"capex_per_gpu_usd": 1, "amortization_years": 4,
            "power_kw": 1, "electricity_usd_per_kwh": 0.1, "pue": 1, "other_opex_usd_per_gpu_hour": 0},
            "b300": {"capex_per_gpu_usd": 2, "amortization_years": 4, "power_kw": 1, "electricity_usd_per_kwh": 0.1,
            "pue": 1, "other_opex_usd_per_gpu_hour": 0}}})",
            "tco.json");
        QVERIFY(!twice);
        QVERIFY2(QString::fromStdString(twice.error()).contains(QStringLiteral("\"b300\" is given twice")),
            twice.error().c_str());
    }

    // parseOutsideJson builds the document nlohmann's own parser builds (an array of 20,000 objects with nested arrays,
    // objects, escapes and every kind of number), refuses a key given twice at any depth and text that is not JSON
    // (linear in the elements: bench_parse's outside_json figures, docs/testing.md)
    void outsideJsonIsTheParsersDocument()
    {
        std::string text = "[";
        for (int i = 0; i < 20000; ++i) {
            if (i)
                text += ',';
            text += "{\"date\":\"2026-01-" + std::to_string(i % 28 + 1) + "\",\"n\":" + std::to_string(i - 10000)
                + ",\"big\":18446744073709551615,\"x\":" + std::to_string(i)
                + ".25e-3,\"s\":\"a\\u00e9\\n\\\"q\",\"b\":" + (i % 2 ? "true" : "false")
                + ",\"z\":null,\"l\":[1,[2,{\"k\":[]}],{}]}";
        }
        text += "]";
        const auto parsed = parseOutsideJson(text, "rows.json", 8);
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        QVERIFY(*parsed == nlohmann::json::parse(text));
        QCOMPARE(int(parsed->size()), 20000);
        QCOMPARE((*parsed)[19999]["l"][1][1]["k"].size(), std::size_t(0));
        QCOMPARE(*parseOutsideJson("42", "n.json", 8), nlohmann::json(42));

        const auto twice = parseOutsideJson("[{\"a\":1},{\"b\":{\"c\":1,\"c\":2}}]", "t.json", 8);
        QVERIFY(!twice);
        QCOMPARE(QString::fromStdString(twice.error()),
            QStringLiteral("t.json: the key \"c\" is given twice in one object"));
        QVERIFY(parseOutsideJson("[{\"a\":1},{\"a\":2}]", "t.json", 8)); // one key in each of two objects
        for (const char* bad : { "[1,2,]", "{\"a\":1} x", "", "{\"a\"}", "[\"\\x\"]" }) {
            const auto r = parseOutsideJson(bad, "bad.json", 8);
            QVERIFY2(!r && r.error() == "bad.json: not valid JSON", bad);
        }
    }

    // A signal while writing left ".NAME.tmp-..."; a replaced 0600 file became 0644; names of 230 to 255 bytes failed
    void aReplacedFileIsWholeKeepsItsModeAndAnyName()
    {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        const std::string report = folder + "/report.html";
        QVERIFY(replaceFile(report, "first", 0600));
        QVERIFY(replaceFile(report, "second"));
        struct stat st { };
        QCOMPARE(::stat(report.c_str(), &st), 0);
        QCOMPARE(st.st_mode & 07777, 0600u);
        QCOMPARE(*readRegularFile(report, 100), std::string("second"));
        const std::string longest = folder + "/" + std::string(250, 'r') + ".html"; // 255 bytes, the most a name has
        QVERIFY2(replaceFile(longest, "long"), "a name of 255 bytes");
        QCOMPARE(*readRegularFile(longest, 100), std::string("long"));
        // killed while writing 512 MB: the old file whole, and nothing else in the folder
        const std::string big(512u << 20, 'x');
        const pid_t child = ::fork();
        if (child == 0) {
            (void)replaceFile(report, big);
            ::_exit(0);
        }
        ::usleep(30000);
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        QCOMPARE(::stat(report.c_str(), &st), 0); // the old file whole, or (killed after the rename) the new one
        QVERIFY2(
            st.st_size == 6 || st.st_size == static_cast<off_t>(big.size()), qPrintable(QString::number(st.st_size)));
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(folder))
            names.push_back(e.path().filename().string());
        QCOMPARE(names.size(), std::size_t(2));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestOutsideBounds)
#include "tst_outsidebounds.moc"
