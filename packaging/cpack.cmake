# The Debian package (cpack -G DEB in the build folder): paretoscope_VERSION_ARCH.deb with the explorer, the CLI, the
# engine emulator and the desktop files; paretoscope-probe_VERSION_ARCH.deb with the probe apart, since where the CUDA
# or HIP kernels are built it links their runtimes, which the explorer's package must not need. Dependencies come from
# dpkg-shlibdeps; libraries no Debian package ships (the CUDA toolkit's) are found but not depended on.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME paretoscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Paretoscope developers")
set(CPACK_PACKAGE_CONTACT "Paretoscope maintainers <maintainers@users.noreply.a-seed-317109c9.example>")
# each package's description: its first line is the summary (no CPACK_PACKAGE_DESCRIPTION_SUMMARY, which CPack would
# put in front of both)
set(CPACK_DEBIAN_PARETOSCOPE_DESCRIPTION "LLM-serving throughput vs interactivity explorer and command line
Imports LLM-serving benchmark results (InferenceX, vLLM, SGLang, live sessions) and shows per hardware, engine and
precision the throughput per GPU against interactivity, Pareto frontiers, the ladder at interactivity targets,
capacity plans and history: a Qt explorer and paretoscope-cli, on one store.")
set(CPACK_STRIP_FILES ON) # the build's debug info stays in the build tree
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL paretoscope probe)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${PARETOSCOPE_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PARETOSCOPE_PACKAGE_NAME paretoscope)
# Qt's platform plugins beyond xcb and offscreen (libqt6gui6), and the fonts the charts are drawn with
# FFmpeg's libraries are opened at the first replay written as a video (core/output/ffmpeglib.*), not linked
set(CPACK_DEBIAN_PARETOSCOPE_PACKAGE_RECOMMENDS
    "qt6-qpa-plugins, qt6-wayland, fonts-dejavu-core, libavcodec59, libavformat59, libswscale6")
set(CPACK_DEBIAN_PARETOSCOPE_PACKAGE_SUGGESTS "paretoscope-probe")
set(CPACK_DEBIAN_PROBE_PACKAGE_NAME paretoscope-probe)
set(CPACK_DEBIAN_PROBE_DESCRIPTION "GPU probe for Paretoscope's speed-of-light bound
Measures copy bandwidth and GEMM throughput, with the CUDA or HIP kernels where they were built.")
get_property(probe_library_dirs GLOBAL PROPERTY PARETOSCOPE_PROBE_LIBRARY_DIRS) # kernels/CMakeLists.txt
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${probe_library_dirs})
include(CPack)
cpack_add_component(paretoscope DISPLAY_NAME "Paretoscope" DESCRIPTION "The explorer, the CLI, the engine emulator")
cpack_add_component(probe DISPLAY_NAME "GPU probe" DESCRIPTION "paretoscope-probe")
