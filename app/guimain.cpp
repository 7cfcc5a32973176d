// paretoscope: the explorer. Parses its arguments, opens the store and shows the main window; everything else is in
// widgets/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "app/guioptions.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "core/model/guardedmain.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/window/mainwindow.h"
#include "widgets/window/page.h"

using namespace paretoscope;

namespace {

// A view given on the command line, read as the CLI reads `ladder`'s options.
Result<ViewOptions> viewOf(const QString& text)
{
    auto words = splitCommandLine(text.toStdString());
    return words ? parseViewArgs(*words) : Result<ViewOptions>(Error { words.error() });
}

// --screenshot: the window at the size asked for, with the tab asked for in front, once its data is shown; with
// files to import, once they are imported (what a drop on the window does, without the dialog of its results).
int screenshot(QApplication& app, ui::MainWindow& window, const QCommandLineParser& parser, const QStringList& files)
{
    const QString file = parser.value(QStringLiteral("screenshot"));
    const QString tab = parser.value(QStringLiteral("tab"));
    const QStringList wh = parser.value(QStringLiteral("size")).split(u'x');
    const QSize s(wh.value(0).toInt(), wh.value(1).toInt());
    if (wh.size() != 2 || s.width() < 200 || s.height() < 200) {
        std::fprintf(stderr, "paretoscope: --size must be like 1600x1000\n");
        return 2;
    }
    window.setWindowState(Qt::WindowNoState); // the size asked for, not the screen's
    window.resize(s);
    if (!tab.isEmpty() && !window.showPage(tab)) {
        std::fprintf(stderr, "paretoscope: --tab must be one of %s\n", qPrintable(ui::pageKeys()));
        return 2;
    }
    window.show();
    int code = 1;
    QTimer poll;
    auto save = [&] {
        poll.stop();
        code = window.grab().save(file, "PNG") ? 0 : 1;
        if (code)
            std::fprintf(stderr, "paretoscope: cannot write %s\n", qPrintable(file));
        app.quit();
    };
    // the chart's lines and runs are drawn on a pool thread once the chart is painted: the picture waits for them
    // (where the chart is on the page in front)
    auto chartDrawn = [&] {
        const ui::FrontierChart* chart = window.chartPanel()->chart();
        return !chart || !window.chartPanel()->isVisible() || (chart->layer()->ready() && chart->cloud()->ready());
    };
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &window, [&] {
        if (chartDrawn())
            save();
    });
    auto grab = [&] {
        // once, after the layout has settled around the data
        QTimer::singleShot(50, &window, [&] {
            window.grab(); // asks for the chart's pictures
            poll.start();
        });
    };
    if (!files.isEmpty()) {
        window.setShowImportResults(false);
        QObject::connect(&window, &ui::MainWindow::importFinished, &window, grab);
        QTimer::singleShot(0, &window, [&] { window.importPaths(files); });
    } else if (ui::Page* page = window.currentPage()) {
        // the page in front is ready once the scope is shown, or (History, Plan) once it has computed for it
        QObject::connect(page, &ui::Page::ready, &window, grab);
    } else {
        QObject::connect(&window, &ui::MainWindow::scopeShown, &window, grab);
    }
    QTimer::singleShot(30000, &app, [&] {
        std::fprintf(stderr, "paretoscope: no data was shown within 30 s\n");
        app.quit();
    });
    app.exec();
    return code;
}

// --help, --version and --man: printed without a display (a QCoreApplication, no platform plugin).
int printText(int argc, char** argv)
{
    QCoreApplication core(argc, argv);
    QCommandLineParser parser;
    gui::setUpParser(parser);
    parser.parse(QCoreApplication::arguments()); // Qt's own options (-platform ...) are not errors here
    if (parser.isSet(QStringLiteral("man"))) {
        std::fputs(gui::guiManPage().c_str(), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    parser.showHelp(0);
}

int run(int argc, char** argv)
{
    if (gui::asksForTextOnly(argc, argv))
        return printText(argc, argv);
    const bool shot = std::any_of(argv + 1, argv + argc,
        [](const char* a) { return !std::strcmp(a, "--screenshot") || !std::strncmp(a, "--screenshot=", 13); });
    if (!gui::canShowWindows(argc, argv)) {
        if (!shot) {
            std::fprintf(stderr,
                "paretoscope: no display (DISPLAY and WAYLAND_DISPLAY are not set); run it on a desktop, or see "
                "--help (--screenshot FILE draws offscreen; paretoscope-cli answers in a terminal)\n");
            return 1;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen"); // a picture needs no display
    }
    QApplication app(argc, argv);
    QCommandLineParser parser;
    gui::setUpParser(parser);
    parser.process(app);
    const QString view = QStringLiteral("view"), db = QStringLiteral("db");
    const bool offscreen = QGuiApplication::platformName() == u"offscreen" || shot; // no message boxes then
    // parsed as the CLI parses `ladder`, before anything opens: a mistake is said and nothing else happens
    std::optional<ViewOptions> startView;
    if (parser.isSet(view)) {
        auto parsed = viewOf(parser.value(view));
        if (!parsed) {
            const QString msg = QStringLiteral("--view: ") + QString::fromStdString(parsed.error());
            std::fprintf(stderr, "paretoscope: %s\n", qPrintable(msg));
            if (!offscreen)
                QMessageBox::critical(nullptr, QStringLiteral("Paretoscope"), msg);
            return 2;
        }
        startView = std::move(*parsed);
    }

    std::string path;
    bool seed = true;
    if (parser.isSet(db)) {
        path = parser.value(db).toStdString();
        seed = false;
    } else {
        // the same store as paretoscope-cli's (under the XDG data directory), so both see what either imported
        path = defaultStorePath();
    }
    auto store = openStore(path, seed);
    if (!store) {
        const QString msg = QString::fromStdString(store.error());
        if (offscreen) {
            std::fprintf(stderr, "paretoscope: %s\n", qPrintable(msg));
            return 1;
        }
        QMessageBox::critical(nullptr, QStringLiteral("Paretoscope"), msg);
        return 1;
    }

    // a view the CLI would refuse is refused as the CLI refuses it, with its exit status: a tier it does not know
    // (a usage error, 2), a baseline with no runs in the scope (1)
    if (startView) {
        const auto refuse = [&](const std::string& why, int code) {
            const QString msg = QStringLiteral("--view: ") + QString::fromStdString(why);
            std::fprintf(stderr, "paretoscope: %s\n", qPrintable(msg));
            if (!offscreen)
                QMessageBox::critical(nullptr, QStringLiteral("Paretoscope"), msg);
            return code;
        };
        if (auto price = priceFor(bundledPricing(), startView->request.price, ""); !price)
            return refuse(price.error(), 2);
        if (!startView->baseline.empty()) {
            FrontierCache cache(**store);
            auto ladders = computeLadder(cache, bundledPricing(), startView->request);
            if (!ladders)
                return refuse(ladders.error(), 2);
            if (auto covered = baselineCovered(*ladders, startView->baseline); !covered)
                return refuse(covered.error(), 1);
        }
    }

    ui::MainWindow window(std::move(*store));
    if (startView) {
        window.openViewAtStart(*startView);
        QObject::connect(&window, &ui::MainWindow::viewFailed, &window, [&](const QString& why) {
            std::fprintf(stderr, "paretoscope: --view: %s\n", qPrintable(why));
            if (!offscreen)
                QMessageBox::warning(&window, QStringLiteral("Paretoscope"), QStringLiteral("--view: ") + why);
        });
    }
    // files given on the command line (the desktop's "Open with") are imported as a drop on the window is
    const QStringList files = parser.positionalArguments();
    if (shot)
        return screenshot(app, window, parser, files);
    window.show();
    if (!files.isEmpty())
        QTimer::singleShot(0, &window, [&] { window.importPaths(files); });
    return app.exec();
}

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("paretoscope", [&] { return run(argc, argv); });
}
