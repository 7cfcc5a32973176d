// The body of a program's main, run so that an exception cannot leave main: it is said on stderr and the program
// ends with status 70 (EX_SOFTWARE of sysexits.h), where std::terminate would abort with a core dump. Header only:
// the CLI, the explorer, the engine emulator, the probe and the benchmarks use it.
#pragma once

#include <cstdio>
#include <exception>

namespace paretoscope {

inline constexpr int kInternalError = 70;

template <class Body> int guardedMain(const char* program, Body&& body) noexcept
{
    try {
        return body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", program, e.what());
    } catch (...) {
        std::fprintf(stderr, "%s: internal error (an exception of unknown type)\n", program);
    }
    return kInternalError;
}

} // namespace paretoscope
