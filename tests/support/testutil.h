#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "core/store/runstore.h"
#include "tests/support/testpaths.h"

namespace paretoscope::testsupport {

/// The fixtures most suites read: InferenceX API rows and evaluations.
inline constexpr const char* kApi = "inferencex-app-api/benchmarks.json";
inline constexpr const char* kEvaluations = "inferencex-app-api/evaluations.json";

/// A program's exit code (-1: it did not exit normally) and what it printed.
struct Run {
    int code = -1;
    QByteArray out, err;
};

/// The scope of a model at fixed input and output lengths (the rest unfiltered).
inline Scope lengthScope(std::string model, int isl, int osl)
{
    Scope s;
    s.model = std::move(model);
    s.isl = isl;
    s.osl = osl;
    return s;
}

/// a and b equal to within rel of the larger.
inline bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

inline QString fixture(const QString& rel)
{
    return (fixturesDir() + QStringLiteral("/")) + rel;
}

/// A fixture named by a constant of the suite (kApi).
inline QString fixture(const char* rel)
{
    return fixture(QString::fromUtf8(rel));
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

inline bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(data) == data.size();
}

/// Settings in `dir` under the application name `suite`, so that a suite never reads or writes the user's.
inline void isolateSettings(const QTemporaryDir& dir, const char* suite)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
    QCoreApplication::setApplicationName(QString::fromLatin1(suite));
}

inline std::unique_ptr<RunStore> openTempStore(
    const QTemporaryDir& dir, const QString& name = QStringLiteral("store.sqlite"))
{
    auto s = RunStore::open(dir.filePath(name).toStdString());
    return s ? std::move(*s) : nullptr;
}

} // namespace paretoscope::testsupport
