// The main of a test program holding several suites (tests/support/suite.h): PROGRAM SUITE [Qt Test options] runs
// SUITE in the application its registration asks for; PROGRAM alone lists the suites.
#include "tests/support/suite.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifdef QT_WIDGETS_LIB
#include <QApplication>
#endif

namespace paretoscope::test {
namespace {
std::vector<Suite>& table()
{
    static std::vector<Suite> suites;
    return suites;
}

std::string suiteName(const char* file)
{
    std::string name(file);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

int usage(const char* program, const char* problem)
{
    std::fprintf(
        stderr, "%s%s\nusage: %s SUITE [Qt Test options]; the suites here:\n", problem, *problem ? "\n" : "", program);
    for (const Suite& s : table())
        std::fprintf(stderr, "  %s\n", suiteName(s.file).c_str());
    return 2;
}
} // namespace

int registerSuite(const Suite& suite)
{
    table().push_back(suite);
    return static_cast<int>(table().size());
}

} // namespace paretoscope::test

int main(int argc, char* argv[])
{
    using namespace paretoscope::test;
    if (argc < 2 || argv[1][0] == '-')
        return usage(argv[0], "");
    const Suite* suite = nullptr;
    for (const Suite& s : table())
        if (suiteName(s.file) == argv[1])
            suite = &s;
    if (!suite)
        return usage(argv[0], (std::string("no suite named '") + argv[1] + "' in this program").c_str());

    // the suite sees the program's name and the options after its own name, as its own program would
    std::vector<char*> args { argv[0] };
    for (int i = 2; i < argc; ++i)
        args.push_back(argv[i]);
    int count = static_cast<int>(args.size());
    args.push_back(nullptr);

    suite->initMain();
    if (suite->application == SuiteApplication::Widgets) {
#ifdef QT_WIDGETS_LIB
        QApplication app(count, args.data());
        app.setAttribute(Qt::AA_Use96Dpi, true);
        return suite->run(count, args.data());
#else
        return usage(argv[0], "this suite needs Qt Widgets: link it into the program of the window's suites");
#endif
    }
    QCoreApplication app(count, args.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
    return suite->run(count, args.data());
}
