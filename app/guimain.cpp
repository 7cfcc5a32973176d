// paretoscope: the explorer. Parses its arguments, opens the store and shows the main window; everything else is in
// widgets/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTimer>
#include <cstdio>
#include <optional>

#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "widgets/mainwindow.h"

using namespace paretoscope;

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
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Open on this view: the options of paretoscope-cli ladder (what Edit > Copy view as command "
                       "copies), e.g. --view '--model DeepSeek-R1-0528 --isl 8192 --osl 1024 --targets 50'."),
        QStringLiteral("ARGS"));
    parser.addOptions({ db, shot, size, view });
    parser.process(app);

    // parsed as the CLI parses `ladder`, before anything opens: a mistake is said and nothing else happens
    std::optional<ViewOptions> startView;
    if (parser.isSet(view)) {
        auto words = splitCommandLine(parser.value(view).toStdString());
        auto parsed = words ? parseViewArgs(*words) : Result<ViewOptions>(Error { words.error() });
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
    if (parser.isSet(shot)) {
        const QStringList wh = parser.value(size).split(u'x');
        const QSize s(wh.value(0).toInt(), wh.value(1).toInt());
        if (wh.size() != 2 || s.width() < 200 || s.height() < 200) {
            std::fprintf(stderr, "paretoscope: --size must be like 1600x1000\n");
            return 2;
        }
        window.setWindowState(Qt::WindowNoState); // the size asked for, not the screen's
        window.resize(s);
        window.show();
        const QString file = parser.value(shot);
        int code = 1;
        QObject::connect(&window, &ui::MainWindow::scopeShown, &window, [&] {
            // once, after the layout has settled around the data
            QTimer::singleShot(50, &window, [&] {
                code = window.grab().save(file, "PNG") ? 0 : 1;
                if (code)
                    std::fprintf(stderr, "paretoscope: cannot write %s\n", qPrintable(file));
                app.quit();
            });
        });
        QTimer::singleShot(30000, &app, [&] {
            std::fprintf(stderr, "paretoscope: no data was shown within 30 s\n");
            app.quit();
        });
        app.exec();
        return code;
    }
    window.show();
    return app.exec();
}
