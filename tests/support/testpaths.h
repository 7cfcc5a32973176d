#pragma once
// Where this build put what the suites run and read. The paths are compiled into one generated source
// (testpaths.cpp in the build folder, from tests/CMakeLists.txt) rather than into every suite's command line, so that
// a checkout elsewhere (CI's clean clone) compiles the suites with the same commands and the compiler cache serves
// them.

#include <QString>

namespace paretoscope::testsupport {

/// paretoscope-cli, paretoscope (the explorer), the engine emulator and the probe, as built here.
QString cliProgram();
QString guiProgram();
QString engineSimProgram();
QString probeProgram();
/// The stand-ins of NVML and ROCm SMI (shared libraries with their C interface).
QString fakeNvmlLibrary();
QString fakeRocmSmiLibrary();
/// ../shared/fixtures/real beside the checkout (real benchmark data, never copied into the repository).
QString fixturesDir();
/// The checkout's resources/ and tests/ folders, and tests/fuzz (seeds and past crashes).
QString resourcesDir();
QString testsSourceDir();
QString fuzzDir();
/// The build's tests/ folder, where the window's suites leave their pictures, and the main window's picture there.
QString shotDir();
QString mainWindowScreenshot();

} // namespace paretoscope::testsupport
