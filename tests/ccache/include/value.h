#pragma once
#define PROBE_VALUE 1
