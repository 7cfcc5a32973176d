// The main window's layout and what it keeps between sessions: the first window's size, the panels' split, the
// settings restored and saved, the folders file dialogs open in.
#include "widgets/window/mainwindow.h"

#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <algorithm>
#include <cmath>

#include "core/analysis/plandefaults.h"
#include "core/import/bundled.h"
#include "core/model/runselection.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/filters/slolimits.h"
#include "widgets/window/page.h"

namespace paretoscope::ui {

namespace {

// The chart's x as kept: its name as `frontier --x` takes it ("ttft"), or 0 and 1 as versions before TTFT kept it.
ChartX chartXSetting(const QVariant& value)
{
    if (const auto x = parseChartX(value.toString().toStdString()))
        return *x;
    return value.toInt() == 1 ? ChartX::Latency : ChartX::Interactivity;
}

} // namespace

QString MainWindow::lastFolder(const QString& kind)
{
    const QString dir = QSettings().value(QStringLiteral("dialogs/") + kind).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void MainWindow::rememberFolder(const QString& kind, const QString& folder)
{
    QSettings().setValue(QStringLiteral("dialogs/") + kind, folder);
}

void MainWindow::fitToScreen()
{
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect avail = screen->availableGeometry();
    // a small screen is used whole; a large one mostly, the window centred on it
    if (avail.width() < 1600 || avail.height() < 1000) {
        resize(avail.size());
        setWindowState(windowState() | Qt::WindowMaximized);
        return;
    }
    const QSize size(avail.width() * 9 / 10, avail.height() * 9 / 10);
    resize(size);
    move(avail.center() - QPoint(size.width() / 2, size.height() / 2));
}

void MainWindow::fitPanels()
{
    // once, with the first scope's readings in the readout (the splitters' saved state wins, if there is one): the
    // filter sidebar shown on a wide window and folded away on a narrow one (the chart needs the room more); the
    // readout as wide as its essential columns, and tall enough for nine hardware without scrolling;
    // the chart the rest
    if (m_layout.fitted || width() < 400)
        return;
    m_layout.fitted = true;
    const int total = m_layout.main->width() > 0 ? m_layout.main->width() : width();
    const bool wide = total >= 1600;
    const int filters = wide ? m_layout.filtersWidth : 0;
    m_layout.main->setSizes({ filters, total - filters });
    setFiltersShown(wide);
    const int page = m_layout.explore->width() > 0 && filters == 0 ? m_layout.explore->width() : total - filters;
    // the readout's essential columns (the ratio to a baseline and J/token where it is dragged wider: the sentence
    // under the table and the ladder carry them), up to 30% of the page
    const int readout = std::min(m_readout->neededWidth(false), page * 30 / 100);
    m_layout.explore->setSizes({ std::max(page - readout, 300), readout });
    const int height = m_layout.side->height() > 0 ? m_layout.side->height() : this->height();
    const int readoutHeight = std::min(m_readout->neededHeight(9), height * 4 / 5);
    m_layout.side->setSizes({ readoutHeight, std::max(height - readoutHeight, 1) });
}

void MainWindow::restoreSettings()
{
    QSettings s;
    // the saved window where it was saved on a screen of this size; on another screen (a laptop after a monitor)
    // the window fits the screen afresh, and so do its panels
    const QScreen* screen = QGuiApplication::primaryScreen();
    const QSize avail = screen ? screen->availableGeometry().size() : QSize();
    const bool sameScreen = s.value("window/screen").toSize() == avail;
    if (s.contains("window/geometry") && sameScreen)
        restoreGeometry(s.value("window/geometry").toByteArray());
    else
        fitToScreen();
    // the split of the pages (the keys of the window before them, a strip of tabs under the chart, are not read)
    if (sameScreen && s.contains("window/sidebar") && s.contains("window/explore")
        && s.contains("window/exploreSide")) {
        m_layout.fitted = m_layout.main->restoreState(s.value("window/sidebar").toByteArray())
            && m_layout.explore->restoreState(s.value("window/explore").toByteArray())
            && m_layout.side->restoreState(s.value("window/exploreSide").toByteArray());
        m_layout.filtersWidth = std::max(s.value("window/sidebarWidth", m_layout.filtersWidth).toInt(), 120);
        setFiltersShown(filtersShown());
    }
    // the page in front when the window closed, by its key (or its title, as windows before the page table kept
    // it); its contents load with the first scope, as any page's
    const QString tab = s.value("window/tab").toString();
    if (!showPage(tab))
        for (std::size_t i = 0; i < m_pages.size(); ++i)
            if (pageSpecs()[i].title == tab)
                showPanel(m_pages[i]->widget());
    m_filters->setUncheckedByScope(s.value("filters/uncheckedByScope").toMap());
    m_filters->setDates(s.value("filters/from").toString(), s.value("filters/to").toString());
    m_filters->setIncludeMarked(s.value("filters/includeMarked", false).toBool());
    {
        Scope limits;
        if (const double ttft = s.value("filters/ttftMax", 0.0).toDouble(); ttft > 0)
            limits.ttftMax = ttft;
        limits.ttftStat = s.value("filters/ttftStat").toString() == u"p99" ? LatencyStat::P99 : LatencyStat::Median;
        if (const double tpot = s.value("filters/tpotMax", 0.0).toDouble(); tpot > 0)
            limits.tpotMax = tpot;
        m_filters->limits()->setFrom(limits);
    }
    // the task shown (a name that no longer reads is the default), then the requirement on it
    if (auto task = accuracyTaskName(s.value("filters/accuracyTask").toString().toStdString()))
        m_filters->accuracy()->setTask(QString::fromStdString(*task));
    if (const QString kept = s.value("filters/minAccuracy").toString(); !kept.isEmpty()) {
        // a requirement that no longer reads (a settings file edited by hand) is off, as no requirement
        auto accuracy = parseAccuracyRequirement(kept.toStdString());
        if (accuracy)
            accuracy->allowUnevaluated = s.value("filters/allowUnevaluated", false).toBool();
        m_filters->accuracy()->setRequirement(accuracy ? std::optional<AccuracyRequirement>(*accuracy) : std::nullopt);
    }
    {
        const QSignalBlocker block(m_filters->runDates());
        m_filters->runDates()->setRuns(
            parseRunSelection(s.value("filters/runs").toString().toStdString()).value_or(RunSelection::Latest));
    }
    m_readout->setPrice(s.value("readout/tier", QString::fromStdString(bundledPricing().defaultTier().key)).toString(),
        s.value("readout/customPrice", PlanDefaults {}.usdPerGpuHour).toDouble());
    m_readout->setMetric(static_cast<TputMetric>(s.value("readout/metric", int(TputMetric::Total)).toInt()));
    m_readout->setTarget(s.value("readout/target", 50.0).toDouble());
    m_readout->setHideSparse(s.value("readout/hideSparse", false).toBool());
    m_readout->setReading(
        parseReading(s.value("readout/reading").toString().toStdString()).value_or(Reading::Deployable));
    if (s.contains("readout/baseline"))
        m_readout->restoreBaseline(s.value("readout/baseline").toString());
    ladder()->setHideSparse(m_readout->hideSparse());
    ladder()->setReading(m_readout->reading());
    m_chart->setReading(m_readout->reading());
    m_chart->setHideSparse(m_readout->hideSparse());
    ChartState cs = m_chart->state();
    cs.request.x = chartXSetting(s.value("chart/x"));
    cs.request.y
        = static_cast<ChartY>(std::clamp(s.value("chart/y", 0).toInt(), 0, int(ChartY::MeasuredJoulesPerToken)));
    cs.request.logX = s.value("chart/logX", true).toBool();
    cs.request.logY = s.value("chart/logY", false).toBool();
    cs.groups = static_cast<ChartGroups>(std::clamp(s.value("chart/groups", 0).toInt(), 0, int(ChartGroups::Envelope)));
    m_chart->setState(cs);
    for (Page* page : m_pages)
        page->restoreSettings(s);
}

void MainWindow::selectRememberedScope()
{
    // the remembered scope if the store still has it, else the bundled dataset's
    const QSignalBlocker block(m_filters);
    QSettings s;
    const QString model = s.value("scope/model", QString::fromStdString(std::string(kBundledModel))).toString();
    if (!m_filters->selectScope(model,
            s.value("scope/workload", QString::fromStdString(std::string(kBundledWorkload))).toString(),
            s.value("scope/isl", 0).toInt(), s.value("scope/osl", 0).toInt()))
        m_filters->selectScope(QString::fromStdString(std::string(kBundledModel)),
            QString::fromStdString(std::string(kBundledWorkload)), 0, 0);
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        s.setValue("window/screen", screen->availableGeometry().size());
    if (m_layout.fitted) {
        s.setValue("window/sidebar", m_layout.main->saveState());
        s.setValue("window/explore", m_layout.explore->saveState());
        s.setValue("window/exploreSide", m_layout.side->saveState());
        s.setValue("window/sidebarWidth", filtersShown() ? m_layout.main->sizes().value(0) : m_layout.filtersWidth);
    }
    if (const Page* page = currentPage())
        s.setValue("window/tab", page->objectName()); // by its key: pages may be added before it
    const Scope base = m_filters->baseScope();
    s.setValue("scope/model", QString::fromStdString(base.model));
    s.setValue("scope/workload", QString::fromStdString(base.workload));
    s.setValue("scope/isl", base.isl.value_or(0));
    s.setValue("scope/osl", base.osl.value_or(0));
    s.setValue("filters/uncheckedByScope", m_filters->uncheckedByScope());
    s.setValue("filters/includeMarked", m_filters->includeMarked());
    s.setValue("filters/runs", QString::fromLatin1(runSelectionName(m_filters->runDates()->runs()).data()));
    const Scope full = m_filters->scope();
    s.setValue("filters/from", QString::fromStdString(full.dateFrom));
    s.setValue("filters/to", QString::fromStdString(full.dateTo));
    s.setValue("filters/ttftMax", full.ttftMax.value_or(0.0));
    s.setValue(
        "filters/ttftStat", full.ttftStat == LatencyStat::P99 ? QStringLiteral("p99") : QStringLiteral("median"));
    s.setValue("filters/tpotMax", full.tpotMax.value_or(0.0));
    const auto accuracy = m_filters->accuracy()->requirement();
    s.setValue(
        "filters/minAccuracy", accuracy ? QString::fromStdString(accuracyRequirementText(*accuracy)) : QString());
    s.setValue("filters/allowUnevaluated", accuracy && accuracy->allowUnevaluated);
    s.setValue("filters/accuracyTask", m_filters->accuracy()->task());
    const PriceChoice price = m_readout->price();
    s.setValue("readout/tier", QString::fromStdString(price.tierKey));
    // the custom price is kept whichever tier is chosen, to be there when the planner comes back to it
    s.setValue("readout/customPrice", m_readout->customPrice());
    s.setValue("readout/metric", int(m_readout->tputMetric()));
    s.setValue("readout/target", m_readout->target());
    s.setValue("readout/hideSparse", m_readout->hideSparse());
    s.setValue("readout/reading", QString::fromUtf8(readingName(m_readout->reading())));
    // a baseline chosen, "(none)" included, comes back; the default (the last hardware) is not written
    if (m_readout->baselineChosen())
        s.setValue("readout/baseline", m_readout->baseline());
    else
        s.remove("readout/baseline");
    const ChartState cs = m_chart->state();
    s.setValue("chart/x", QString::fromLatin1(chartXName(cs.request.x).data()));
    s.setValue("chart/y", int(cs.request.y));
    s.setValue("chart/logX", cs.request.logX);
    s.setValue("chart/logY", cs.request.logY);
    s.setValue("chart/groups", int(cs.groups));
    for (Page* page : m_pages)
        page->saveSettings(s);
}

} // namespace paretoscope::ui
