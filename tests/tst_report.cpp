// paretoscope-cli report (docs/report.md): the HTML report of a view of the real InferenceX rows, checked against
// the CLI's own JSON for the same view, every section present, and the command it says reproduces the readings.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <cmath>

#include "core/output/reportdoc.h"
#include "tests/support/seededcli.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::testsupport::seeded;

namespace {

// Text of HTML with its tags taken away and the five escapes the report writes read back.
QString plainText(QString html)
{
    html.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    html.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    html.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    html.replace(QStringLiteral("&quot;"), QStringLiteral("\""));
    html.replace(QStringLiteral("&#39;"), QStringLiteral("'"));
    html.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return html.trimmed();
}

// The rows of the report's table `id`, each a list of its cells' texts.
QList<QStringList> tableRows(const QString& html, const QString& id)
{
    const qsizetype start = html.indexOf(QStringLiteral("<table id=\"%1\">").arg(id));
    const qsizetype end = html.indexOf(QStringLiteral("</table>"), start);
    if (start < 0 || end < 0)
        return {};
    const QString table = html.mid(start, end - start);
    QList<QStringList> rows;
    QRegularExpression row(QStringLiteral("<tr>(.*?)</tr>"));
    QRegularExpression cell(QStringLiteral("<td(?: class=\"n\")?>(.*?)</td>"));
    for (auto r = row.globalMatch(table); r.hasNext();) {
        QStringList cells;
        for (auto c = cell.globalMatch(r.next().captured(1)); c.hasNext();)
            cells << plainText(c.next().captured(1));
        if (!cells.isEmpty())
            rows << cells;
    }
    return rows;
}

double cellNumber(QString text)
{
    text.remove(QLatin1Char(',')).remove(QLatin1Char('$')).remove(QLatin1Char('x'));
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? v : NAN;
}

const QStringList kScope { QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"),
    QStringLiteral("8192"), QStringLiteral("--osl"), QStringLiteral("1024"), QStringLiteral("--precision"),
    QStringLiteral("fp8") };

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString db() const { return m_dir.filePath(QStringLiteral("store.sqlite")); }
    Run run(const QStringList& args)
    {
        return cli(QStringList { args.front(), QStringLiteral("--db"), db() } + args.mid(1), m_dir.path());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const Run imported = run({ QStringLiteral("import"), fixture("inferencex-app-api/benchmarks.json"),
            fixture("inferencex-app-api/evaluations.json") });
        QVERIFY2(imported.code == 0, imported.err.constData());
    }

    // The report of DeepSeek-R1 8k/1k FP8 at 50 tok/s/user against H200, with a plan of 1M tok/s: every section,
    // the readings and ratios equal `ladder --format json`'s, the plan's GPUs equal `plan --format json`'s, and the
    // command under "Reproduce", run, prints the same ladder.
    void reportEqualsTheCli()
    {
        const QString out = m_dir.filePath(QStringLiteral("report.html"));
        const QStringList plan { QStringLiteral("--demand"), QStringLiteral("1000000"), QStringLiteral("--unit"),
            QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("50") };
        const Run r = run(QStringList { QStringLiteral("report") } + kScope + plan
            + QStringList { QStringLiteral("--baseline"), QStringLiteral("h200"), QStringLiteral("--out"), out });
        QVERIFY2(r.code == 0, r.err.constData());
        const QString html = QString::fromUtf8(readAll(out));
        for (const char* section : { "question", "frontier", "readout", "ladder", "plan", "accuracy", "history",
                 "method", "sources", "reproduce" })
            QVERIFY2(html.contains(QStringLiteral("<section id=\"%1\">").arg(QLatin1String(section))), section);
        QCOMPARE(html.count(QStringLiteral("<svg ")), 3); // frontier, cost of speed, history: inline
        // the model by the site's name and its key; numbers right-aligned and words left, as in the PDF: a cell of
        // the numbers' class holds no word, and words stand in cells after the first
        QVERIFY(html.contains(QStringLiteral("Model: DeepSeek-R1-0528 (dsr1).")));
        int numbers = 0;
        for (auto m = QRegularExpression(QStringLiteral("<td class=\"n\">([^<]*)</td>")).globalMatch(html); m.hasNext();
             ++numbers) {
            const QString cell = m.next().captured(1);
            QVERIFY2(!cell.contains(QRegularExpression(QStringLiteral("[A-Za-wyz]"))), qPrintable(cell));
        }
        QVERIFY(numbers > 50);
        QVERIFY(html.contains(QRegularExpression(QStringLiteral("</td><td>[A-Za-z]"))));
        QVERIFY(!html.contains(QStringLiteral("<script")) && !html.contains(QStringLiteral("src=")));

        const Run ladder = run(QStringList { QStringLiteral("ladder") } + kScope
            + QStringList { QStringLiteral("--targets"), QStringLiteral("50"), QStringLiteral("--baseline"),
                QStringLiteral("h200"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(ladder.code, 0);
        const QJsonObject readings = QJsonDocument::fromJson(ladder.out).object();
        const QList<QStringList> rows = tableRows(html, QStringLiteral("readout-table"));
        QCOMPARE(rows.size(), readings.size());
        int compared = 0;
        for (const QStringList& row : rows) {
            const QJsonObject reading = readings[row[0].toLower()].toArray().at(0).toObject();
            QVERIFY2(!reading.isEmpty(), qPrintable(row[0]));
            if (reading[QStringLiteral("tput_per_gpu")].isNull()) {
                QCOMPARE(row[1], QStringLiteral("-"));
                continue;
            }
            // the number, then " (sparse)" where the reading lies across a gap, as the JSON's "sparse" says
            QCOMPARE(row[1].endsWith(QStringLiteral(" (sparse)")), reading[QStringLiteral("sparse")].toBool());
            QVERIFY2(std::abs(cellNumber(row[1].section(QLatin1Char(' '), 0, 0))
                         - reading[QStringLiteral("tput_per_gpu")].toDouble())
                    <= 0.5,
                qPrintable(row.join(QLatin1Char('|'))));
            QVERIFY2(std::abs(cellNumber(row[4]) - reading[QStringLiteral("vs_baseline")].toDouble()) <= 0.005,
                qPrintable(row.join(QLatin1Char('|'))));
            // the reading is one configuration's (the default), the frontier's last, as the ladder's JSON gives
            // them; and why the two differ, in words
            const QJsonValue frontier = reading[QStringLiteral("frontier")];
            if (frontier.isObject())
                QVERIFY2(std::abs(cellNumber(row.last().section(QLatin1Char(' '), 0, 0))
                             - frontier[QStringLiteral("tput_per_gpu")].toDouble())
                        <= 0.5,
                    qPrintable(row.join(QLatin1Char('|'))));
            else
                QCOMPARE(row.last(), QStringLiteral("-"));
            QCOMPARE(reading[QStringLiteral("tput_per_gpu")].toDouble(),
                reading[QStringLiteral("deployable")][QStringLiteral("tput_per_gpu")].toDouble());
            if (reading.contains(QStringLiteral("readings_differ")))
                QVERIFY2(html.contains(reading[QStringLiteral("readings_differ")].toString().toHtmlEscaped()),
                    qPrintable(reading[QStringLiteral("readings_differ")].toString()));
            ++compared;
        }
        QVERIFY(compared >= 5);
        const QList<QStringList> ladderRows = tableRows(html, QStringLiteral("ladder-table"));
        QCOMPARE(ladderRows.size(), readings.size() * 6); // 30 to 200
        // each tier's column: the reading priced as `ladder --tier KEY` prices it (the retail tier, the fifth column)
        const Run retail = run(QStringList { QStringLiteral("ladder") } + kScope
            + QStringList { QStringLiteral("--targets"), QStringLiteral("30,50,75,100,150,200"),
                QStringLiteral("--tier"), QStringLiteral("retail"), QStringLiteral("--format"),
                QStringLiteral("json") });
        QCOMPARE(retail.code, 0);
        const QJsonObject retailJson = QJsonDocument::fromJson(retail.out).object();
        int priced = 0;
        for (const QStringList& row : ladderRows) {
            const QJsonArray list = retailJson[row[0].toLower()].toArray();
            for (const auto& item : list)
                if (const QJsonObject reading = item.toObject();
                    reading[QStringLiteral("target")].toDouble() == row[1].toDouble()
                    && !reading[QStringLiteral("cost_per_mtok")].isNull()) {
                    QVERIFY2(
                        std::abs(cellNumber(row[5]) - reading[QStringLiteral("cost_per_mtok")].toDouble()) <= 0.0005,
                        qPrintable(row.join(QLatin1Char('|'))));
                    ++priced;
                }
        }
        QVERIFY(priced >= 10);

        const Run planned = run(QStringList { QStringLiteral("plan") } + kScope + plan
            + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(planned.code, 0);
        const QJsonObject planJson = QJsonDocument::fromJson(planned.out).object();
        const QList<QStringList> planRows = tableRows(html, QStringLiteral("plan-table"));
        QCOMPARE(planRows.size(), planJson.size());
        for (const QStringList& row : planRows) {
            const QString hw = row[0].section(QLatin1Char(' '), 0, 0).toLower();
            const QJsonValue gpus = planJson[hw].toObject()[QStringLiteral("gpus")];
            QCOMPARE(
                row[2], gpus.isNull() ? QStringLiteral("-") : QLocale(QLocale::English).toString(gpus.toInteger()));
        }

        // the command that reproduces the readings prints the same JSON
        QRegularExpression pre(
            QStringLiteral("<pre id=\"reproduce-text\">(.*?)</pre>"), QRegularExpression::DotMatchesEverythingOption);
        const QString command = plainText(pre.match(html).captured(1));
        QStringList words = QProcess::splitCommand(command);
        QVERIFY2(words.size() > 2 && words.takeFirst() == QStringLiteral("paretoscope-cli"), qPrintable(command));
        const Run again = run(words + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(again.code, 0);
        QCOMPARE(again.out, ladder.out);
    }

    // A view that names several targets (--targets, the window's ladder) has its ladder at them; one target is the
    // readout's, and the ladder then reads 30 to 200.
    void ladderTakesTheViewsTargets()
    {
        const QString out = m_dir.filePath(QStringLiteral("targets.html"));
        const Run r = run(QStringList { QStringLiteral("report") } + kScope
            + QStringList { QStringLiteral("--targets"), QStringLiteral("40,80"), QStringLiteral("--out"), out });
        QVERIFY2(r.code == 0, r.err.constData());
        const QString html = QString::fromUtf8(readAll(out));
        QVERIFY(html.contains(QStringLiteral("The ladder at 40, 80 tok/s/user, every tier")));
        const QList<QStringList> rows = tableRows(html, QStringLiteral("ladder-table"));
        const QList<QStringList> readout = tableRows(html, QStringLiteral("readout-table"));
        QVERIFY(!readout.isEmpty());
        QCOMPARE(rows.size(), readout.size() * 2);
        for (const QStringList& row : rows)
            QVERIFY2(row[1] == QStringLiteral("40") || row[1] == QStringLiteral("80"), qPrintable(row.join(u'|')));
    }

    // The same report as a PDF: a valid file (every cross-reference entry at its object), a section to a page, and
    // its text, as pdftotext reads it, says each section's title and each hardware's reading of the HTML report.
    void pdfReport()
    {
        const QString html = m_dir.filePath(QStringLiteral("same.html"));
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        for (const QString& out : { html, pdf }) {
            const Run r = run(QStringList { QStringLiteral("report") } + kScope
                + QStringList { QStringLiteral("--baseline"), QStringLiteral("h200"), QStringLiteral("--out"), out });
            QVERIFY2(r.code == 0, r.err.constData());
        }
        const QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF-1.4"));
        // the cross-reference table: startxref points at it, each entry at "N 0 obj"
        const qsizetype at = bytes.lastIndexOf("startxref\n");
        QVERIFY(at > 0);
        const qsizetype xref = bytes.mid(at + 10, 20).split('\n').first().toLongLong();
        QVERIFY(bytes.mid(xref).startsWith("xref\n0 "));
        const QList<QByteArray> lines = bytes.mid(xref).split('\n');
        const int objects = lines[1].split(' ')[1].toInt();
        QVERIFY(objects > 10);
        for (int k = 1; k < objects; ++k) {
            const qsizetype offset = lines[2 + k].left(10).toLongLong();
            QVERIFY2(bytes.mid(offset).startsWith(QByteArray::number(k) + " 0 obj"), qPrintable(QString::number(k)));
        }
        QProcess text;
        text.start(QStringLiteral("pdftotext"), { QStringLiteral("-layout"), pdf, QStringLiteral("-") });
        QVERIFY2(text.waitForFinished(30000) && text.exitCode() == 0, text.readAllStandardError().constData());
        const QString words = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY(words.count(QLatin1Char('\f')) >= 10); // a page per section at least
        for (const char* title : { "The question", "The frontier", "The readings at 50 tok/s/user", "The ladder",
                 "Accuracy", "History of the readings", "Method", "Sources", "Reproduce" })
            QVERIFY2(words.contains(QLatin1String(title)), title);
        const QList<QStringList> rows = tableRows(QString::fromUtf8(readAll(html)), QStringLiteral("readout-table"));
        QVERIFY(rows.size() >= 5);
        for (const QStringList& row : rows) {
            const QRegularExpression line(
                QStringLiteral("\\b%1\\s+%2\\s")
                    .arg(QRegularExpression::escape(row[0]), QRegularExpression::escape(row[1])));
            QVERIFY2(line.match(words).hasMatch(), qPrintable(line.pattern()));
        }
    }

    // Names come from other people's files (a model, a hardware, a source URL): in the HTML they are text, never
    // markup, in tables, sentences and every chart's labels; in the PDF a string's parentheses are escaped.
    void outsideNamesStayText()
    {
        const std::string hostile = "<script>alert('x')</script> & \"quoted\" (paren)";
        ReportDoc doc;
        doc.title = hostile;
        ReportSection s { "s", hostile, { hostile }, {}, { { "t", hostile, { hostile }, { { hostile } } } }, hostile };
        ReportChart c;
        c.id = "c";
        c.title = hostile;
        c.xLabel = hostile;
        c.series.push_back({ hostile, "#000000", { { 1, 1 }, { 2, 2 } }, false, true });
        s.charts.push_back(c);
        doc.sections.push_back(s);
        const std::string html = reportHtml(doc);
        QVERIFY(html.find("<script") == std::string::npos);
        QVERIFY(
            html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;") != std::string::npos);
        const std::string pdf = reportPdf(doc);
        QVERIFY(pdf.find("\\(paren\\)") != std::string::npos);
        QVERIFY(pdf.find(" (paren)") == std::string::npos);
    }

    // Without --out FILE.pdf or FILE.html nothing is written and the error says what is needed; a folder that does not
    // exist fails the write and leaves nothing.
    void refusals()
    {
        Run r = run(QStringList { QStringLiteral("report") } + kScope);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out FILE.pdf or --out FILE.html"), r.err.constData());
        const QString missing = m_dir.filePath(QStringLiteral("nowhere/report.html"));
        r = run(QStringList { QStringLiteral("report") } + kScope + QStringList { QStringLiteral("--out"), missing });
        QCOMPARE(r.code, 1);
        QVERIFY(!r.err.isEmpty());
        QVERIFY(!QFile::exists(missing));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestReport)
#include "tst_report.moc"
