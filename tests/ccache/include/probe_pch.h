// The probe's precompiled header: the standard library and value.h, whose value tst_ccache.sh changes.
#include <cstdio>
#include <string>
#include <value.h>
