#pragma once

#include <vector>

#include "widgets/session/sessioncontroller.h"
#include "widgets/window/page.h"

namespace paretoscope::ui {

class HistoryPanel;
class LadderPanel;
class RunsPanel;
class SessionPanel;
class PrecisionPanel;
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

/// The precision trade-off at the readout's target and price: per hardware FP4 against FP8 with the accuracy of each
/// group read (docs/evaluations.md).
class PrecisionPage : public Page {
    Q_OBJECT
public:
    explicit PrecisionPage(MainWindow& window);
    QWidget* widget() const override;
    PrecisionPanel* panel() const { return m_panel; }
    void connectToWindow() override;

protected:
    void load() override;

private:
    PrecisionPanel* m_panel;
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

/// The live session: its levels and log, the sessions in the store, and the session itself (the dialog that asks
/// for it, the controller that runs it, the first level's scope brought into view).
class LivePage : public Page {
    Q_OBJECT
public:
    explicit LivePage(MainWindow& window);
    QWidget* widget() const override;
    SessionPanel* panel() const { return m_panel; }
    SessionController& sessions() { return m_sessions; }
    void connectToWindow() override;

    /// Session → New live session…: the devices found, then the dialog; a running session is shown instead.
    void askNewSession();
    /// Starts a session; each level's point shows on the chart as soon as it is stored.
    void startSession(SessionRequest request);
    /// Reads the sessions in the store (marking those whose process died as interrupted, at the window's start).
    void refreshSessions(bool markInterrupted);

private:
    void levelStored(const StoredLevelLine& level);
    SessionPanel* m_panel;
    SessionController m_sessions;
    bool m_scopeShown = false; // the running session's scope was selected at its first level
};

/// The built-in pages in tab order: ladder, summary, plan, history, runs, live.
std::vector<PageSpec> builtinPages();

} // namespace paretoscope::ui
