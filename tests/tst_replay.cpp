// The as-of replay as a video (docs/report.md), on the InferenceX fixture: `paretoscope-cli replay` writes one frame
// per run date (counted from the fixture file itself) at the size asked, read back with FFmpeg's libraries; its first
// and last frames equal the chart exported as of those dates (read from the store as of the day, not from the
// timeline the replay steps through) within the codec's tolerance; each frame's caption gives the date and the
// readings the CLI's ladder prints; refusals write nothing; the window's File > Export replay... writes the same
// video a frame a turn, and its cancel writes nothing.
#include <QtTest>

#include <cmath>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <set>

#include "core/analysis/chartdata.h"
#include "core/analysis/pricing.h"
#include "core/analysis/scopetimeline.h"
#include "core/model/displaynames.h"
#include "core/model/runselection.h"
#include "core/store/runstore.h"
#include "tests/support/clichild.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "tests/support/videoreadback.h"
#include "widgets/chart/replayexport.h"
#include "widgets/chart/replayframes.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;
using paretoscope::test::compareImages;
using paretoscope::test::readVideo;

namespace {

// The run dates of the fixture's DeepSeek-R1 8k/1k rows, read from the file (every row is dated; one model).
std::vector<QString> fixtureDates(int isl, int osl)
{
    const QJsonArray rows
        = QJsonDocument::fromJson(readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json")))).array();
    std::set<QString> dates;
    for (const auto& r : rows) {
        const QJsonObject o = r.toObject();
        if (o.value(QStringLiteral("isl")).toInt() == isl && o.value(QStringLiteral("osl")).toInt() == osl)
            dates.insert(o.value(QStringLiteral("date")).toString().left(10));
    }
    return { dates.begin(), dates.end() };
}

struct CliRun {
    int code = -1;
    QJsonObject json;
    QString err;
};

CliRun runReplay(const QStringList& args)
{
    QProcess p;
    p.start(cliProgram(), QStringList { QStringLiteral("replay") } + args);
    CliRun run;
    if (!p.waitForFinished(120000))
        return run;
    run.code = p.exitCode();
    run.json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    run.err = QString::fromUtf8(p.readAllStandardError());
    return run;
}

} // namespace

class TestReplay : public ExplorerFixture {
    Q_OBJECT
private:
    QString store() const { return m_dir.filePath(QStringLiteral("store.sqlite")); }
    QStringList scopeArgs() const
    {
        return { QStringLiteral("--db"), store(), QStringLiteral("--model"), QStringLiteral("dsr1"),
            QStringLiteral("--isl"), QStringLiteral("8192"), QStringLiteral("--osl"), QStringLiteral("1024") };
    }
    // The chart as exported as of a day: the scope read from the store as of it, drawn with the replay's look.
    QImage chartAsOf(const QString& day, QSize size)
    {
        auto opened = openStore(store().toStdString(), false);
        if (!opened.ok())
            return {};
        Scope scope;
        scope.model = "dsr1";
        scope.isl = 8192;
        scope.osl = 1024;
        auto data = std::make_shared<ScopeData>(loadScopeData(
            **opened,
            [&] {
                Scope s = scope;
                s.asOf = day.toStdString();
                return s;
            }(),
            TputMetric::Total));
        // the caption as the replay writes it (its words are checked apart, against the CLI's ladder)
        ReplayLook look;
        look.priceLabel = QString::fromStdString(bundledPricing().defaultTier().label);
        look.storeName = QStringLiteral("store.sqlite");
        const ReplayFrames captions({ nullptr, scope, {}, TputMetric::Total, {} }, look, bundledPricing());
        // laid out as a replay lays out a frame of that size (as a slide, past 1280 pixels), written as a PNG would be
        const ReplayLayout at = replayLayout(size);
        StagedExport chart(data, look.state, bundledPricing(), at.layout, at.scale, captions.captionOf(*data), size);
        return chart.render();
    }

private slots:
    void initTestCase() { openExplorer("tst_replay"); }

    // One frame per run date and the hold, at the size and rate asked, H.264 in MP4 and an animated GIF.
    void aFramePerRunDate_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("fps");
        QTest::addColumn<QString>("hold");
        QTest::addColumn<int>("holdFrames");
        QTest::newRow("mp4") << "replay.mp4"
                             << "h264" << QSize(640, 360) << 4 << "1" << 4;
        QTest::newRow("gif") << "replay.gif"
                             << "gif" << QSize(480, 270) << 2 << "0" << 0;
        QTest::newRow("mp4 default hold") << "held.mp4"
                                          << "h264" << QSize(320, 180) << 5 << "" << 10;
    }
    void aFramePerRunDate()
    {
        QFETCH(QString, name);
        QFETCH(QString, codec);
        QFETCH(QSize, size);
        QFETCH(int, fps);
        QFETCH(QString, hold);
        QFETCH(int, holdFrames);
        const std::vector<QString> dates = fixtureDates(8192, 1024);
        QVERIFY(dates.size() > 10);
        const QString out = m_dir.filePath(name);
        QStringList args = scopeArgs();
        args << QStringLiteral("--out") << out << QStringLiteral("--fps") << QString::number(fps)
             << QStringLiteral("--size") << QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        if (!hold.isEmpty())
            args << QStringLiteral("--hold") << hold;
        const CliRun run = runReplay(args);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QCOMPARE(run.json.value(QStringLiteral("days")).toInt(), int(dates.size()));
        QCOMPARE(run.json.value(QStringLiteral("first")).toString(), dates.front());
        QCOMPARE(run.json.value(QStringLiteral("last")).toString(), dates.back());
        QCOMPARE(run.json.value(QStringLiteral("frames")).toInt(), int(dates.size()) + holdFrames);

        const auto video = readVideo(out);
        QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
        QCOMPARE(video.codec, codec);
        QCOMPARE(QSize(video.width, video.height), size);
        QCOMPARE(video.frames, int(dates.size()) + holdFrames);
        if (codec == QLatin1String("h264"))
            QCOMPARE(video.fps, double(fps));
    }

    // The first and the last frame are the chart as exported as of those dates (within the codec's tolerance), and
    // each is told from the other's chart: a frame drawn as of the wrong day would fail.
    void firstAndLastFramesAreTheChartAsOfTheirDates_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("meanWithin");
        QTest::addColumn<double>("shareWithin");
        QTest::addColumn<QSize>("size");
        // H.264 at CRF 18 with 4:2:0 colour: thin coloured lines lose some chroma; a GIF only its palette's rounding.
        // 1600 x 900 is laid out as a slide (1280 x 720, drawn at 1.25x)
        QTest::newRow("mp4") << "frames.mp4" << 2.0 << 0.02 << QSize(960, 540);
        QTest::newRow("gif") << "frames.gif" << 1.0 << 0.01 << QSize(960, 540);
        QTest::newRow("mp4 as a slide") << "slide.mp4" << 2.0 << 0.02 << QSize(1600, 900);
    }
    void firstAndLastFramesAreTheChartAsOfTheirDates()
    {
        QFETCH(QString, name);
        QFETCH(double, meanWithin);
        QFETCH(double, shareWithin);
        QFETCH(QSize, size);
        const QString out = m_dir.filePath(name);
        const CliRun run = runReplay(scopeArgs() << QStringLiteral("--out") << out << QStringLiteral("--size")
                                                 << QStringLiteral("%1x%2").arg(size.width()).arg(size.height())
                                                 << QStringLiteral("--hold") << QStringLiteral("0"));
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const std::vector<QString> dates = fixtureDates(8192, 1024);
        const auto video = readVideo(out, { 0, -1 });
        QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
        QCOMPARE(int(video.images.size()), 2);
        const QImage first = video.images[0].second, last = video.images[1].second;
        const QImage chartFirst = chartAsOf(dates.front(), size), chartLast = chartAsOf(dates.back(), size);
        QVERIFY(!chartFirst.isNull() && !chartLast.isNull());
        if (const QString keep = qEnvironmentVariable("PARETOSCOPE_KEEP_EXPORTS"); !keep.isEmpty()) {
            first.save(QDir(keep).filePath(name + QStringLiteral("-first.png"))); // to look at
            last.save(QDir(keep).filePath(name + QStringLiteral("-last.png")));
            chartLast.save(QDir(keep).filePath(name + QStringLiteral("-chart-last.png")));
        }
        const auto same1 = compareImages(first, chartFirst, 48), same2 = compareImages(last, chartLast, 48);
        const auto other1 = compareImages(first, chartLast, 48), other2 = compareImages(last, chartFirst, 48);
        const QByteArray said = QStringLiteral("first %1 %2, last %3 %4; crossed %5 %6, %7 %8")
                                    .arg(same1.mean)
                                    .arg(same1.shareOver)
                                    .arg(same2.mean)
                                    .arg(same2.shareOver)
                                    .arg(other1.mean)
                                    .arg(other1.shareOver)
                                    .arg(other2.mean)
                                    .arg(other2.shareOver)
                                    .toUtf8();
        QVERIFY2(same1.mean < meanWithin && same1.shareOver < shareWithin, said.constData());
        QVERIFY2(same2.mean < meanWithin && same2.shareOver < shareWithin, said.constData());
        // the other day's chart differs by several times the codec's error
        QVERIFY2(other1.shareOver > 3 * same1.shareOver && other1.shareOver > shareWithin, said.constData());
        QVERIFY2(other2.shareOver > 3 * same2.shareOver && other2.shareOver > shareWithin, said.constData());
    }

    // Each frame's caption says its date and, per hardware, the reading the CLI's ladder prints at the target as of
    // that date.
    void captionsGiveTheDateAndTheLaddersReadings()
    {
        auto opened = openStore(store().toStdString(), false);
        QVERIFY(opened.ok());
        Scope scope;
        scope.model = "dsr1";
        scope.isl = 8192;
        scope.osl = 1024;
        auto timeline = std::make_shared<const ScopeTimeline>(ScopeTimeline::load(**opened, scope, TputMetric::Total));
        ReplayLook look;
        look.state.target = 40;
        look.storeName = QStringLiteral("store.sqlite");
        const ReplayFrames frames(
            { timeline, scope, timeline->series(), TputMetric::Total, {} }, look, bundledPricing());
        const std::vector<QString> dates = fixtureDates(8192, 1024);
        QCOMPARE(int(frames.days().size()), int(dates.size()));
        for (const QString& day : { dates.front(), dates[dates.size() / 2], dates.back() }) {
            const auto data = frames.dataOn(dayNumber(day.toStdString()));
            const ChartCaption caption = frames.captionOf(*data);
            QVERIFY2(caption.subtitle.startsWith(QStringLiteral("As of ") + day), qPrintable(caption.subtitle));
            QVERIFY(caption.subtitle.contains(QStringLiteral("target 40 tok/s/user")));
            int code = -1;
            const QByteArray ladder = runCommandLine("paretoscope-cli ladder --model dsr1 --isl 8192 --osl 1024",
                { QStringLiteral("--db"), store(), QStringLiteral("--targets"), QStringLiteral("40"),
                    QStringLiteral("--as-of"), day, QStringLiteral("--format"), QStringLiteral("json") },
                &code);
            QCOMPARE(code, 0);
            int named = 0;
            const QJsonObject byHardware = QJsonDocument::fromJson(ladder).object();
            for (auto h = byHardware.begin(); h != byHardware.end(); ++h) {
                const QJsonObject row = h.value().toArray().first().toObject();
                if (!row.value(QStringLiteral("tput_per_gpu")).isDouble())
                    continue;
                const QString value = QLocale(QLocale::English)
                                          .toString(qRound64(row.value(QStringLiteral("tput_per_gpu")).toDouble()));
                const QString hardware = QString::fromStdString(hardwareDisplayName(h.key().toStdString()));
                if (caption.source.contains(hardware + QLatin1Char(' ') + value)) {
                    ++named;
                    // one configuration's reading, the frontier's beside it where the two differ (as `ladder` says)
                    const QJsonValue frontier = row.value(QStringLiteral("frontier"))[QStringLiteral("tput_per_gpu")];
                    const double ratio = frontier.toDouble() / row.value(QStringLiteral("tput_per_gpu")).toDouble();
                    if (frontier.isDouble() && std::abs(ratio - 1) > 0.01)
                        QVERIFY2(caption.source.contains(hardware + QLatin1Char(' ') + value + QStringLiteral(" [")
                                     + QLocale(QLocale::English).toString(qRound64(frontier.toDouble())) + u']'),
                            qPrintable(caption.source));
                } else
                    QVERIFY2(caption.source.contains(QStringLiteral("more)")),
                        qPrintable(day + QStringLiteral(": ") + hardware + QLatin1Char(' ') + value
                            + QStringLiteral(" not in ") + caption.source));
            }
            QVERIFY2(named > 0, qPrintable(caption.source + QStringLiteral(" / ") + QString::fromUtf8(ladder)));
        }
    }

    // Refusals name what is wrong and write nothing: another extension, an odd size for H.264, a rate or hold out of
    // range, a folder that does not exist, a date before any run, a scope the store lacks.
    void refusalsWriteNothing()
    {
        const QString out = m_dir.filePath(QStringLiteral("refused.mp4"));
        struct Case {
            QStringList extra;
            int code;
            QString says;
        };
        const std::vector<Case> cases {
            { { QStringLiteral("--out"), m_dir.filePath(QStringLiteral("r.avi")) }, 2, QStringLiteral(".mp4") },
            { { QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("641x360") }, 2,
                QStringLiteral("even") },
            { { QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("wide") }, 2,
                QStringLiteral("WIDTHxHEIGHT") },
            { { QStringLiteral("--out"), out, QStringLiteral("--fps"), QStringLiteral("0") }, 2,
                QStringLiteral("--fps") },
            { { QStringLiteral("--out"), out, QStringLiteral("--hold"), QStringLiteral("-1") }, 2,
                QStringLiteral("--hold") },
            { { QStringLiteral("--out"), m_dir.filePath(QStringLiteral("no/such/folder/r.mp4")),
                  QStringLiteral("--size"), QStringLiteral("320x180") },
                1, QStringLiteral("no/such/folder/r.mp4") },
            { { QStringLiteral("--out"), out, QStringLiteral("--as-of"), QStringLiteral("2020-01-01") }, 1,
                QStringLiteral("2020-01-01") },
        };
        for (const Case& c : cases) {
            const CliRun run = runReplay(scopeArgs() + c.extra);
            QVERIFY2(run.code == c.code, qPrintable(c.extra.join(QLatin1Char(' ')) + QStringLiteral(": ") + run.err));
            QVERIFY2(run.err.contains(c.says), qPrintable(run.err));
            QVERIFY(!QFile::exists(c.extra.at(c.extra.indexOf(QStringLiteral("--out")) + 1)));
        }
        const CliRun missing = runReplay({ QStringLiteral("--db"), store(), QStringLiteral("--model"),
            QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("4096"), QStringLiteral("--osl"),
            QStringLiteral("1024"), QStringLiteral("--out"), out });
        QCOMPARE(missing.code, 1);
        QVERIFY(!QFile::exists(out));
        // nothing of a refused file stays beside it either
        for (const QString& f : QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!f.contains(QStringLiteral("refused")), qPrintable(f));
    }

    // A full disk (the file size limit lowered): an error that names the file, and no file (nor a temporary one)
    // beside it; kill -9 at any moment: the file whole or not there.
    void aFullDiskOrAKillLeavesNoFile()
    {
        const QString out = m_dir.filePath(QStringLiteral("full.mp4"));
        Limits small;
        small.fileSizeBytes = 64LL * 1024; // the video is some hundreds of kB
        const Run full = cli(QStringList { QStringLiteral("replay") } + scopeArgs()
                << QStringLiteral("--out") << out << QStringLiteral("--size") << QStringLiteral("960x540"),
            small);
        QCOMPARE(full.code, 1);
        QVERIFY2(text(full).contains(out), qPrintable(text(full)));
        QVERIFY(!QFile::exists(out));

        // kill -9 at moments across a run (Qt starting, frames drawn, the encoder's end, the file written): the file
        // is there whole (the run had ended) or not at all, never half a video
        const QString killed = m_dir.filePath(QStringLiteral("killed.mp4"));
        const int days = int(fixtureDates(8192, 1024).size());
        for (int ms : { 150, 450, 800, 1100, 1400, 1800 }) {
            QFile::remove(killed);
            CliChild child(QStringList { QStringLiteral("replay") } + scopeArgs()
                << QStringLiteral("--out") << killed << QStringLiteral("--hold") << QStringLiteral("0"));
            QTest::qWait(ms);
            ::kill(child.pid(), SIGKILL);
            child.wait(10);
            if (QFile::exists(killed))
                QCOMPARE(readVideo(killed).frames, days);
        }
        QFile::remove(killed);
    }

    // The window's File > Export replay...: the view on screen, a frame a turn with progress, the same frames as the
    // CLI's; a cancel in the middle writes nothing.
    void theWindowWritesTheReplay()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 8192, 1024));
        const std::vector<QString> dates = fixtureDates(8192, 1024);
        ReplayExport* job = m_window->replayExport();
        QSignalSpy progress(job, &ReplayExport::progress);
        QSignalSpy finished(job, &ReplayExport::finished);
        const QString out = m_dir.filePath(QStringLiteral("window.mp4"));
        m_window->exportReplay(out, ReplaySettings { QSize(640, 360), 2, 0 });
        QVERIFY(job->running());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().at(1).toString().isEmpty(), qPrintable(finished.first().at(1).toString()));
        // the window's view: the days of its scope (what its filters keep), each a frame, progress after each
        const int days = finished.first().at(2).toInt();
        QVERIFY(days > 5 && days <= int(dates.size()));
        QCOMPARE(progress.size(), days + 1);
        QCOMPARE(progress.last().at(0).toInt(), days);
        const auto video = readVideo(out, { -1 });
        QCOMPARE(video.frames, days);
        QCOMPARE(QSize(video.width, video.height), QSize(640, 360));
        // the last frame is the CLI's for the window's view (its command, as Copy view as command gives it)
        auto view = m_window->currentView();
        QVERIFY(view.ok());
        view->baseline.clear();
        const auto words = splitCommandLine(viewCommand(*view));
        QVERIFY(words.ok() && words->size() > 2);
        QStringList viewArgs;
        for (std::size_t i = 2; i < words->size(); ++i) // after "paretoscope-cli ladder"
            viewArgs << QString::fromStdString((*words)[i]);
        const QString cli = m_dir.filePath(QStringLiteral("cli.mp4"));
        const CliRun run = runReplay(viewArgs << QStringLiteral("--db") << store() << QStringLiteral("--out") << cli
                                              << QStringLiteral("--size") << QStringLiteral("640x360")
                                              << QStringLiteral("--hold") << QStringLiteral("0"));
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QCOMPARE(run.json.value(QStringLiteral("days")).toInt(), finished.first().at(2).toInt());
        const auto cliVideo = readVideo(cli, { -1 });
        const auto d = compareImages(video.images[0].second, cliVideo.images[0].second, 48);
        QVERIFY2(d.mean < 1 && d.shareOver < 0.005, qPrintable(QStringLiteral("%1 %2").arg(d.mean).arg(d.shareOver)));

        // cancelled after three days: nothing written, the job free for the next
        const QString cancelled = m_dir.filePath(QStringLiteral("cancelled.gif"));
        QSignalSpy gone(job, &ReplayExport::cancelled);
        connect(job, &ReplayExport::progress, this, [job](int done, int) {
            if (done == 3)
                job->cancel();
        });
        finished.clear();
        m_window->exportReplay(cancelled, ReplaySettings { QSize(320, 180), 2, 0 });
        QVERIFY(gone.wait(30000));
        QCoreApplication::processEvents();
        QVERIFY(finished.isEmpty());
        QVERIFY(!job->running());
        QVERIFY(!QFile::exists(cancelled));
        disconnect(job, &ReplayExport::progress, this, nullptr);

        // a GIF, whole; a second replay asked for while the first's file is being written is refused, the first
        // written all the same
        const QString gif = m_dir.filePath(QStringLiteral("window.gif"));
        const QString second = m_dir.filePath(QStringLiteral("second.mp4"));
        connect(job, &ReplayExport::progress, this, [this, second](int done, int total) {
            if (done == total) // queued: it runs once the file is being written
                QTimer::singleShot(0, this, [this, second] {
                    m_window->exportReplay(second, ReplaySettings { QSize(320, 180), 2, 0 });
                });
        });
        finished.clear();
        m_window->exportReplay(gif, ReplaySettings { QSize(480, 270), 2, 1 });
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        disconnect(job, &ReplayExport::progress, this, nullptr);
        QCOMPARE(finished.at(0).at(0).toString(), second);
        QVERIFY2(finished.at(0).at(1).toString().contains(QStringLiteral("being written")),
            qPrintable(finished.at(0).at(1).toString()));
        QCOMPARE(finished.at(1).at(0).toString(), gif);
        QCOMPARE(finished.at(1).at(1).toString(), QString());
        QVERIFY(!QFile::exists(second));
        const auto gifVideo = readVideo(gif);
        QCOMPARE(gifVideo.codec, QStringLiteral("gif"));
        QCOMPARE(gifVideo.frames, days + 2);
        QCOMPARE(gifVideo.decoded, days); // the last day's hold is stored once, shown for its time
    }
};

PARETOSCOPE_SUITE(TestReplay)
#include "tests/support/testpaths.h"
#include "tst_replay.moc"
