// The TCO model's file (docs/architecture.md section 12.6): every bad field named, and the shipped example complete and
// marked as example values. tst_plan checks the effective price it gives inside a plan.
#include <QtTest>

#include <map>

#include "core/analysis/tco.h"
#include "core/model/embedded.h"
#include "tests/support/suite.h"

using namespace paretoscope;

namespace {
// all-in kW per GPU as published (docs/architecture.md section 14, the InferenceX hardware registry)
const std::map<QString, double> kAllInKw { { QStringLiteral("h100"), 1.37 }, { QStringLiteral("h200"), 1.37 },
    { QStringLiteral("b200"), 1.71 }, { QStringLiteral("b300"), 1.90 }, { QStringLiteral("gb200"), 1.87 },
    { QStringLiteral("gb300"), 2.12 }, { QStringLiteral("mi300x"), 1.39 }, { QStringLiteral("mi325x"), 1.69 },
    { QStringLiteral("mi355x"), 2.09 } };
} // namespace

class TestTco : public QObject {
    Q_OBJECT
private slots:
    void badTco_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const QString ok
            = QStringLiteral(R"("capex_per_gpu_usd": 1, "amortization_years": 4, "power_kw": 1, )"
                             R"("electricity_usd_per_kwh": 0.1, "pue": 1.2, "other_opex_usd_per_gpu_hour": 0)");
        auto doc = [](const QString& entry) {
            return QStringLiteral(R"({"source": "s", "hardware": {"b300": {)") + entry + QStringLiteral("}}}");
        };
        QTest::newRow("valid") << doc(ok) << "";
        QTest::newRow("not JSON") << "{"
                                  << "t.json: not valid JSON";
        QTest::newRow("unknown top key") << R"({"source": "s", "hardware": {}, "prices": 1})"
                                         << "t.json: prices: unknown key";
        QTest::newRow("unknown entry key")
            << doc(ok + QStringLiteral(R"(, "capex": 5)")) << "t.json: hardware.b300.capex: unknown key";
        QTest::newRow("negative capex") << doc(QString(ok).replace(
            QStringLiteral(R"("capex_per_gpu_usd": 1)"), QStringLiteral(R"("capex_per_gpu_usd": -1)")))
                                        << "t.json: hardware.b300.capex_per_gpu_usd: must be a number >= 0";
        QTest::newRow("missing capex") << doc(QString(ok).remove(QStringLiteral(R"("capex_per_gpu_usd": 1, )")))
                                       << "t.json: hardware.b300.capex_per_gpu_usd: missing";
        QTest::newRow("text pue") << doc(
            QString(ok).replace(QStringLiteral(R"("pue": 1.2)"), QStringLiteral(R"("pue": "1.2")")))
                                  << "t.json: hardware.b300.pue: must be a number >= 1";
        QTest::newRow("pue below 1") << doc(
            QString(ok).replace(QStringLiteral(R"("pue": 1.2)"), QStringLiteral(R"("pue": 0.9)")))
                                     << "t.json: hardware.b300.pue: must be a number >= 1";
        QTest::newRow("zero years") << doc(QString(ok).replace(
            QStringLiteral(R"("amortization_years": 4)"), QStringLiteral(R"("amortization_years": 0)")))
                                    << "t.json: hardware.b300.amortization_years: must be a number >= 0.1 and <= 100";
        QTest::newRow("missing electricity")
            << doc(QString(ok).remove(QStringLiteral(R"("electricity_usd_per_kwh": 0.1, )")))
            << "t.json: hardware.b300.electricity_usd_per_kwh: missing";
        QTest::newRow("bad basis") << doc(ok + QStringLiteral(R"(, "power_basis": "wall")"))
                                   << "t.json: hardware.b300.power_basis: must be";
        QTest::newRow("kW with TDP") << doc(ok + QStringLiteral(R"(, "power_basis": "tdp")"))
                                     << "t.json: hardware.b300.power_kw: not used";
        QTest::newRow("no kW") << doc(QString(ok).remove(QStringLiteral(R"("power_kw": 1, )")))
                               << "t.json: hardware.b300.power_kw: missing";
        QTest::newRow("bad default") << R"({"source": "s", "defaults": {"pue": -2}, "hardware": {}})"
                                     << "t.json: defaults.pue: must be a number >= 1";
        QTest::newRow("no source") << R"({"hardware": {}})"
                                   << "t.json: source: missing";
    }
    void badTco()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        auto model = parseTco(text.toStdString(), "t.json");
        if (error.isEmpty()) {
            QVERIFY2(model, model ? "" : model.error().c_str());
            return;
        }
        QVERIFY(!model);
        QVERIFY2(QString::fromStdString(model.error()).startsWith(error), model.error().c_str());
    }

    // The shipped example: every hardware of the power registry, all-in kW as published, capital marked as examples.
    void shippedTco()
    {
        auto model = parseTco(std::string(embedded::tco_default_json()), "tco_default.json");
        QVERIFY2(model, model ? "" : model.error().c_str());
        QVERIFY(QString::fromStdString(model->note).contains(QStringLiteral("EXAMPLE VALUES TO EDIT")));
        QVERIFY(QString::fromStdString(model->source).contains(QStringLiteral("InferenceX")));
        for (const auto& [hw, kw] : kAllInKw) {
            const TcoEntry* e = bundledTco().find(hw.toStdString());
            QVERIFY2(e, qPrintable(hw));
            QCOMPARE(e->powerBasis, PowerBasis::AllIn);
            QCOMPARE(*e->powerKw, kw);
        }
    }

    // the Measured basis falls back to the TDP, saying so, where the runs carry no power
    void measuredFallsBackToTdp()
    {
        TcoEntry e;
        e.hardware = "b300";
        e.amortizationYears = 4;
        e.powerBasis = PowerBasis::Measured;
        e.electricityUsdPerKwh = 0.1;
        e.pue = 1.5;
        HardwarePower p;
        p.tdpW = 1200;
        auto c = tcoCost(e, &p, std::nullopt);
        QVERIFY(c);
        QCOMPARE(c->basis, PowerBasis::Tdp);
        QVERIFY(!c->note.empty());
        QVERIFY(std::abs(c->energy - 1.2 * 1.5 * 0.1) < 1e-12);
        QVERIFY(!tcoCost(e, nullptr, std::nullopt)); // no TDP known: an error, not a zero
        auto measured = tcoCost(e, &p, 800.0);
        QCOMPARE(measured->basis, PowerBasis::Measured);
        QVERIFY(std::abs(measured->energy - 0.8 * 1.5 * 0.1) < 1e-12);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestTco)
#include "tst_tco.moc"
