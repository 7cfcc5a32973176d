// The window's page table (widgets/window/page.h): a page added through the table alone is a tab of the next window,
// is put in front by its key, reads what it shows when it is in front and the scope changes (or when it comes to the
// front after a change, never behind the others), and keeps its own settings and its place in front across a restart.
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include "tests/support/bundledwindowfixture.h"
#include "tests/support/suite.h"
#include "widgets/window/page.h"

using namespace paretoscope;

namespace {

// A page of a line of text that counts the times it was asked to read what it shows.
class NotesPage : public ui::Page {
    Q_OBJECT
public:
    explicit NotesPage(ui::MainWindow& window)
        : Page(window)
        , m_label(new QLabel(QStringLiteral("notes"), &window))
    {
    }
    QWidget* widget() const override { return m_label; }
    void restoreSettings(const QSettings& s) override { restored = s.value("notes/loads", -1).toInt(); }
    void saveSettings(QSettings& s) const override { s.setValue("notes/loads", loads); }
    int loads = 0;
    int restored = -2; // restoreSettings not called

protected:
    void load() override
    {
        ++loads;
        Page::load(); // ready
    }

private:
    QLabel* m_label;
};

NotesPage* notesOf(const ui::MainWindow& window)
{
    return window.pages().empty() ? nullptr : qobject_cast<NotesPage*>(window.pages().back());
}

} // namespace

class TestPages : public testsupport::BundledWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        const std::size_t builtin = ui::pageSpecs().size();
        QVERIFY(ui::addPage({ QStringLiteral("notes"), QStringLiteral("Notes"),
            [](ui::MainWindow& w) -> ui::Page* { return new NotesPage(w); } }));
        QCOMPARE(ui::pageSpecs().size(), builtin + 1);
        openWindow("tst_pages");
    }

    void theTableRefusesAKeyTwiceOrNone()
    {
        const auto make = [](ui::MainWindow& w) -> ui::Page* { return new NotesPage(w); };
        QVERIFY(!ui::addPage({ QStringLiteral("Plan"), QStringLiteral("Another plan"), make }));
        QVERIFY(!ui::addPage({ QString(), QStringLiteral("Nameless"), make }));
        QVERIFY(!ui::addPage({ QStringLiteral("empty"), QStringLiteral("Empty"), {} }));
        QVERIFY(ui::findPageSpec(QStringLiteral("NOTES")));
        QVERIFY(ui::pageKeys().endsWith(QStringLiteral("live, notes")));
    }

    void anAddedPageIsATabAfterTheBuiltInOnes()
    {
        // Explore (with the pages onExplore in its tabs under the readout), then each other page in table order
        QTabWidget* tabs = m_window->tabs();
        QTabWidget* explore = m_window->exploreTabs();
        QCOMPARE(std::size_t(tabs->count() - 1 + explore->count()), ui::pageSpecs().size());
        QCOMPARE(tabs->tabText(0), QStringLiteral("Explore"));
        QCOMPARE(explore->tabText(0), QStringLiteral("Ladder"));
        QCOMPARE(explore->tabText(1), QStringLiteral("Summary"));
        QCOMPARE(tabs->tabText(tabs->count() - 1), QStringLiteral("Notes"));
        NotesPage* notes = notesOf(*m_window);
        QVERIFY(notes);
        QCOMPARE(tabs->widget(tabs->count() - 1), notes->widget());
        QCOMPARE(notes->objectName(), QStringLiteral("notes"));
        QCOMPARE(notes->restored, -1); // asked for its settings, which a new store's window does not have
        // the built-in panels are the built-in pages' widgets
        QCOMPARE(tabs->indexOf(m_window->plan()), 1);
        QCOMPARE(tabs->indexOf(m_window->sessionPanel()), 4);
        QCOMPARE(explore->indexOf(m_window->ladder()), 0);
    }

    void itReadsOnlyWhileInFront()
    {
        NotesPage* notes = notesOf(*m_window);
        QVERIFY(m_window->currentPage() != notes);
        QCOMPARE(notes->loads, 0); // scopes were shown while it was behind the others
        QVERIFY(notes->stale());

        QSignalSpy ready(notes, &ui::Page::ready);
        QVERIFY(m_window->showPage(QStringLiteral("NOTES")));
        QCOMPARE(m_window->currentPage(), notes);
        QCOMPARE(notes->loads, 1); // out of date: read as it came to the front
        QCOMPARE(ready.count(), 1);

        m_window->refreshScopes(); // the scope is read again and shown, with the page in front
        QVERIFY(waitShown());
        QCOMPARE(notes->loads, 2);

        QVERIFY(m_window->showPage(QStringLiteral("ladder")));
        m_window->refreshScopes();
        QVERIFY(waitShown());
        QCOMPARE(notes->loads, 2); // behind the ladder: not read
        QVERIFY(m_window->showPage(QStringLiteral("notes")));
        QCOMPARE(notes->loads, 3);
        QVERIFY(m_window->showPage(QStringLiteral("ladder")));
        QVERIFY(m_window->showPage(QStringLiteral("notes")));
        QCOMPARE(notes->loads, 3); // up to date: not read again
        QVERIFY(!m_window->showPage(QStringLiteral("nowhere")));
        QCOMPARE(m_window->currentPage(), notes);
    }

    void itKeepsItsSettingsAndItsPlaceInFront()
    {
        const int loads = notesOf(*m_window)->loads;
        m_window->close(); // saves the settings
        QCOMPARE(QSettings().value("window/tab").toString(), QStringLiteral("notes"));
        m_window.reset();
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().c_str());
        m_window = std::make_unique<ui::MainWindow>(std::move(*store));
        m_window->show();
        QVERIFY(waitShown());
        NotesPage* notes = notesOf(*m_window);
        QCOMPARE(notes->restored, loads);
        QCOMPARE(m_window->currentPage(), notes);
        QCOMPARE(notes->loads, 1); // in front when the first scope was shown
    }
};

PARETOSCOPE_SUITE(TestPages)
#include "tst_pages.moc"
