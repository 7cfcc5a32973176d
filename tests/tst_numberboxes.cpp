// Numbers typed as a person types them (docs/architecture.md section 12.11): core's parser on its own, then every
// number box of the window taking 2e6, 2,000,000, 1e9, abc and -1 as typed: a number within the box's range is
// taken exactly, anything else is refused with the reason beside the box, the text left as typed and the value as it
// was. And a wheel that scrolls a panel passes its combo boxes by.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>

#include "core/analysis/typednumber.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "widgets/common/numberbox.h"
#include "widgets/filters/slolimits.h"
#include "widgets/plan/planpanel.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestNumberBoxes : public ExplorerFixture {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        openExplorer("tst_numberboxes");
    }
    void cleanupTestCase() { m_window.reset(); }

    void parser_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value"); // NaN: refused
        QTest::addColumn<QString>("reason");
        QTest::newRow("plain") << "2000000" << 2e6 << "";
        QTest::newRow("exponent") << "2e6" << 2e6 << "";
        QTest::newRow("thousands") << "2,000,000" << 2e6 << "";
        QTest::newRow("spaces") << "  42.5 " << 42.5 << "";
        QTest::newRow("negative exponent") << "1.5E-3" << 0.0015 << "";
        QTest::newRow("plus") << "+3" << 3.0 << "";
        QTest::newRow("fraction only") << ".5" << 0.5 << "";
        QTest::newRow("grouped with decimals") << "1,234.5" << 1234.5 << "";
        QTest::newRow("letters") << "abc" << double(NAN) << "'abc' is not a number";
        QTest::newRow("empty") << "" << double(NAN) << "nothing typed";
        QTest::newRow("groups of four") << "2,0000" << double(NAN) << "groups of three digits";
        QTest::newRow("leading separator") << ",200" << double(NAN) << "groups of three digits";
        QTest::newRow("no exponent digits") << "2e" << double(NAN) << "digits after the e";
        QTest::newRow("trailing word") << "12 tok/s" << double(NAN) << "is not a number";
        QTest::newRow("too large") << "1e400" << double(NAN) << "too large";
        QTest::newRow("too small") << "1e-400" << double(NAN) << "too small";
        QTest::newRow("two signs") << "--1" << double(NAN) << "is not a number";
    }
    void parser()
    {
        QFETCH(QString, text);
        QFETCH(double, value);
        QFETCH(QString, reason);
        auto v = parseTypedNumber(text.toStdString());
        QCOMPARE(v.ok(), !std::isnan(value));
        if (v)
            QCOMPARE(*v, value);
        else
            QVERIFY2(v.error().find(reason.toStdString()) != std::string::npos, v.error().c_str());
    }

    // A locale that writes 2.000.000,5 reads it so; a no-break space separator is typed with a plain space too.
    void otherLocales()
    {
        const NumberSyntax german { ",", "." };
        QCOMPARE(*parseTypedNumber("2.000.000,5", german), 2000000.5);
        QCOMPARE(*parseTypedNumber("2e6", german), 2e6);
        QVERIFY(!parseTypedNumber("2,000,000", german));
        const NumberSyntax french { ",", "\xe2\x80\xaf" };
        QCOMPARE(*parseTypedNumber("2\xe2\x80\xaf"
                                   "000\xe2\x80\xaf"
                                   "000",
                     french),
            2e6);
        QCOMPARE(*parseTypedNumber("2 000 000,25", french), 2000000.25);
        QVERIFY(checkTypedNumber("0", { 0, 10, true }).error().find("'0' must be above 0") != std::string::npos);
        QVERIFY(checkTypedNumber("11", { 0, 10 }).error().find("more than the most this box takes, 10")
            != std::string::npos);
    }

    // Every number box of the window, each typed string: taken exactly within the range, else refused and said.
    void everyBoxTakesWhatIsTyped()
    {
        const QList<NumberBox*> boxes = m_window->findChildren<NumberBox*>();
        QVERIFY2(boxes.size() >= 8, qPrintable(QString::number(boxes.size())));
        const std::pair<QString, double> typed[] { { QStringLiteral("2e6"), 2e6 }, { QStringLiteral("2,000,000"), 2e6 },
            { QStringLiteral("1e9"), 1e9 }, { QStringLiteral("abc"), NAN }, { QStringLiteral("-1"), -1 } };
        for (NumberBox* box : boxes) {
            const QString name = box->objectName();
            QVERIFY2(!name.isEmpty(), "a number box without a name");
            box->setEnabled(true);
            for (const auto& [text, value] : typed) {
                box->setValue(box->minimum() == 0 && box->maximum() > 1 ? 1 : box->maximum() / 2);
                const double before = box->value();
                box->lineEdit()->selectAll();
                box->lineEdit()->setFocus();
                QTest::keyClicks(box->lineEdit(), text);
                QTest::keyClick(box->lineEdit(), Qt::Key_Return);
                const bool inRange = !std::isnan(value) && value <= box->maximum()
                    && (box->minimumExcluded() ? value > box->minimum() : value >= box->minimum());
                const QString where = name + QStringLiteral(" <- ") + text + QStringLiteral(": ") + box->refusal();
                if (inRange) {
                    QVERIFY2(box->value() == value, qPrintable(where));
                    QVERIFY2(box->refusal().isEmpty(), qPrintable(where));
                    QVERIFY2(box->reasonLabel()->isHidden(), qPrintable(where));
                } else {
                    QVERIFY2(box->value() == before, qPrintable(where)); // nothing silently changed
                    QCOMPARE(box->lineEdit()->text(), text);
                    QVERIFY2(!box->reasonLabel()->isHidden(), qPrintable(where));
                    const char* why = std::isnan(value) ? "is not a number"
                        : value > box->maximum()        ? "more than the most this box takes"
                                                 : (box->minimumExcluded() ? "must be above" : "less than the least");
                    QVERIFY2(box->refusal().contains(QLatin1String(why)), qPrintable(where));
                    QVERIFY2(box->reasonLabel()->text().contains(QStringLiteral("still")), qPrintable(where));
                }
            }
        }
        // the limits back to none, the scope read again
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        m_window->filters()->limits()->ttftBox()->setValue(0);
        m_window->filters()->limits()->tpotBox()->setValue(0);
        QVERIFY(shown.wait(10000));
    }

    // A box shows fewer decimals than it holds: Enter on the text as shown keeps the value (12.34, shown 12.3).
    void shownDecimalsKeepTheValue()
    {
        NumberBox* headroom = m_window->findChild<PlanPanel*>()->findChild<NumberBox*>(QStringLiteral("headroom"));
        headroom->lineEdit()->setText(QStringLiteral("12.34"));
        emit headroom->lineEdit()->editingFinished();
        QCOMPARE(headroom->value(), 12.34);
        QCOMPARE(headroom->lineEdit()->text(), QStringLiteral("12.3"));
        emit headroom->lineEdit()->editingFinished();
        QCOMPARE(headroom->value(), 12.34);
        QVERIFY(headroom->refusal().isEmpty());
        headroom->setValue(25);
        // a locale's own digits are digits
        QCOMPARE(latinDigits(QStringLiteral("\u0661\u0662")), QStringLiteral("12"));
    }

    // The Plan tab's demand typed as 2e6 plans for 2,000,000 and its command line says so; a refusal leaves the plan
    // at the demand it had.
    void demandTypedWithAnExponent()
    {
        PlanPanel* plan = m_window->findChild<PlanPanel*>();
        NumberBox* demand = plan->findChild<NumberBox*>(QStringLiteral("demand"));
        demand->lineEdit()->setText(QStringLiteral("2e6"));
        emit demand->lineEdit()->editingFinished();
        QCOMPARE(plan->demand(), 2e6);
        QCOMPARE(demand->lineEdit()->text(), QStringLiteral("2,000,000"));
        QVERIFY2(m_window->planCommandLine()->find("--demand 2000000") != std::string::npos,
            m_window->planCommandLine()->c_str());
        demand->lineEdit()->setText(QStringLiteral("2e"));
        emit demand->lineEdit()->editingFinished();
        QCOMPARE(plan->demand(), 2e6);
        QVERIFY(m_window->planCommandLine()->find("--demand 2000000") != std::string::npos);
    }

    // A wheel over a combo box that does not have the focus scrolls the panel around it and leaves the combo as it
    // was; clicked into, the combo takes the wheel.
    void wheelPassesCombosBy()
    {
        m_window->resize(1366, 500);
        QScrollArea* filters = nullptr;
        for (QScrollArea* a : m_window->findChildren<QScrollArea*>())
            if (a->widget() == m_window->filters())
                filters = a;
        QVERIFY(filters);
        QTRY_VERIFY(filters->verticalScrollBar()->maximum() > 0);
        QComboBox* combo = nullptr;
        for (QComboBox* c : m_window->filters()->findChildren<QComboBox*>())
            if (c->isVisible() && c->count() > 1)
                combo = c;
        QVERIFY(combo);
        filters->verticalScrollBar()->setValue(0);
        combo->clearFocus();
        m_window->setFocus();
        const int index = combo->currentIndex();
        const QPoint at = combo->rect().center();
        QWheelEvent down(at, combo->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(combo, &down);
        QCOMPARE(combo->currentIndex(), index);
        QVERIFY(filters->verticalScrollBar()->value() > 0);
        QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);
        m_window->resize(1366, 768);
    }
};

PARETOSCOPE_SUITE(TestNumberBoxes)
#include "tst_numberboxes.moc"
