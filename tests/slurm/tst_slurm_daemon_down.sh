#!/usr/bin/env bash
# tst_slurm.sh where slurmd cannot start (as on a chroot without cgroups): it must skip within a bound, naming slurmd,
# never wait until CTest kills it. A stand-in slurmd (first on the test's PATH, where the engine emulator would be)
# describes the machine and exits at once otherwise.
# Usage: tst_slurm_daemon_down.sh TST_SLURM_SH PARETOSCOPE_CLI. Exit 77 where tst_slurm.sh cannot even try here.
set -uo pipefail
script=$1 cli=$2
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat >"$fake/slurmd" <<'SH'
#!/bin/sh
[ "${1:-}" = -C ] && exec /usr/sbin/slurmd -C
echo "slurmd stand-in: cannot start here" >&2
exit 1
SH
chmod +x "$fake/slurmd"
start=$(date +%s)
out=$(bash "$script" "$cli" "$fake/paretoscope-engine-sim" 2>&1)
rc=$?
took=$(($(date +%s) - start))
echo "$out" | tail -n 5
if ! grep -q "SKIPPED: slurmd did not come up" <<<"$out"; then
    # not root, or Slurm or munge missing: tst_slurm.sh skipped before it started any daemon
    [ "$rc" = 77 ] && grep -q "SKIPPED" <<<"$out" && exit 77
    echo "FAIL: tst_slurm.sh exited $rc without saying that slurmd did not come up"
    exit 1
fi
[ "$rc" = 77 ] || { echo "FAIL: it exited $rc, not 77 (skip)"; exit 1; }
[ "$took" -le 90 ] || { echo "FAIL: it took $took s to give up (the bound is about 30 s)"; exit 1; }
echo "PASS: skipped in $took s, naming slurmd"
