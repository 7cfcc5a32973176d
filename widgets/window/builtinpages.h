#pragma once

#include <vector>

#include "widgets/window/page.h"

namespace paretoscope::ui {

class HistoryPanel;
class LadderPanel;
class RunsPanel;
class SessionPanel;
class SummaryPanel;

/// The ladder: readings at several targets, with its targets kept between sessions.
class LadderPage : public Page {
    Q_OBJECT
public:
    explicit LadderPage(MainWindow& window);
    QWidget* widget() const override;
    LadderPanel* panel() const { return m_panel; }
    void restoreSettings(const QSettings& settings) override;
    void saveSettings(QSettings& settings) const override;

private:
    LadderPanel* m_panel;
};

/// The summary in words at the readout's target and price (the window writes it).
class SummaryPage : public Page {
    Q_OBJECT
public:
    explicit SummaryPage(MainWindow& window);
    QWidget* widget() const override;
    SummaryPanel* panel() const { return m_panel; }

private:
    SummaryPanel* m_panel;
};

/// The history of the readings over run dates: it follows the readout and the ladder's targets, and is ready when
/// its panel has computed for the scope's timeline.
class HistoryPage : public Page {
    Q_OBJECT
public:
    explicit HistoryPage(MainWindow& window);
    QWidget* widget() const override;
    HistoryPanel* panel() const { return m_panel; }
    void connectToWindow() override;

protected:
    void load() override;

private:
    HistoryPanel* m_panel;
};

/// The runs in scope, read from the store page by page; deletions go through the store worker.
class RunsPage : public Page {
    Q_OBJECT
public:
    explicit RunsPage(MainWindow& window);
    QWidget* widget() const override;
    RunsPanel* panel() const { return m_panel; }
    void connectToWindow() override;

protected:
    void load() override;

private:
    void deleteRuns(const std::vector<long long>& ids);
    RunsPanel* m_panel;
};

/// The live session's levels and log, and the sessions in the store.
class LivePage : public Page {
    Q_OBJECT
public:
    explicit LivePage(MainWindow& window);
    QWidget* widget() const override;
    SessionPanel* panel() const { return m_panel; }

private:
    SessionPanel* m_panel;
};

/// The built-in pages in tab order: ladder, summary, plan, history, runs, live.
std::vector<PageSpec> builtinPages();

} // namespace paretoscope::ui
