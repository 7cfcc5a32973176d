# The compiler cache: ccache, where it is installed (scripts/install-deps.sh installs it), launches every C++ compile.
# Set up so that a clean clone in another folder (CI's, on the machine where the change was built) reuses the objects
# built in this one (docs/testing.md):
#   - CCACHE_BASEDIR: paths under the project's root are hashed relative to it, so the clone's folder does not count;
#   - CCACHE_NOHASHDIR: the compiler's working folder is not hashed either (the line tables of an object read from the
#     cache name the build folder that first compiled it; file names and lines are the same);
#   - CCACHE_DEPEND: the files a compile read are taken from the compiler's dependency file (-MD) and hashed by content;
#     ccache's other mode, which hashes the preprocessed source, cannot see a changed #define in a precompiled header
#     and served the old one (tests/ccache/tst_ccache.sh failed that way);
#   - CCACHE_SLOPPINESS pch_defines,time_macros: what ccache needs to cache compiles that use a precompiled header;
#     clang writes its precompiled headers without the headers' times (-fno-pch-timestamp), so that a clang build with
#     them (PARETOSCOPE_PCH ON) caches in its own folder. Clang's precompiled headers still hold the absolute paths of
#     their build, so no other clone could share them, and the asan preset builds without them
#     (PARETOSCOPE_PCH OFF: with unity batches they saved about 20 CPU-seconds of that build, docs/testing.md).
# The compiler is checked by its size and time (ccache's default). A changed header is always a miss: ccache hashes the
# content of every file a compile reads, not its time (tests/ccache/tst_ccache.sh checks that, with this file).
find_program(PARETOSCOPE_CCACHE ccache)
option(PARETOSCOPE_USE_CCACHE "Compile through ccache where it is installed" ON)
if(PARETOSCOPE_CCACHE AND PARETOSCOPE_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
                                    CCACHE_DEPEND=1 CCACHE_SLOPPINESS=pch_defines,time_macros ${PARETOSCOPE_CCACHE})
    # nvcc: ccache hashes its preprocessed source (the dependency-file mode is GCC's and clang's); nothing precompiled
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${CMAKE_CXX_COMPILER_LAUNCHER})
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:SHELL:-Xclang -fno-pch-timestamp>")
    endif()
endif()
