// The anchor of the test suites' precompiled-header donors (tests/CMakeLists.txt): a library needs a source.
namespace paretoscope::testsupport {
int pchAnchor()
{
    return 0;
}
} // namespace paretoscope::testsupport
