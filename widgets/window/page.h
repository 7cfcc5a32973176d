#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QSettings;
class QWidget;

namespace paretoscope::ui {

class MainWindow;

/// A tab of the window, a page of its own or a tab of the Explore page (docs/architecture.md section 2): a widget with
/// the state that is its own, made by the page table's factory (pageSpecs) when the window is built. The window tells
/// each page when a scope is shown and when the page comes to the front; a page reads what it shows (load) when the
/// scope changed while it is in front, or when it comes to the front after a change, never for a scope it is not shown
/// on.
class Page : public QObject {
    Q_OBJECT
public:
    explicit Page(MainWindow& window);

    /// What the tab shows.
    virtual QWidget* widget() const = 0;
    /// What the page keeps between sessions, under its own group ("plan/..."). Restored before the window connects
    /// its panels and reads the store.
    virtual void restoreSettings(const QSettings& settings);
    virtual void saveSettings(QSettings& settings) const;
    /// Follows what the window shares (the readout's target and price, the filters): called once, after the
    /// settings are restored.
    virtual void connectToWindow();

    /// A scope (or as-of day) is shown: the page is out of date, and loads now when it is in front.
    void scopeShown(bool inFront);
    /// The page came to the front: it loads when out of date.
    void entered();
    /// Out of date: shown on another scope than the one in view.
    bool stale() const { return m_stale; }

signals:
    /// What the page shows is up to date with the scope in view (--screenshot takes its picture then).
    void ready();

protected:
    /// Reads what the page shows for the scope in view (through the window's store worker); ready follows. This
    /// default has nothing to read: the page is ready at once.
    virtual void load();
    MainWindow& window() const { return m_window; }

private:
    MainWindow& m_window;
    bool m_stale = true;
};

/// A page in the table: its key names it in `paretoscope --tab` and in the settings, its title is the tab's text.
struct PageSpec {
    QString key;
    QString title;
    std::function<Page*(MainWindow&)> make; ///< the page, a child of the window
    /// A tab under the readout on the Explore page (the ladder, the summary: they read the chart's scope at the
    /// readout's target) rather than a page of its own beside Explore.
    bool onExplore = false;
};

/// The window's pages in tab order: the built-in ones (builtinpages.cpp), then those added.
const std::vector<PageSpec>& pageSpecs();
/// Adds a page to every window made after the call; a key already there is refused (false).
bool addPage(PageSpec spec);
/// The page of a key (case-insensitive), or null.
const PageSpec* findPageSpec(const QString& key);
/// The keys in tab order, as `--tab` lists them ("ladder, summary, plan, ...").
QString pageKeys();

} // namespace paretoscope::ui
