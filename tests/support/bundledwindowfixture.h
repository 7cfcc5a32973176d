#pragma once
// The main window the widget suites drive through their tests: a new store (it gets the bundled dataset) in a
// temporary folder, settings of the suite's own there, and the window shown offscreen at 1600x1000.

#include <QObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "core/import/bundled.h"
#include "tests/support/testutil.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::testsupport {

/// The base of a test object whose tests share one main window; its initTestCase calls openWindow.
class BundledWindowFixture : public QObject {
protected:
    /// Opens the store and shows the window on it, under the application name `suite`; fails the calling test where
    /// either does not happen.
    void openWindow(const char* suite)
    {
        isolateSettings(m_dir, suite);
        m_db = m_dir.filePath(QStringLiteral("store.sqlite"));
        auto store = openStore(m_db.toStdString(), true); // a new store gets the bundled dataset
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().c_str());
        m_window = std::make_unique<ui::MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(waitShown());
    }

    /// Waits for the window to show a scope; false after 10 seconds.
    bool waitShown()
    {
        QSignalSpy spy(m_window.get(), &ui::MainWindow::scopeShown);
        const bool shown = spy.wait(10000);
        if (!m_window->storeProblem().isEmpty()) // what was shown is the store's problem: a failing test says which
            qWarning("the window shows a store problem: %s", qPrintable(m_window->storeProblem()));
        return shown;
    }

    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<ui::MainWindow> m_window;
};

} // namespace paretoscope::testsupport
