# Runs PROGRAM with ARGS (|-separated) and writes its standard output to OUTPUT, failing the build when it fails.
# Usage: cmake -DPROGRAM=exe "-DARGS=--man" -DOUTPUT=file -P runtofile.cmake
string(REPLACE "|" ";" args "${ARGS}")
set(ENV{ASAN_OPTIONS} "detect_leaks=0") # the sanitizer build's programs write pages too
execute_process(COMMAND ${PROGRAM} ${args} OUTPUT_FILE ${OUTPUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    file(REMOVE ${OUTPUT}.tmp)
    message(FATAL_ERROR "${PROGRAM} ${args}: exit ${rc}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
