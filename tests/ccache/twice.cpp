#include <value.h>
int twice()
{
    return 2 * PROBE_VALUE;
}
