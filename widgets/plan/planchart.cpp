#include "widgets/plan/planchart.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

PlanChart::PlanChart(QWidget* parent)
    : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    chart()->legend()->setAlignment(Qt::AlignRight);
    // "$1,000,000", "12,000 GPUs": the axes' numbers with separators (Qt Charts then formats with the locale)
    chart()->setLocalizeNumbers(true);
    chart()->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    setMinimumHeight(60);
}

std::optional<double> PlanChart::measureOf(const HardwarePlan& h, Measure m)
{
    if (!h.sized())
        return std::nullopt;
    switch (m) {
    case Measure::CostPerMonth:
        return h.costPerMonth;
    case Measure::Gpus:
        return double(h.gpus);
    case Measure::Megawatts:
        return h.powerMw;
    }
    return std::nullopt;
}

QString PlanChart::labelFormat(Measure m, double smallest)
{
    // as many decimals as the smallest label needs (0.01 MW on a small plan), the unit on every number
    const int decimals = smallest >= 1 ? 0 : std::min(int(std::ceil(-std::log10(std::max(smallest, 1e-6)))), 4);
    QString number = QStringLiteral("%.%1f").arg(decimals);
    switch (m) {
    case Measure::CostPerMonth:
        return QStringLiteral("$") + number;
    case Measure::Gpus:
        return number;
    case Measure::Megawatts:
        return number + QStringLiteral(" MW");
    }
    return number;
}

QString PlanChart::measureName(Measure m)
{
    switch (m) {
    case Measure::CostPerMonth:
        return tr("$/month");
    case Measure::Gpus:
        return tr("GPUs");
    case Measure::Megawatts:
        return tr("MW (all-in)");
    }
    return {};
}

void PlanChart::showMessage(const QString& message)
{
    chart()->removeAllSeries();
    for (QAbstractAxis* a : chart()->axes())
        chart()->removeAxis(a), delete a;
    m_targetLine = nullptr;
    m_lines.clear();
    chart()->setTitle(message);
}

void PlanChart::restyle()
{
    // in place: the lines are the hardware of m_lines in order, then the target's
    styleChart(chart());
    std::size_t line = 0;
    for (QAbstractSeries* s : chart()->series()) {
        auto* series = qobject_cast<QLineSeries*>(s);
        if (!series)
            continue;
        if (series == m_targetLine)
            series->setPen(QPen(chartColours().text, 1.2, Qt::DashLine));
        else if (line < m_lines.size())
            series->setPen(QPen(hardwareColour(m_lines[line++].first), 2.2));
    }
}

void PlanChart::setCurve(const std::vector<Plan>& curve, double target, Measure measure)
{
    // a line per hardware, in the order of the first plan (sorted by hardware)
    std::map<std::string, QList<QPointF>> byHw;
    std::vector<std::string> order;
    double xMin = target, xMax = target, yMin = INFINITY, yMax = 0;
    for (const Plan& p : curve) {
        xMin = std::min(xMin, p.target);
        xMax = std::max(xMax, p.target);
        for (const HardwarePlan& h : p.hardware) {
            if (!byHw.count(h.hardware))
                order.push_back(h.hardware);
            auto& pts = byHw[h.hardware];
            if (auto v = measureOf(h, measure); v && *v > 0) {
                pts.append(QPointF(p.target, *v));
                yMin = std::min(yMin, *v);
                yMax = std::max(yMax, *v);
            }
        }
    }
    m_lines.clear();
    for (const std::string& hw : order)
        m_lines.emplace_back(hw, byHw[hw]);
    m_target = target;
    if (yMax <= 0) {
        showMessage(tr("No hardware can be sized at these targets"));
        return;
    }
    chart()->setTitle(QString());
    rebuild(xMin, xMax, yMin, yMax, measure);
}

void PlanChart::rebuild(double xMin, double xMax, double yMin, double yMax, Measure measure)
{
    chart()->removeAllSeries();
    for (QAbstractAxis* a : chart()->axes())
        chart()->removeAxis(a), delete a;
    auto* ax = new QValueAxis;
    ax->setTitleText(tr("Target interactivity (tok/s/user)"));
    ax->setRange(xMin, xMax);
    ax->applyNiceNumbers();
    ax->setLabelFormat(QStringLiteral("%.0f"));
    chart()->addAxis(ax, Qt::AlignBottom);
    // costs across targets span orders of magnitude: a log axis keeps the cheap end readable
    QAbstractAxis* ay;
    if (yMax / yMin > 20) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        m_yMin = std::pow(10, std::floor(std::log10(yMin)));
        m_yMax = std::pow(10, std::ceil(std::log10(yMax)));
        log->setRange(m_yMin, m_yMax);
        log->setLabelFormat(labelFormat(measure, m_yMin));
        log->setMinorTickCount(-1);
        ay = log;
    } else {
        auto* lin = new QValueAxis;
        m_yMin = 0;
        m_yMax = yMax * 1.08;
        lin->setRange(m_yMin, m_yMax);
        lin->applyNiceNumbers();
        m_yMax = lin->max();
        lin->setLabelFormat(labelFormat(measure, m_yMax / 10));
        ay = lin;
    }
    ay->setTitleText(measureName(measure));
    chart()->addAxis(ay, Qt::AlignLeft);
    styleChart(chart());
    for (const auto& [hw, pts] : m_lines) {
        auto* s = new QLineSeries;
        s->setName(hardwareName(hw));
        QPen pen(hardwareColour(hw), 2.2);
        s->setPen(pen);
        s->setPointsVisible(true);
        s->replace(pts);
        chart()->addSeries(s);
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    m_targetLine = new QLineSeries;
    m_targetLine->setName(tr("target"));
    QPen pen(chartColours().text, 1.2, Qt::DashLine);
    m_targetLine->setPen(pen);
    chart()->addSeries(m_targetLine);
    m_targetLine->attachAxis(ax);
    m_targetLine->attachAxis(ay);
    chart()->legend()->markers(m_targetLine).front()->setVisible(false);
    setTarget(m_target);
}

void PlanChart::setTarget(double target)
{
    m_target = target;
    if (m_targetLine)
        m_targetLine->replace(QList<QPointF> { QPointF(target, m_yMin), QPointF(target, m_yMax) });
}

} // namespace paretoscope::ui
