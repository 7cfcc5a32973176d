// Every fuzz target's seeds, and every input that once crashed one (tests/fuzz/regressions/TARGET/), through the
// target's body in this build: what libFuzzer found stays fixed in builds without libFuzzer too. Plus the real
// fixtures through the importers, and damaged copies of them (cut short, bytes flipped).
#include <QtTest>

#include <QDir>
#include <QDirIterator>

#include "tests/fuzz/fuzztargets.h"
#include "tests/support/suite.h"

using namespace paretoscope::fuzz;

namespace {

QStringList filesUnder(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

// The real fixtures that are this target's kind of input.
QStringList fixturesFor(const QString& name)
{
    const QString real = fixturesDir();
    if (name == QStringLiteral("import_inferencex_agg"))
        return filesUnder(real + QStringLiteral("/inferencex-agg"));
    if (name == QStringLiteral("import_inferencex_api") || name == QStringLiteral("import_evaluations")
        || name == QStringLiteral("availability"))
        return filesUnder(real + QStringLiteral("/inferencex-app-api"));
    if (name == QStringLiteral("import_vllm") || name == QStringLiteral("import_sglang"))
        return filesUnder(real + QStringLiteral("/inferencex-raw-bench-serving"));
    if (name == QStringLiteral("import_store") || name == QStringLiteral("detect")
        || name == QStringLiteral("flat_record"))
        return filesUnder(real + QStringLiteral("/inferencex-agg"))
            + filesUnder(real + QStringLiteral("/inferencex-raw-bench-serving"));
    if (name == QStringLiteral("recipe"))
        return { (resourcesDir() + QStringLiteral("/engine_recipes.json")) };
    return {};
}

const Target* find(const QString& name)
{
    for (const NamedTarget& t : targets())
        if (QString::fromStdString(t.name) == name)
            return &t.run;
    return nullptr;
}

} // namespace

class TestFuzz : public QObject {
    Q_OBJECT

private slots:
    void everyTargetHasSeeds()
    {
        for (const NamedTarget& t : targets()) {
            QString name = QString::fromStdString(t.name);
            const qsizetype n
                = filesUnder((fuzzDir() + QStringLiteral("/seeds/")) + name).size() + fixturesFor(name).size();
            QVERIFY2(n > 0, qPrintable(name + QStringLiteral(" has no seed")));
        }
    }

    void seedsRegressionsAndDamagedFixtures_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("file");
        for (const NamedTarget& t : targets()) {
            QString name = QString::fromStdString(t.name);
            QStringList files = filesUnder((fuzzDir() + QStringLiteral("/seeds/")) + name)
                + filesUnder((fuzzDir() + QStringLiteral("/regressions/")) + name) + fixturesFor(name);
            for (const QString& f : files)
                QTest::newRow(qPrintable(name + QStringLiteral(": ") + QFileInfo(f).fileName())) << name << f;
        }
    }
    void seedsRegressionsAndDamagedFixtures()
    {
        QFETCH(QString, target);
        QFETCH(QString, file);
        const Target* run = find(target);
        QVERIFY(run);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        auto feed
            = [&](const QByteArray& d) { (*run)(reinterpret_cast<const std::uint8_t*>(d.constData()), d.size()); };
        feed(data);
        // cut short at a few places, and with a byte flipped: an error for the input, never a crash
        for (qsizetype cut : { qsizetype(1), data.size() / 3, data.size() / 2, data.size() - 1 })
            if (cut > 0 && cut < data.size())
                feed(data.left(cut));
        QByteArray flipped = data;
        for (qsizetype i = 7; i < flipped.size(); i += 97)
            flipped[i] = char(flipped[i] ^ 0x5a);
        feed(flipped);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestFuzz)
#include "tests/support/testpaths.h"
#include "tst_fuzz.moc"
