// Prints PROBE_VALUE as read through the header that comes first (precompiled, or -include), and twice it as
// compiled in another source.
#include <cstdio>
int twice();
int main()
{
    std::printf("%d %d\n", PROBE_VALUE, twice());
    return 0;
}
