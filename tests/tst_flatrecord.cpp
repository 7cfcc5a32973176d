// The flat record reader, the importer's fast path for records that are flat JSON objects, against simdjson (the
// general parser it stands in for): it may decline any record, but what it takes it must read exactly as simdjson
// does, and it must never take what simdjson refuses.
#include <QtTest>

#include <QDirIterator>

#include <array>
#include <cmath>
#include <cstdlib>
#include <random>

#include "core/import/bytesource.h"
#include "core/import/documentstream.h"
#include "core/import/formats/flatrecord.h"
#include "tests/fuzz/flatcheck.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::fuzz;
using namespace paretoscope::testsupport;

namespace {

// A JSON number in one of many spellings, some of them not JSON at all.
std::string randomNumber(std::mt19937_64& rng)
{
    static const char* fixed[] = { "0", "-0", "0.0", "-0.0", "1", "-1", "1e5", "1E+5", "1e-5", "2.5e-3", "1e22", "1e23",
        "9007199254740993", "9007199254740993.0", "0.1", "0.30000000000000004", "123456789012345678",
        "1234567890123456789", "12345678901234567890", "-9223372036854775808", "5e-324", "2.2250738585072011e-308",
        "1.7976931348623157e308", "1e309", "-1e309", "1e-400", "4.9406564584124654e-324", "0.000000000000000000001",
        "123.456e-30", "7.0e+0", "01", "1.", ".5", "+1", "1e", "1e+", "--1", "-", "1.2.3", "0x10", "NaN", "Infinity",
        "1_000", "00", "-01", "1e0001", "99999999999999999999999999e-10" };
    switch (rng() % 4) {
    case 0:
        return fixed[rng() % std::size(fixed)];
    case 1: { // a latency as Python writes it: up to 17 significant digits
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.*g", 1 + static_cast<int>(rng() % 17),
            std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 80)));
        return buf;
    }
    case 2: { // digits with a point and an exponent anywhere
        std::string s = (rng() % 3 == 0) ? "-" : "";
        s += std::to_string(rng() % 1000);
        if (rng() % 2)
            s += "." + std::to_string(rng());
        if (rng() % 3 == 0)
            s += "e" + std::string(rng() % 2 ? "-" : "") + std::to_string(rng() % 330);
        return s;
    }
    default:
        return std::to_string(static_cast<long long>(rng())) + (rng() % 2 ? "" : ".5");
    }
}

std::string randomString(std::mt19937_64& rng)
{
    static const char* pieces[] = { "b300", "vllm", "fp4", "x", " ", "\\\"", "\\\\", "\\n", "\\u00e9", "\xc3\xa9", "\t",
        "{", "]", ",", ":", "registry/vllm:v0.0", "p99.9_ttft" };
    std::string s = "\"";
    for (int n = static_cast<int>(rng() % 4); n > 0; --n)
        s += pieces[rng() % std::size(pieces)];
    return s + "\"";
}

std::string randomValue(std::mt19937_64& rng)
{
    switch (rng() % 10) {
    case 0:
        return randomString(rng);
    case 1:
        return std::array { "true", "false", "null", "nul", "truex", "False" }[rng() % 6];
    case 2:
        return rng() % 2 ? "{\"k\": 1}" : "[1, 2]";
    default:
        return randomNumber(rng);
    }
}

std::string randomRecord(std::mt19937_64& rng)
{
    static const char* keys[]
        = { "hw", "conc", "tput_per_gpu", "median_tpot", "p99.9_ttft", "refuse", "k\\u0041", "", "model" };
    static const char* spaces[] = { "", " ", "\n", "\t ", "\r\n" };
    auto ws = [&] { return std::string(spaces[rng() % std::size(spaces)]); };
    std::string r = ws() + "{" + ws();
    const int fields = static_cast<int>(rng() % 8);
    for (int i = 0; i < fields; ++i) {
        if (i)
            r += "," + ws();
        r += "\"" + std::string(keys[rng() % std::size(keys)]) + "\"" + ws() + ":" + ws() + randomValue(rng) + ws();
    }
    return r + "}" + ws();
}

// A byte changed, inserted or removed somewhere.
std::string damaged(std::string s, std::mt19937_64& rng)
{
    static const char bytes[] = { '"', '\\', ',', ':', '{', '}', '[', ']', '-', '.', 'e', '0', '9', ' ', 'n', '\x01',
        '\x7f', '\x80', '\xff' };
    if (s.empty())
        return s;
    const std::size_t at = rng() % s.size();
    switch (rng() % 3) {
    case 0:
        s[at] = bytes[rng() % sizeof bytes];
        break;
    case 1:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), bytes[rng() % sizeof bytes]);
        break;
    default:
        s.erase(at, 1);
        break;
    }
    return s;
}

} // namespace

class TestFlatRecord : public QObject {
    Q_OBJECT
private slots:
    // Every record of the real fixtures named here: both ways agree; and every record of the flat formats (InferenceX
    // aggregate records, vLLM results: one level of keys) takes the fast path. The API's rows nest their metrics
    // (benchmarks, evaluations) or are small (availability): read, but not counted as flat.
    void realRecordsReadAsSimdjsonReadsThem_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<bool>("allFlat");
        const QString real = (fixturesDir() + QStringLiteral("/"));
        const auto under = [&](const QString& dir) {
            QStringList out;
            QDirIterator it(real + dir, { QStringLiteral("*.json") }, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                out << it.next();
            out.sort();
            return out;
        };
        QTest::newRow("inferencex-agg") << under(QStringLiteral("inferencex-agg")) << true;
        QTest::newRow("inferencex-raw-bench-serving") << under(QStringLiteral("inferencex-raw-bench-serving")) << true;
        QTest::newRow("api benchmarks") << QStringList { real + QStringLiteral("inferencex-app-api/benchmarks.json") }
                                        << false;
        QTest::newRow("api availability")
            << QStringList { real + QStringLiteral("inferencex-app-api/availability.json") } << false;
        QTest::newRow("api evaluations") << QStringList { real + QStringLiteral("inferencex-app-api/evaluations.json") }
                                         << false;
    }

    void realRecordsReadAsSimdjsonReadsThem()
    {
        QFETCH(QStringList, files);
        QFETCH(bool, allFlat);
        int records = 0, flat = 0;
        for (const QString& path : files) {
            QVERIFY2(QFile::exists(path), qPrintable(path));
            MemorySource source(path.toStdString(), readAll(path).toStdString());
            auto st = forEachJsonElement(
                source, {},
                [&](const JsonElement& e) -> Status {
                    bool took = false;
                    const std::string mismatch = flatRecordMismatch(e.text, &took);
                    if (!mismatch.empty())
                        return Error { path.toStdString() + ": " + mismatch };
                    ++records;
                    flat += took;
                    return ok();
                },
                nullptr);
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().c_str());
        }
        QVERIFY(records > 0);
        if (allFlat)
            QVERIFY2(flat == records, qPrintable(QStringLiteral("%1 of %2 records flat").arg(flat).arg(records)));
    }

    // Numbers one by one: the same double as simdjson, bit for bit (-0 included), or declined.
    void numbersAreTheDoublesSimdjsonGives()
    {
        std::mt19937_64 rng(5);
        int took = 0;
        for (int i = 0; i < 200000; ++i) {
            const std::string record = "{\"n\": " + randomNumber(rng) + "}";
            bool flat = false;
            const std::string mismatch = flatRecordMismatch(record, &flat);
            QVERIFY2(mismatch.empty(), qPrintable(QString::fromStdString(record + ": " + mismatch)));
            took += flat;
        }
        QVERIFY2(took > 120000, qPrintable(QString::number(took))); // most spellings are JSON numbers, which it takes
        // and against the C library's strtod (correctly rounded), numbers it must take: the exact fast path, its
        // edges, and those beyond it
        struct Capture final : RecordMapper {
            double value = -1;
            void begin() override { }
            Status field(std::string_view, const FieldValue& v) override
            {
                value = v.number;
                return ok();
            }
            Result<RunRecord> finish() override { return RunRecord {}; }
        };
        for (const char* n : { "0.1", "2.5e-3", "1e22", "1e23", "9007199254740993.0", "9007199254740992.5",
                 "0.30000000000000004", "0.0509093689254954", "4547.78234171253", "123456.78901234567891",
                 "1.7976931348623157e308", "5e-324", "2.2250738585072011e-308", "3.14159265358979323846264338" }) {
            const std::string text = std::string("{\"n\": ") + n + "}";
            Capture c;
            Status st = ok();
            QVERIFY2(readFlatRecord(text, text.size(), c, st), n);
            QCOMPARE(c.value, std::strtod(n, nullptr));
        }
    }

    // Random records and damaged copies of them: never a record simdjson refuses, never a different reading.
    void randomAndDamagedRecordsNeverDisagree()
    {
        std::mt19937_64 rng(7);
        int took = 0, declined = 0;
        for (int i = 0; i < 60000; ++i) {
            std::string record = randomRecord(rng);
            if (i % 2)
                record = damaged(record, rng);
            bool flat = false;
            const std::string mismatch = flatRecordMismatch(record, &flat);
            QVERIFY2(mismatch.empty(), qPrintable(QString::fromStdString(record + ": " + mismatch)));
            (flat ? took : declined)++;
        }
        QVERIFY(took > 5000);
        QVERIFY(declined > 5000);
    }

    // A field the mapper refuses stops the fields, with its error; the rest of the record is still checked, and a
    // syntax error after it leaves the record to simdjson (whose error is about the syntax).
    void aRefusedFieldStopsTheFieldsNotTheCheck()
    {
        bool flat = false;
        QVERIFY(flatRecordMismatch(R"({"a": 1, "refuse": 2, "b": 3})", &flat).empty());
        QVERIFY(flat);
        QVERIFY(flatRecordMismatch(R"({"a": 1, "refuse": 2, "b": 3,})", &flat).empty());
        QVERIFY(!flat);
        QVERIFY(flatRecordMismatch(R"({"a": 1, "refuse": 2, "b": {"c": 3}})", &flat).empty());
        QVERIFY(!flat);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestFlatRecord)
#include "tests/support/testpaths.h"
#include "tst_flatrecord.moc"
