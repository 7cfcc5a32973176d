#include "widgets/common/displaynames.h"

#include <QMessageBox>

#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "core/model/engine.h"
#include "core/model/runselection.h"

namespace paretoscope::ui {

QString priceChoiceLabel(const PriceChoice& price, const PricingCatalog& pricing)
{
    if (price.customUsdPerGpuHour)
        return QStringLiteral("$%1/GPU/hr").arg(*price.customUsdPerGpuHour, 0, 'f', 2);
    const PricingTier* tier = price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(price.tierKey);
    return tier ? QString::fromStdString(tier->label) : QString::fromStdString(price.tierKey);
}

// core's names (core/model/displaynames.h): the CLI's reports and the summary say the same
QString hardwareName(const std::string& hardware)
{
    return QString::fromStdString(hardwareDisplayName(hardware));
}

QString thousandsText(double v, int decimals)
{
    return QString::fromStdString(withThousands(v, decimals));
}

QString dayLabel(int day)
{
    return QString::fromStdString(dayText(day));
}

QString engineName(const std::string& engine)
{
    return QString::fromStdString(engineDisplayName(engine));
}

QString precisionName(const std::string& precision)
{
    return QString::fromStdString(precisionDisplayName(precision));
}

QString groupLabel(const GroupKey& key)
{
    return QString::fromStdString(groupDisplayName(key));
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
