// One Qt Test suite among several linked into one test program (tests/CMakeLists.txt): in place of QTEST_MAIN, a suite
// registers itself under its file's name ("tst_plan" for tst_plan.cpp) and the program's main (suitemain.cpp) runs the
// one named by its first argument, with the application QTEST_MAIN or QTEST_GUILESS_MAIN would have made. CTest runs
// each suite as its own test: PROGRAM tst_plan [Qt Test options].
#pragma once

#include <QtTest>

namespace paretoscope::test {

enum class SuiteApplication { Core, Widgets };

struct Suite {
    const char* file; // __FILE__ of the suite's source
    SuiteApplication application;
    void (*initMain)(); // the test class's initMain(), as QTEST_MAIN calls it before the application exists
    int (*run)(int argc, char** argv);
};

/// Adds a suite to this program's table; returns its position (a value for a static initialiser to hold).
int registerSuite(const Suite& suite);

} // namespace paretoscope::test

#define PARETOSCOPE_SUITE_WITH(TestObject, application)                                                                \
    namespace {                                                                                                        \
    int run##TestObject(int argc, char** argv)                                                                         \
    {                                                                                                                  \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    const int registered##TestObject = paretoscope::test::registerSuite(                                               \
        { __FILE__, application, &QTest::Internal::callInitMain<TestObject>, &run##TestObject });                      \
    }

// The names carry the test class's so that suites read together (scripts/tidy.py) do not clash.

/// A suite run in a QApplication (QTEST_MAIN in a program with Qt Widgets).
#define PARETOSCOPE_SUITE(TestObject) PARETOSCOPE_SUITE_WITH(TestObject, paretoscope::test::SuiteApplication::Widgets)
/// A suite run in a QCoreApplication (QTEST_GUILESS_MAIN).
#define PARETOSCOPE_GUILESS_SUITE(TestObject)                                                                          \
    PARETOSCOPE_SUITE_WITH(TestObject, paretoscope::test::SuiteApplication::Core)
