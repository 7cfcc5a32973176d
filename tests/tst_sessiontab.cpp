// The live tab (offscreen) after real sessions against the engine emulator: a level that a fault flags shows its flag
// in the Validity column, its row stands out and the tooltip over it gives core's explanation of the flag; a clean
// level shows "ok" in the default colours.
#include <QtTest>

#include <QHelpEvent>
#include <QSettings>
#include <QTableWidget>
#include <QTextDocument>
#include <QToolTip>

#include <cstdlib>

#include "core/import/bundled.h"
#include "core/live/validity.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "widgets/session/sessiondialog.h"
#include "widgets/session/sessionpanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

// What a tooltip reads as, its markup taken away.
QString plainText(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

} // namespace

class TestSessionTab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessiontab"));
        // no GPU of this machine is sampled: the levels' flags come from the emulator alone
        qputenv("PARETOSCOPE_NVML_LIBRARY", "/nonexistent");
        qputenv("PARETOSCOPE_ROCM_SMI_LIBRARY", "/nonexistent");
        auto store = openStore(m_dir.filePath(QStringLiteral("store.sqlite")).toStdString(), false);
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().c_str());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->resize(1400, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase() { m_window.reset(); }

    void validityColumn_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<QString>("flag"); // empty: the level checks out
        QTest::addColumn<bool>("marked"); // the level is also marked as not trusted (more than 5% failed)
        QTest::newRow("clean") << QStringList() << "" << false;
        // a fifth of the requests answered with HTTP 500: far above the 1% the flag allows, and the 5% of the mark
        QTest::newRow("failed") << QStringList { QStringLiteral("--fail-500"), QStringLiteral("0.2") }
                                << QStringLiteral("failed") << true;
        // the server counts 3 more prompt tokens than were sent: flagged, not marked; the flag alone sets it apart
        QTest::newRow("prompt-mismatch") << QStringList { QStringLiteral("--prompt-offset"), QStringLiteral("3") }
                                         << QStringLiteral("prompt-mismatch") << false;
    }
    void validityColumn()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(QString, flag);
        QFETCH(bool, marked);
        // a TTFT of 50 ms: a client slowed by the suites beside it stays far below client-bound's 5% of it
        SimProcess sim(QStringList { QStringLiteral("--ttft-ms"), QStringLiteral("50"), QStringLiteral("--itl-ms"),
                           QStringLiteral("5") }
            + simArgs);
        QVERIFY2(sim.ok(), qPrintable(sim.output()));
        SessionDialog dialog { QString() };
        dialog.setEndpoint(sim.url(), QStringLiteral("b300"), QStringLiteral("vllm"), 2);
        dialog.setConcurrency(QStringLiteral("4"));
        dialog.setLengths(64, 8);
        QVERIFY(dialog.build());
        SessionRequest request = dialog.request();
        request.config.promptsPerLevel = 40;
        request.config.warmups = 4;
        QSignalSpy levels(&m_window->sessions(), &SessionController::levelStored);
        QSignalSpy finished(m_window.get(), &MainWindow::sessionFinished);
        m_window->startSession(request);
        QVERIFY(finished.wait(120000));
        // a session whose every level is marked as not trusted ends failed, saying why; its level is kept
        QCOMPARE(finished.front().front().toString(), marked ? QStringLiteral("failed") : QStringLiteral("finished"));
        QCOMPARE(levels.size(), 1);
        const auto stored = levels.front().front().value<StoredLevelLine>();
        // what the session stored: no flag, or the fault's (the table shows the stored flags, not a judgement of its
        // own)
        if (flag.isEmpty()) {
            QVERIFY2(stored.validity.isEmpty(), qPrintable(stored.validity));
        } else {
            QVERIFY2(stored.validity.split(u',').contains(flag), qPrintable(stored.validity));
        }
        QCOMPARE(!stored.marked.isEmpty(), marked);

        auto* table = m_window->sessionPanel()->findChild<QTableWidget*>();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 1);
        int column = -1;
        for (int c = 0; c < table->columnCount(); ++c)
            if (table->horizontalHeaderItem(c)->text() == QStringLiteral("Validity"))
                column = c;
        QVERIFY(column >= 0);
        QTableWidgetItem* cell = table->item(0, column);
        QVERIFY(cell);
        QCOMPARE(cell->text(), flag.isEmpty() ? QStringLiteral("ok") : stored.validity);

        // the whole row stands out in another colour than the table's text, or none does
        const QColor text = table->palette().color(QPalette::Text);
        for (int c = 0; c < table->columnCount(); ++c) {
            const QVariant fg = table->item(0, c)->data(Qt::ForegroundRole);
            if (flag.isEmpty()) {
                QVERIFY2(!fg.isValid(), qPrintable(table->horizontalHeaderItem(c)->text()));
            } else {
                QVERIFY2(fg.isValid(), qPrintable(table->horizontalHeaderItem(c)->text()));
                QVERIFY(fg.value<QBrush>().color() != text);
            }
        }

        // the tooltip shown over the Validity cell: the flag in plain language, as core explains it
        table->scrollToItem(cell);
        const QPoint at = table->visualItemRect(cell).center();
        QHelpEvent over(QEvent::ToolTip, at, table->viewport()->mapToGlobal(at));
        QApplication::sendEvent(table->viewport(), &over);
        if (flag.isEmpty()) {
            QVERIFY2(cell->toolTip().isEmpty(), qPrintable(cell->toolTip()));
        } else {
            const QString explanation = QString::fromStdString(flagDescription(flag.toStdString()));
            QVERIFY(explanation != flag); // core has words for it
            QVERIFY2(plainText(QToolTip::text()).contains(explanation), qPrintable(QToolTip::text()));
            QVERIFY2(plainText(cell->toolTip()).contains(explanation), qPrintable(cell->toolTip()));
            // with the mark's reason where the level is marked too
            QCOMPARE(plainText(QToolTip::text()).contains(QStringLiteral("Marked as not trusted: ") + stored.marked),
                marked);
        }
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

PARETOSCOPE_SUITE(TestSessionTab)
#include "tst_sessiontab.moc"
