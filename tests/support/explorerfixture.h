#pragma once
// The explorer as the explorer suites meet it: a store with the bundled dataset, the InferenceX API fixture and a
// model measured in FP8 only, in a temporary folder with settings of the suite's own, shown offscreen at 1366x768.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QListWidget>
#include <QObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <memory>

#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/sweeprecords.h"
#include "tests/support/testpaths.h"
#include "tests/support/testutil.h"
#include "widgets/filters/filterpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::testsupport {

/// `paretoscope-cli` run with the words of a command line (its program name dropped) plus extra options: its stdout,
/// and its stderr in `err` where given.
inline QByteArray runCommandLine(
    const std::string& line, const QStringList& extra, int* exitCode = nullptr, QByteArray* err = nullptr)
{
    auto words = splitCommandLine(line);
    if (!words)
        return {};
    QStringList args;
    for (std::size_t i = 1; i < words->size(); ++i)
        args << QString::fromStdString((*words)[i]);
    QProcess p;
    p.start(cliProgram(), args + extra);
    p.waitForFinished(30000);
    if (exitCode)
        *exitCode = p.exitCode();
    if (err)
        *err = p.readAllStandardError();
    return p.readAllStandardOutput();
}

/// The main window on a store in `dir` (store.sqlite) holding `records` (Paretoscope JSON runs), with settings of its
/// own under the application name `suite`, shown offscreen at 1366x768 once its first scope is shown; null, with the
/// reason in `error`, where any of that does not happen.
inline std::unique_ptr<ui::MainWindow> windowOnRecords(
    const QTemporaryDir& dir, const char* suite, const QJsonArray& records, std::string& error)
{
    isolateSettings(dir, suite);
    auto store = openStore(dir.filePath(QStringLiteral("store.sqlite")).toStdString(), false);
    if (!store.ok()) {
        error = store.error();
        return nullptr;
    }
    if (!writeFile(dir.filePath(QStringLiteral("runs.json")), QJsonDocument(records).toJson())) {
        error = "cannot write the runs";
        return nullptr;
    }
    auto imported = importPath(**store, dir.filePath(QStringLiteral("runs.json")).toStdString(), {});
    if (!imported[0].result.ok()) {
        error = imported[0].result.error();
        return nullptr;
    }
    auto window = std::make_unique<ui::MainWindow>(std::move(*store));
    window->setShowImportResults(false);
    window->setWindowState(Qt::WindowNoState); // a window without saved geometry fills the (offscreen) screen
    window->resize(1366, 768);
    QSignalSpy scope(window.get(), &ui::MainWindow::scopeShown);
    window->show();
    if (!scope.wait(10000)) {
        error = "the window showed no scope in 10 s";
        return nullptr;
    }
    return window;
}

/// The base of a test object whose tests share one explorer window; its initTestCase calls openExplorer.
class ExplorerFixture : public QObject {
protected:
    /// Fills the store and shows the window on it, under the application name `suite`; fails the calling test where
    /// either does not happen.
    void openExplorer(const char* suite)
    {
        isolateSettings(m_dir, suite);
        auto store = openStore(m_dir.filePath(QStringLiteral("store.sqlite")).toStdString(), true);
        QVERIFY(store.ok());
        QVERIFY(importPath(**store, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")).toStdString(), {})[0]
                    .result.ok());
        // a model measured in FP8 only
        const std::string json
            = recordsJson(sweepRecords("fp8-only-model", "h200", "sglang", "fp8", { 1, 8, 64 }, 120, 700));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("fp8.json")), QByteArray::fromStdString(json)));
        QVERIFY(importPath(**store, m_dir.filePath(QStringLiteral("fp8.json")).toStdString(), {})[0].result.ok());
        m_window = std::make_unique<ui::MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->setWindowState(Qt::WindowNoState); // a window without saved geometry fills the (offscreen) screen
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(waitShown());
    }

    /// Closes the window (which saves its settings) and starts one again on the same store, shown at `size`, as a
    /// restart of the explorer; `between` runs with no window (a settings change, say). False where the store does
    /// not open or no scope is shown in 10 s.
    bool restartWindow(QSize size = QSize(1366, 768), const std::function<void()>& between = {})
    {
        if (m_window)
            m_window->close();
        m_window.reset();
        if (between)
            between();
        auto store = openStore(m_dir.filePath(QStringLiteral("store.sqlite")).toStdString(), false);
        if (!store.ok())
            return false;
        m_window = std::make_unique<ui::MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->setWindowState(Qt::WindowNoState); // a window without saved geometry fills the (offscreen) screen
        m_window->resize(size);
        m_window->show();
        return waitShown();
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

    /// Selects a scope and waits until it is the one shown.
    bool show(const QString& model, int isl, int osl)
    {
        if (!m_window->filters()->selectScope(model, {}, isl, osl))
            return false;
        for (int i = 0; i < 10; ++i) {
            auto d = m_window->scopeData();
            if (d && QString::fromStdString(d->scope.model) == model && d->scope.isl.value_or(0) == isl
                && d->scope.osl.value_or(0) == osl)
                return true;
            waitShown();
        }
        return false;
    }

    /// The entry of the filter lists that reads `text`; null where none does.
    QListWidgetItem* filterItem(const QString& text)
    {
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int r = 0; r < l->count(); ++r)
                if (l->item(r)->text() == text)
                    return l->item(r);
        return nullptr;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
};

} // namespace paretoscope::testsupport
