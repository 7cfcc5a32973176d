#pragma once
// Fixtures read as JSON, and JSON written back as a file to import (the suites that craft rows from real ones).

#include <QString>
#include <QTemporaryDir>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/testutil.h"

namespace paretoscope::testsupport {

/// A fixture file (kApi, kEvaluations) parsed whole.
inline nlohmann::json fixtureJson(const char* rel)
{
    std::ifstream in(fixture(rel).toStdString());
    return nlohmann::json::parse(in);
}

/// rows written to dir/name; its path.
inline std::string writeJson(const QTemporaryDir& dir, const QString& name, const nlohmann::json& rows)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << rows.dump();
    return path;
}

} // namespace paretoscope::testsupport
