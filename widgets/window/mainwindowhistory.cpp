// The History tab's export (the page itself, and what it follows: builtinpages.cpp).
#include "widgets/window/mainwindow.h"

#include "widgets/chart/chartexport.h"

namespace paretoscope::ui {

Status MainWindow::exportHistoryCsv(const QString& path) const
{
    auto csv = history()->csv();
    if (!csv)
        return Error { csv.error() };
    return writeTextFile(path, *csv);
}

} // namespace paretoscope::ui
