// paretoscope: the explorer. Parses its arguments, opens the store and shows the main window; everything else is in
// widgets/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <map>
#include <optional>

#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "widgets/mainwindow.h"

using namespace paretoscope;

namespace {

// Puts a tab in front by its name in --tab.
bool showTab(ui::MainWindow& window, const QString& name)
{
    const std::map<QString, QWidget*> tabs { { QStringLiteral("ladder"), window.ladder() },
        { QStringLiteral("summary"), window.summary() }, { QStringLiteral("plan"), window.plan() },
        { QStringLiteral("history"), window.history() },
        { QStringLiteral("runs"), window.runs() }, { QStringLiteral("live"), window.sessionPanel() } };
    const auto it = tabs.find(name.toLower());
    if (it == tabs.end())
        return false;
    window.tabs()->setCurrentWidget(it->second);
    return true;
}

// --screenshot: the window at the size asked for, with the tab asked for in front, once its data is shown.
// A view given on the command line, read as the CLI reads `ladder`'s options.
Result<ViewOptions> viewOf(const QString& text)
{
    auto words = splitCommandLine(text.toStdString());
    return words ? parseViewArgs(*words) : Result<ViewOptions>(Error { words.error() });
}

int screenshot(QApplication& app, ui::MainWindow& window, const QString& file, const QString& size, const QString& tab)
{
    const QStringList wh = size.split(u'x');
    const QSize s(wh.value(0).toInt(), wh.value(1).toInt());
    if (wh.size() != 2 || s.width() < 200 || s.height() < 200) {
        std::fprintf(stderr, "paretoscope: --size must be like 1600x1000\n");
        return 2;
    }
    window.setWindowState(Qt::WindowNoState); // the size asked for, not the screen's
    window.resize(s);
    if (!tab.isEmpty() && !showTab(window, tab)) {
        std::fprintf(stderr, "paretoscope: --tab must be ladder, summary, plan, history, runs or live\n");
        return 2;
    }
    window.show();
    int code = 1;
    auto grab = [&] {
        // once, after the layout has settled around the data
        QTimer::singleShot(50, &window, [&] {
            code = window.grab().save(file, "PNG") ? 0 : 1;
            if (code)
                std::fprintf(stderr, "paretoscope: cannot write %s\n", qPrintable(file));
            app.quit();
        });
    };
    // the History tab computes after the scope is shown: the picture waits for its answer
    if (window.tabs()->currentWidget() == window.history())
        QObject::connect(window.history(), &ui::HistoryPanel::shown, &window, grab);
    else if (window.tabs()->currentWidget() == window.plan())
        QObject::connect(window.plan(), &ui::PlanPanel::planShown, &window, grab);
    else
        QObject::connect(&window, &ui::MainWindow::scopeShown, &window, grab);
    QTimer::singleShot(30000, &app, [&] {
        std::fprintf(stderr, "paretoscope: no data was shown within 30 s\n");
        app.quit();
    });
    app.exec();
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Paretoscope"));
    QApplication::setApplicationName(QStringLiteral("Paretoscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.3"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("LLM-serving throughput vs interactivity explorer"));
    parser.addHelpOption();
    QCommandLineOption db(
        QStringLiteral("db"), QStringLiteral("Open this store instead of the default one."), QStringLiteral("FILE"));
    QCommandLineOption shot(QStringLiteral("screenshot"),
        QStringLiteral("Render the main window on the store into FILE (PNG) and exit."), QStringLiteral("FILE"));
    QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    QCommandLineOption tab(QStringLiteral("tab"),
        QStringLiteral("The tab in front for --screenshot: ladder, summary, plan, history, runs or live (default ladder)."),
        QStringLiteral("NAME"));
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Open on this view: the options of paretoscope-cli ladder (what Edit > Copy view as command "
                       "copies), e.g. --view '--model DeepSeek-R1-0528 --isl 8192 --osl 1024 --targets 50'."),
        QStringLiteral("ARGS"));
    parser.addOptions({ db, shot, size, tab, view });
    parser.process(app);

    // parsed as the CLI parses `ladder`, before anything opens: a mistake is said and nothing else happens
    std::optional<ViewOptions> startView;
    if (parser.isSet(view)) {
        auto parsed = viewOf(parser.value(view));
        if (!parsed) {
            const QString msg = QStringLiteral("--view: ") + QString::fromStdString(parsed.error());
            std::fprintf(stderr, "paretoscope: %s\n", qPrintable(msg));
            if (QGuiApplication::platformName() != u"offscreen" && !parser.isSet(shot))
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
        if (parser.isSet(shot)) {
            std::fprintf(stderr, "paretoscope: %s\n", qPrintable(msg));
            return 1;
        }
        QMessageBox::critical(nullptr, QStringLiteral("Paretoscope"), msg);
        return 1;
    }

    ui::MainWindow window(std::move(*store));
    if (startView) {
        window.openViewAtStart(*startView);
        QObject::connect(&window, &ui::MainWindow::viewFailed, &window, [&](const QString& why) {
            std::fprintf(stderr, "paretoscope: --view: %s\n", qPrintable(why));
            if (QGuiApplication::platformName() != u"offscreen" && !parser.isSet(shot))
                QMessageBox::warning(&window, QStringLiteral("Paretoscope"), QStringLiteral("--view: ") + why);
        });
    }
    if (parser.isSet(shot))
        return screenshot(app, window, parser.value(shot), parser.value(size), parser.value(tab));
    window.show();
    return app.exec();
}
