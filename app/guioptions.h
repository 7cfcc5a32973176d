#pragma once

#include <QString>
#include <string>
#include <vector>

class QCommandLineParser;

namespace paretoscope::gui {

/// One option of the explorer: what the parser, --help and the man page are all made of.
struct GuiOption {
    QString name;
    QString valueName; ///< empty: a switch
    QString description;
    QString defaultValue;
};

/// The explorer's options in the order --help lists them.
const std::vector<GuiOption>& guiOptions();

/// Sets the application's names and version, and gives parser every option of guiOptions(), --help, --version,
/// the hidden --man and the FILE arguments.
void setUpParser(QCommandLineParser& parser);

/// The man page (groff -man), from guiOptions().
std::string guiManPage();

/// Whether a window can be shown: a display (DISPLAY or WAYLAND_DISPLAY), or a Qt platform that needs none
/// (QT_QPA_PLATFORM or -platform: offscreen, minimal, eglfs, vnc ...).
bool canShowWindows(int argc, char** argv);

/// Whether argv asks only for text: --help, --help-all, -h, -?, --version, -v or --man (no window, no display).
bool asksForTextOnly(int argc, char** argv);

} // namespace paretoscope::gui
