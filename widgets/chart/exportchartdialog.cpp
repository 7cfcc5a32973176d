#include "widgets/chart/exportchartdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

namespace paretoscope::ui {

namespace {

constexpr int kCustom = -1; // the size combo's data for "Custom"

} // namespace

ExportChartDialog::ExportChartDialog(std::vector<ExportSize> sizes, QWidget* parent)
    : QDialog(parent)
    , m_sizes(std::move(sizes))
    , m_format(new QComboBox(this))
    , m_size(new QComboBox(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_scale(new QDoubleSpinBox(this))
    , m_summary(new QLabel(this))
{
    setWindowTitle(tr("Export chart"));
    m_format->addItem(tr("PNG picture"), int(ChartFormat::Png));
    m_format->addItem(tr("SVG, vector"), int(ChartFormat::Svg));
    m_format->addItem(tr("PDF, vector"), int(ChartFormat::Pdf));
    for (std::size_t i = 0; i < m_sizes.size(); ++i)
        m_size->addItem(exportSizeText(m_sizes[i]), int(i));
    m_size->addItem(tr("Custom"), kCustom);
    // at most 16,000 pixels a side: renderChart refuses more than 256 million pixels and says so
    for (QSpinBox* box : { m_width, m_height }) {
        box->setRange(100, 16000);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(1920);
    m_height->setValue(1080);
    m_scale->setRange(0.5, 4);
    m_scale->setSingleStep(0.25);
    m_scale->setDecimals(2);
    m_scale->setValue(1.5);
    m_scale->setSuffix(QStringLiteral("x"));
    m_scale->setToolTip(tr("How large type and lines are drawn: the chart is laid out at the pixels divided by this"));
    m_summary->setWordWrap(true);

    auto* custom = new QHBoxLayout;
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("x"), this));
    custom->addWidget(m_height);
    custom->addStretch();
    auto* form = new QFormLayout;
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Size:"), m_size);
    form->addRow(tr("Pixels:"), custom);
    form->addRow(tr("&Type and lines:"), m_scale);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        const int i = m_size->currentData().toInt();
        if (i != kCustom) {
            // the offered size shown in the boxes, so that Custom starts from it
            const QSignalBlocker a(m_width), b(m_height), c(m_scale);
            m_width->setValue(m_sizes[std::size_t(i)].pixels.width());
            m_height->setValue(m_sizes[std::size_t(i)].pixels.height());
            m_scale->setValue(m_sizes[std::size_t(i)].scale);
        }
        update();
    });
    for (QSpinBox* box : { m_width, m_height })
        connect(box, &QSpinBox::valueChanged, this, [this] {
            m_size->setCurrentIndex(m_size->count() - 1); // typed: custom
            update();
        });
    connect(m_scale, &QDoubleSpinBox::valueChanged, this, [this] {
        m_size->setCurrentIndex(m_size->count() - 1);
        update();
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] { update(); });
    m_size->setCurrentIndex(-1);
    m_size->setCurrentIndex(0); // the 16:9 slide
    update();
}

ChartFormat ExportChartDialog::format() const
{
    return ChartFormat(m_format->currentData().toInt());
}

void ExportChartDialog::setFormat(ChartFormat format)
{
    m_format->setCurrentIndex(m_format->findData(int(format)));
}

ExportSize ExportChartDialog::size() const
{
    const int i = m_size->currentData().toInt();
    if (i != kCustom)
        return m_sizes[std::size_t(i)];
    return { tr("Custom"), QSize(m_width->value(), m_height->value()), m_scale->value() };
}

void ExportChartDialog::choose(const QString& name)
{
    for (std::size_t i = 0; i < m_sizes.size(); ++i)
        if (m_sizes[i].name == name) {
            m_size->setCurrentIndex(int(i));
            return;
        }
}

void ExportChartDialog::setCustom(QSize pixels, qreal scale)
{
    const QSignalBlocker a(m_width), b(m_height), c(m_scale);
    m_width->setValue(pixels.width());
    m_height->setValue(pixels.height());
    m_scale->setValue(scale);
    m_size->setCurrentIndex(m_size->count() - 1);
    update();
}

QString ExportChartDialog::summary() const
{
    return m_summary->text();
}

void ExportChartDialog::update()
{
    const ExportSize s = size();
    const QSize layout = s.layout();
    const bool vector = format() != ChartFormat::Png;
    if (vector)
        m_summary->setText(tr("Laid out as %1 x %2 and drawn as vector lines and text (%3 x %4 when shown at %5x).")
                               .arg(layout.width())
                               .arg(layout.height())
                               .arg(s.pixels.width())
                               .arg(s.pixels.height())
                               .arg(s.scale));
    else
        m_summary->setText(tr("%1 x %2 pixels, laid out as %3 x %4 (type and lines %5x).")
                               .arg(s.pixels.width())
                               .arg(s.pixels.height())
                               .arg(layout.width())
                               .arg(layout.height())
                               .arg(s.scale));
}

QString ExportChartDialog::saved() const
{
    const ExportSize s = size();
    const int i = m_size->currentData().toInt();
    return QStringList { chartFormatSuffix(format()), i == kCustom ? QStringLiteral("custom") : s.name,
        QString::number(s.pixels.width()), QString::number(s.pixels.height()), QString::number(s.scale) }
        .join(QLatin1Char('|'));
}

void ExportChartDialog::restore(const QString& line)
{
    const QStringList parts = line.split(QLatin1Char('|'));
    if (parts.size() != 5)
        return;
    for (const ChartFormat f : { ChartFormat::Png, ChartFormat::Svg, ChartFormat::Pdf })
        if (parts[0] == chartFormatSuffix(f))
            setFormat(f);
    if (parts[1] != QLatin1String("custom")) {
        choose(parts[1]);
        return;
    }
    bool okW = false, okH = false, okS = false;
    const int w = parts[2].toInt(&okW), h = parts[3].toInt(&okH);
    const double scale = parts[4].toDouble(&okS);
    if (okW && okH && okS && w >= 100 && h >= 100 && w <= 16000 && h <= 16000 && scale >= 0.5 && scale <= 4)
        setCustom(QSize(w, h), scale);
}

} // namespace paretoscope::ui
