#!/usr/bin/env python3
"""Runs clang-tidy (the checks of .clang-tidy) over the project's sources: every folder, or the paths given.

Usage: scripts/tidy.py [--build DIR]... [--jobs N] [--batch N] [PATH ...]

Reads the compile commands of the builds named (default: build, then build-asan; the first to list a file gives its
flags). It uses clang-tidy 22, which leaves system headers (Qt, the standard library) out of its matching and so is
about five times faster than clang-tidy 14 here (Debian 12: apt-get install clang-tidy-22).

To spend the time on our code rather than on parsing Qt again for every file, the sources of one folder that are
compiled alike are checked together, a few at a time: a generated file includes them one after another, and the
findings are reported at their own lines. Files that clash when read together (two static helpers of one name) are
split apart and checked alone. The forced includes of the builds' precompiled headers are left out: each file is
checked with what it includes itself. A unity build's compile commands name its batches: the sources each includes
are read from it. Up to 64 files a batch: the whole tree is about 240 CPU-seconds (about 720 at 8 a batch).

Prints each finding with its source lines; exits 1 when there is one, 2 when it cannot run, else 0.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIAGNOSTIC = re.compile(r"^(/[^:]+):(\d+):(\d+): (warning|error): (.*) \[([^\]]+)\]$")
COMPILERS = re.compile(r"(^|/)(c\+\+|g\+\+|clang\+\+)(-\d+)?$")


def fail(message):
    print(f"tidy.py: {message}", file=sys.stderr)
    sys.exit(2)


def rewrite(arguments):
    """The flags of a compile command for clang-tidy: no output, no source, no precompiled header, no -Werror."""
    flags = []
    i = 1  # arguments[0] is the compiler
    while i < len(arguments):
        a = arguments[i]
        nxt = arguments[i + 1] if i + 1 < len(arguments) else ""
        if a == "-o" or a == "-c":
            i += 2  # the output file, or the source file
        elif a == "-Xclang" and nxt in ("-include-pch", "-include"):
            i += 4  # -Xclang -include[-pch] -Xclang FILE (clang's precompiled header)
        elif a == "-include" and nxt.endswith("cmake_pch.hxx"):
            i += 2  # GCC's precompiled header
        elif a.startswith("-W"):
            i += 1  # the compiler's warnings are the build's business; only the configured checks are findings
        else:
            flags.append(a)
            i += 1
    return flags


def sources_of(builds, wanted):
    """{source: flags} of the C++ sources under wanted, from the first build that compiles each."""
    found = {}
    for build in builds:
        database = os.path.join(build, "compile_commands.json")
        if not os.path.isfile(database):
            continue
        with open(database, encoding="utf-8") as f:
            entries = json.load(f)
        for entry in entries:
            source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
            arguments = entry.get("arguments") or shlex.split(entry["command"])
            if not COMPILERS.search(arguments[0]):
                continue  # hipcc or nvcc: not a plain C++ compile
            for member in unity_members(source) or [source]:
                if member in found or not member.startswith(ROOT + os.sep) or not member.endswith(".cpp"):
                    continue
                if any(member.startswith(os.path.join(b, "")) for b in builds):
                    continue  # generated: moc, resources, precompiled headers
                if not any(member == w or member.startswith(os.path.join(w, "")) for w in wanted):
                    continue
                found[member] = rewrite(arguments)
    return found


def unity_members(source):
    """The sources a unity batch (cmake/unity.cmake's Unity/unity_N_cxx.cxx) includes, or [] for any other file."""
    if os.path.basename(os.path.dirname(source)) != "Unity" or not os.path.isfile(source):
        return []
    with open(source, encoding="utf-8") as f:
        # cmake/unity.cmake names the sources from the project's root
        return [os.path.normpath(os.path.join(ROOT, m.group(1))) for m in re.finditer(r'^#include "([^"]+)"', f.read(), re.M)]


def batches(sources, size):
    """(files, flags) of sources compiled alike in one folder, at most size files long."""
    groups = {}
    for source, flags in sorted(sources.items()):
        groups.setdefault((os.path.dirname(source), tuple(flags)), []).append(source)
    result = []
    for (_, flags), files in sorted(groups.items()):
        for start in range(0, len(files), size):
            result.append((files[start : start + size], list(flags)))
    return result


class Runner:
    def __init__(self, tidy, config, header_filter, out_dir):
        self.tidy, self.config, self.header_filter, self.out_dir = tidy, config, header_filter, out_dir

    def run(self, files, flags):
        """[(key, text)] of the findings in files. Where a file clashes with one read before it (an error), the batch
        is cut there and both parts are checked again."""
        if len(files) == 1:
            main = files[0]
        else:
            name = hashlib.sha1("\n".join(files).encode()).hexdigest()[:16] + ".cpp"
            main = os.path.join(self.out_dir, name)
            with open(main, "w", encoding="utf-8") as f:
                f.write("// generated by scripts/tidy.py: these files checked together\n")
                for source in files:
                    f.write(f'#include "{source}" // NOLINT(bugprone-suspicious-include)\n')
        command = [self.tidy, f"--config-file={self.config}", f"--header-filter={self.header_filter}", "--quiet"]
        done = subprocess.run([*command, main, "--", *flags], capture_output=True, text=True)
        found = [f for f in findings_of(done.stdout + done.stderr) if not f[0][0].startswith(self.out_dir)]
        failed = done.returncode != 0 and not found
        if failed and len(files) == 1:
            return [((main, "0", "0", "clang-tidy"), f"{main}: clang-tidy failed:\n{done.stderr[-2000:]}")]
        errors = [files.index(key[0]) for key, _ in found if key[3] == "clang-diagnostic-error" and key[0] in files]
        if len(files) == 1 or not (failed or errors):
            return found
        # Some checks say nothing once a translation unit has an error, so the files that read well together before
        # the clash are checked again without it.
        first = min(errors) if errors else len(files) // 2
        if first == 0:  # the first file fails on its own: its errors are findings; the rest go on without it
            first = 1
        if os.environ.get("TIDY_VERBOSE"):
            print(f"tidy.py: {os.path.relpath(files[first], ROOT)} clashes; checking it again", file=sys.stderr)
        return self.run(files[:first], flags) + self.run(files[first:], flags)


def findings_of(output):
    """[(key, text)]: each diagnostic with the lines that show it (source, caret, notes)."""
    result, current, lines = [], None, []
    for line in output.splitlines():
        match = DIAGNOSTIC.match(line)
        if match:
            if current:
                result.append((current, "\n".join(lines)))
            current, lines = match.group(1, 2, 3, 6), [line]
        elif current and not re.match(r"^\d+ (warnings?|errors?)( and \d+ errors?)? generated", line):
            lines.append(line)
    if current:
        result.append((current, "\n".join(lines)))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", help="a build folder (repeatable; default build, build-asan)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--batch", type=int, default=64, help="files checked together, at most")
    parser.add_argument("paths", nargs="*", help="files or folders (default: every folder with sources)")
    args = parser.parse_args()
    builds = [os.path.abspath(b) for b in (args.build or ["build", "build-asan"])]
    tidy = shutil.which("clang-tidy-22")
    if not tidy:
        fail("clang-tidy-22 is needed (Debian 12: apt-get install clang-tidy-22)")
    wanted = [os.path.abspath(p) for p in args.paths] or [ROOT]
    sources = sources_of(builds, wanted)
    if not sources:
        fail(f"no C++ source under {' '.join(wanted)} in the compile commands of {' '.join(builds)}"
             " (configure a build first: cmake --preset default)")
    out_dir = os.path.join(builds[0], "tidy")
    os.makedirs(out_dir, exist_ok=True)
    folders = sorted({os.path.relpath(s, ROOT).split(os.sep)[0] for s in sources} | {"core"})
    header_filter = "^" + re.escape(ROOT) + "/(" + "|".join(folders) + ")/"
    runner = Runner(tidy, os.path.join(ROOT, ".clang-tidy"), header_filter, out_dir)
    started = time.monotonic()
    work = batches(sources, max(1, args.batch))
    work.sort(key=lambda b: -len(b[0]))  # the big batches first, so that the last ones to finish are short
    seen = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for found in pool.map(lambda b: runner.run(*b), work):
            for key, text in found:
                seen.setdefault(key, text)
    for key in sorted(seen, key=lambda k: (k[0], int(k[1]), int(k[2]), k[3])):
        print(seen[key])
    print(f"tidy.py: {len(sources)} files in {len(work)} batches, {len(seen)} finding(s), "
          f"{time.monotonic() - started:.0f} s")
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main())
