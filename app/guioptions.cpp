// The explorer's command line as a table, shared by its parser, its --help and its man page.
#include "app/guioptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdlib>
#include <cstring>

#include "manpage/manpage.h"
#include "widgets/window/page.h"

namespace paretoscope::gui {

namespace {

const char* kDescription = "LLM-serving throughput vs interactivity explorer";
const char* kFilesHelp = "Benchmark results to import on start (files, folders or InferenceX API URLs), as if "
                         "dropped on the window.";

std::string text(const QString& s)
{
    return s.toStdString();
}

} // namespace

const std::vector<GuiOption>& guiOptions()
{
    static const std::vector<GuiOption> options {
        { QStringLiteral("db"), QStringLiteral("FILE"), QStringLiteral("Open this store instead of the default one."),
            {} },
        { QStringLiteral("screenshot"), QStringLiteral("FILE"),
            QStringLiteral("Render the main window on the store into FILE (PNG) and exit. Needs no display: "
                           "without one the window is drawn offscreen."),
            {} },
        { QStringLiteral("size"), QStringLiteral("WxH"),
            QStringLiteral("Window size for --screenshot (default 1600x1000)."), QStringLiteral("1600x1000") },
        { QStringLiteral("tab"), QStringLiteral("NAME"),
            QStringLiteral("The tab in front for --screenshot, by its key in the window's page table: ")
                + ui::pageKeys() + QStringLiteral(" (default ladder)."),
            {} },
        { QStringLiteral("view"), QStringLiteral("ARGS"),
            QStringLiteral("Open on this view: the options of paretoscope-cli ladder (what Edit > Copy view as command "
                           "copies), e.g. --view '--model DeepSeek-R1-0528 --isl 8192 --osl 1024 --targets 50'."),
            {} },
    };
    return options;
}

void setUpParser(QCommandLineParser& parser)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Paretoscope"));
    QCoreApplication::setApplicationName(QStringLiteral("Paretoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PARETOSCOPE_VERSION " (licence " PARETOSCOPE_LICENSE ")"));
    parser.setApplicationDescription(QString::fromLatin1(kDescription));
    parser.addHelpOption();
    parser.addVersionOption();
    for (const GuiOption& o : guiOptions())
        parser.addOption(o.valueName.isEmpty()
                ? QCommandLineOption(o.name, o.description)
                : QCommandLineOption(o.name, o.description, o.valueName, o.defaultValue));
    QCommandLineOption man(QStringLiteral("man"), QStringLiteral("Print the man page (groff) and exit."));
    man.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(man);
    parser.addPositionalArgument(QStringLiteral("files"), QString::fromLatin1(kFilesHelp), QStringLiteral("[FILE...]"));
}

std::string guiManPage()
{
    std::string options;
    for (const GuiOption& o : guiOptions())
        options += man::item(
            "--" + text(o.name) + (o.valueName.isEmpty() ? "" : " " + text(o.valueName)), text(o.description));
    options += man::item(
        "-h, --help, --help-all", "Print the options (--help-all: with Qt's own) and exit; no display needed.");
    options += man::item("-v, --version", "Print the version and exit (no display needed).");
    return man::page("paretoscope", PARETOSCOPE_VERSION, kDescription,
        { "paretoscope [OPTIONS] [FILE...]", "paretoscope --screenshot FILE [--size WxH] [--tab NAME] [OPTIONS]" },
        { { "DESCRIPTION",
              man::paragraph("The explorer of LLM-serving benchmark results: throughput per GPU against interactivity "
                             "per hardware, engine and precision, their Pareto frontiers, the ladder of readings at "
                             "interactivity targets, summaries, history, capacity plans and live benchmark sessions. "
                             "It shares its store and every computation with paretoscope-cli(1).")
                  + man::paragraph("Without a display (neither DISPLAY nor WAYLAND_DISPLAY set, and no Qt platform "
                                   "that needs none) it says so and exits 1, unless it is asked for --screenshot.") },
            { "OPTIONS", options }, { "ARGUMENTS", man::item("FILE...", kFilesHelp) },
            { "FILES",
                man::item("$XDG_DATA_HOME/paretoscope/paretoscope.sqlite",
                    "The default store (~/.local/share/paretoscope/paretoscope.sqlite), shared with paretoscope-cli; "
                    "it holds the bundled DeepSeek V4.1 Flash dataset from its first use.") },
            { "SEE ALSO", man::paragraph("paretoscope-cli(1), paretoscope-engine-sim(1), paretoscope-probe(1)") } });
}

bool canShowWindows(int argc, char** argv)
{
    auto set = [](const char* name) {
        const char* v = std::getenv(name);
        return v && *v;
    };
    if (set("DISPLAY") || set("WAYLAND_DISPLAY"))
        return true;
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "-platform") || !std::strcmp(argv[i], "--platform"))
            platform = argv[i + 1];
    if (!platform || !*platform)
        return false;
    // the name before any ':' parameters; xcb and wayland need the display that is not there
    const std::string name(platform, std::strcspn(platform, ":;"));
    return name != "xcb" && name.rfind("wayland", 0) != 0;
}

bool asksForTextOnly(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char* word : { "--help", "--help-all", "-h", "-?", "--version", "-v", "--man" })
            if (!std::strcmp(argv[i], word))
                return true;
    return false;
}

} // namespace paretoscope::gui
