// The record splitter of the JSON importers: it must cut a stream into exactly the records that were written,
// whatever the strings inside them hold (escaped quotes, backslashes, brackets) and wherever the reads end.
#include <QtTest>

#include <algorithm>
#include <random>

#include "core/import/documentstream.h"
#include "core/import/hashingreadahead.h"
#include "core/model/sha256.h"
#include "tests/support/suite.h"

using namespace paretoscope;

namespace {

// Hands out the data a few bytes at a time, so records are cut across many reads; with `failAt`, the bytes up to
// there and then a read error, as from a disk that went away.
class TrickleSource final : public ByteSource {
public:
    TrickleSource(std::string data, std::size_t step, std::size_t failAt = std::string::npos)
        : m_data(std::move(data))
        , m_step(step)
        , m_end(std::min(failAt, m_data.size()))
        , m_fails(failAt != std::string::npos)
    {
    }
    Result<std::size_t> read(char* dst, std::size_t n) override
    {
        if (m_fails && m_pos == m_end)
            return Error { m_name + ": read failed: Input/output error" };
        std::size_t k = std::min({ n, m_step, m_end - m_pos });
        std::memcpy(dst, m_data.data() + m_pos, k);
        m_pos += k;
        return k;
    }
    std::uint64_t size() const override { return m_data.size(); }
    const std::string& name() const override { return m_name; }

private:
    std::string m_data;
    std::size_t m_step;
    std::size_t m_end;
    bool m_fails;
    std::size_t m_pos = 0;
    std::string m_name = "trickle.json";
};

std::string randomBytes(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string s(n, '\0');
    for (char& c : s)
        c = static_cast<char>(rng());
    return s;
}

// Reads everything through the read-ahead in pieces of random sizes.
Result<std::string> readAll(HashingReadAhead& src, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string out, piece;
    for (;;) {
        piece.resize(1 + rng() % 300000);
        auto got = src.read(piece.data(), piece.size());
        if (!got)
            return Error { got.error() };
        if (*got == 0)
            return out;
        out.append(piece.data(), *got);
    }
}

// A string value whose characters the splitter must not take for structure, at a varying offset.
std::string trickyString(std::mt19937& rng)
{
    static const char* pieces[] = { "\\\"", "\\\\", "{", "}", "[", "]", "\\\\\\\"", "x", "\\n", ",", "\\u005d" };
    std::string s = "\"";
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i)
        s += pieces[rng() % std::size(pieces)];
    return s + "\"";
}

struct Written {
    std::string text;
    std::vector<std::string> records;
    std::vector<std::uint64_t> lines;
};

Written writeArray(int count, unsigned seed)
{
    std::mt19937 rng(seed);
    Written w;
    w.text = "[";
    std::uint64_t line = 1;
    for (int i = 0; i < count; ++i) {
        if (i)
            w.text += ",";
        // whitespace and newlines between records
        for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
            w.text += "\n ";
            ++line;
        }
        std::string r = "{" + std::string(rng() % 17, ' ') + "\"model\": " + trickyString(rng)
            + ", \"nested\": {\"list\": [1, [2, {\"k\": " + trickyString(rng)
            + "}]], \"e\": {}}, \"n\": " + std::to_string(i) + "}";
        w.records.push_back(r);
        w.lines.push_back(line);
        w.text += r;
    }
    w.text += "\n]\n";
    return w;
}

} // namespace

class TestDocumentStream : public QObject {
    Q_OBJECT
private slots:
    void cutsExactlyTheWrittenRecords_data()
    {
        QTest::addColumn<int>("step");
        QTest::newRow("1 byte per read") << 1;
        QTest::newRow("7 bytes per read") << 7;
        QTest::newRow("4 KB per read") << 4096;
        QTest::newRow("whole file") << (1 << 30);
    }

    void cutsExactlyTheWrittenRecords()
    {
        QFETCH(int, step);
        for (unsigned seed = 1; seed <= 20; ++seed) {
            Written w = writeArray(200, seed);
            TrickleSource src(w.text, static_cast<std::size_t>(step));
            std::vector<std::string> got;
            std::vector<std::uint64_t> lines;
            auto st = forEachJsonElement(
                src, {},
                [&](const JsonElement& el) -> Status {
                    got.emplace_back(el.text);
                    lines.push_back(el.line);
                    return ok();
                },
                nullptr);
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().c_str());
            QCOMPARE(got.size(), w.records.size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                QCOMPARE(QByteArray::fromStdString(got[i]), QByteArray::fromStdString(w.records[i]));
                QCOMPARE(lines[i], w.lines[i]);
                // and each record is a complete JSON object to an independent parser
                QJsonParseError err;
                QJsonDocument::fromJson(QByteArray::fromStdString(got[i]), &err);
                QCOMPARE(err.error, QJsonParseError::NoError);
            }
        }
    }

    void escapesAtEveryOffsetOfTheScanBlocks()
    {
        // The splitter reads 64 bytes at a time; an escaped quote, and an escaped backslash before a closing quote,
        // are put at every offset across two block boundaries, with brackets inside the strings.
        for (int pad = 0; pad < 140; ++pad) {
            const std::string record = "{" + std::string(static_cast<std::size_t>(pad), ' ')
                + "\"k\": \"x\\\"]}\", \"j\": \"y\\\\\", \"z\": [1, {\"w\": \"}\"}], \"v\": \"\\\\\\\"{\"}";
            const std::string text = "[" + record + ",\n" + record + "]";
            TrickleSource src(text, 1 << 20);
            std::vector<std::string> got;
            auto st = forEachJsonElement(
                src, {},
                [&](const JsonElement& el) -> Status {
                    got.emplace_back(el.text);
                    return ok();
                },
                nullptr);
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().c_str());
            QCOMPARE(got.size(), std::size_t(2));
            QCOMPARE(QByteArray::fromStdString(got[0]), QByteArray::fromStdString(record));
            QCOMPARE(QByteArray::fromStdString(got[1]), QByteArray::fromStdString(record));
        }
    }

    // The import's reader: every byte in order across its chunks, whatever the read sizes; the hash of exactly those
    // bytes (checked against the one-shot hash); what the caller leaves unread is hashed too.
    void readAheadHandsOutEveryByteAndHashesIt()
    {
        const std::size_t chunk = HashingReadAhead::kChunk;
        for (std::size_t size : { std::size_t(0), std::size_t(1), chunk - 1, chunk, chunk + 1, 7 * chunk / 2 }) {
            const std::string data = randomBytes(size, static_cast<unsigned>(size));
            TrickleSource inner(data, 100003); // the chunks fill over several inner reads
            HashingReadAhead src(inner);
            auto got = readAll(src, 7);
            QVERIFY(got.ok());
            QVERIFY2(*got == data, qPrintable(QStringLiteral("size %1").arg(size)));
            auto sha = src.sha256Hex();
            QVERIFY(sha.ok());
            QCOMPARE(*sha, Sha256::of(data));
        }
        const std::string data = randomBytes(3 * chunk, 3);
        TrickleSource inner(data, 1 << 20);
        HashingReadAhead partly(inner);
        char head[10];
        QCOMPARE(*partly.read(head, sizeof head), sizeof head);
        QCOMPARE(*partly.sha256Hex(), Sha256::of(data));
        QCOMPARE(Sha256::of("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    // A read error reaches the caller after the bytes read before it, and the hash is refused; a reader left
    // half-way (an import that failed or was cancelled) ends without waiting for the rest.
    void readAheadErrorComesAfterTheGoodBytes()
    {
        const std::string data = randomBytes(5 * HashingReadAhead::kChunk, 5);
        const std::size_t good = 3 * HashingReadAhead::kChunk / 2 + 17;
        {
            TrickleSource inner(data, 70001, good);
            HashingReadAhead src(inner);
            std::string out;
            char buf[65536];
            Status error = ok();
            for (;;) {
                auto got = src.read(buf, sizeof buf);
                if (!got) {
                    error = Error { got.error() };
                    break;
                }
                QVERIFY(*got > 0);
                out.append(buf, *got);
            }
            QCOMPARE(out.size(), good);
            QVERIFY(out == data.substr(0, good));
            QVERIFY2(QString::fromStdString(error.error()).contains(QStringLiteral("trickle.json: read failed")),
                error.error().c_str());
            QVERIFY(!src.sha256Hex().ok());
        }
        for (int k = 0; k < 20; ++k) { // left at once or after one read: the destructor stops the reading thread
            TrickleSource inner(data, 1 << 16);
            HashingReadAhead src(inner);
            if (k % 2) {
                char c;
                QCOMPARE(*src.read(&c, 1), std::size_t(1));
                QCOMPARE(c, data[0]);
            }
        }
    }

    void unterminatedStringIsTruncation()
    {
        // an escaped quote does not end the string: the record never ends
        TrickleSource src(R"([{"model": "a\"}, {"n": 1}])", 5);
        auto st = forEachJsonElement(
            src, {}, [](const JsonElement&) -> Status { return ok(); }, nullptr);
        QVERIFY(!st.ok());
        QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("truncated")), st.error().c_str());
        QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("record 1")), st.error().c_str());
    }
};

PARETOSCOPE_GUILESS_SUITE(TestDocumentStream)
#include "tst_documentstream.moc"
