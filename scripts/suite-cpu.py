#!/usr/bin/env python3
"""Runs every CTest test of a build alone, one after another, and prints its wall and CPU seconds (user + system, its
child processes included): where a suite's time goes when nothing runs beside it (docs/testing.md).

Usage: scripts/suite-cpu.py BUILD_DIR [NAME=VALUE ...]

NAME=VALUE pairs are set in each test's environment besides its own (for the sanitizer build, the asan test preset's:
ASAN_OPTIONS=detect_leaks=1 PARETOSCOPE_SANITIZED=1 ...); SKIP_LABEL=gate leaves out the tests of that label. Prints
one line a test, "NAME WALL CPU EXIT", then the totals; compare two builds' lines with join(1).
"""

import json
import os
import resource
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = sys.argv[1]
    extra = dict(a.split("=", 1) for a in sys.argv[2:])
    skip = extra.pop("SKIP_LABEL", None)
    listing = json.loads(subprocess.check_output(["ctest", "--test-dir", build, "--show-only=json-v1"]))
    wall_sum = cpu_sum = 0.0
    for test in listing["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        if skip and skip in props.get("LABELS", []):
            continue
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        env.update(extra)
        for assignment in props.get("ENVIRONMENT", []):
            name, value = assignment.split("=", 1)
            env[name] = value
        command = test["command"]
        folder = props.get("WORKING_DIRECTORY", os.path.dirname(command[0]))
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic() - started
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        wall_sum, cpu_sum = wall_sum + wall, cpu_sum + cpu
        print(f"{test['name']} {wall:.1f} {cpu:.1f} {done.returncode}", flush=True)
    print(f"total {wall_sum:.1f} {cpu_sum:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
