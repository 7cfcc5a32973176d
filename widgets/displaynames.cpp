#include "displaynames.h"

#include <QMessageBox>

#include "core/model/engine.h"

namespace paretoscope::ui {

QString hardwareName(const std::string& hardware)
{
    // results of paretoscope-engine-sim say so wherever they are named
    QString h = QString::fromStdString(hardware);
    if (h == QLatin1String("sim-fixed"))
        return QStringLiteral("Emulator (fixed timing, simulated)");
    if (h.endsWith(QLatin1String("-sim")))
        return h.chopped(4).toUpper() + QStringLiteral(" (simulated)");
    return h.toUpper();
}

QString engineName(const std::string& engine)
{
    return QString::fromStdString(engineDisplayName(engine));
}

QString precisionName(const std::string& precision)
{
    return QString::fromStdString(precision).toUpper();
}

QString groupLabel(const GroupKey& key)
{
    QString s = hardwareName(key.hardware) + QStringLiteral(" · ") + engineName(key.engine) + QStringLiteral(" · ")
        + precisionName(key.precision);
    if (!key.specDecoding.empty() && key.specDecoding != "none")
        s += QStringLiteral(" · ") + QString::fromStdString(key.specDecoding).toUpper();
    return s;
}

QString plainToolTip(const QString& text)
{
    if (text.isEmpty())
        return text;
    return QStringLiteral("<p style='white-space:pre'>") + text.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"))
        + QStringLiteral("</p>");
}

void plainMessage(QWidget* parent, bool error, const QString& title, const QString& text)
{
    QMessageBox box(error ? QMessageBox::Critical : QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace paretoscope::ui
