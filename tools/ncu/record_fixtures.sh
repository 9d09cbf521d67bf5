#!/usr/bin/env bash
# Record the Nsight Compute fixtures behind hiera's profiling tests, on a machine with an NVIDIA GPU and ncu.
#
#   OUT=/some/folder bash tools/ncu/record_fixtures.sh        # from the repository root
#
# For each fixture program in tools/ncu/*.cu (a kernel with one known bottleneck, its EXPECT: direction and
# HOT: lines marked in comments): compile with -lineinfo, profile the second launch with the same ncu flags
# hiera uses (python -m engine.profile.ncu args), export the raw/details/source pages as CSV the way hiera
# reads them, and dump what the ncu_report reader extracts. Then profile a contract candidate and a reference
# live through engine.profile (tools/ncu/record_torch.py), and run tests/test_profile_gpu.py.
#
# Results in $OUT (at most 5 files):
#   ncu_fixtures.tar.gz   ncu/<fixture>/{raw,details,source}.csv, ncu_report.json, profile*.json, meta.json, ...
#                         install with: tar -xzf ncu_fixtures.tar.gz -C tests/data
#   ncu_reports.tar.gz    the .ncu-rep files (re-export later without a GPU), when under 15 MB
#   record.log            every command (set -x) and its output
#   summary.txt           the table printed at the end (also on stdout)
# One fixture failing never stops the others. Environment: PYTHON (default python3), ARCH (default sm_90),
# STEP_TIMEOUT seconds per ncu run (default 150), RUN_GPU_TESTS=0 to skip the pytest step.
set -u -o pipefail

OUT=${OUT:-$PWD/ncu_out}
mkdir -p "$OUT"
LOG="$OUT/record.log"
: >"$LOG"
exec 3>&1                 # the real stdout, for the summary
exec >>"$LOG" 2>&1        # everything else, traced, to the log
set -x

PY=${PYTHON:-python3}
ARCH=${ARCH:-sm_90}
STEP_TIMEOUT=${STEP_TIMEOUT:-150}
REPO=$(pwd)
export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hiera-ncu.XXXXXX")
FIX="$WORK/ncu"
REP="$WORK/reports"
BIN="$WORK/bin"
mkdir -p "$FIX" "$REP" "$BIN"
T_START=$(date +%s)

note() { echo "== $*"; echo "== $*" >&3; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
fail_meta() {  # fixture, expect, message
    printf '{"fixture": "%s", "ok": false, "expect": "%s", "error": "%s (see record.log)"}\n' "$1" "$2" "$3" \
        >"$FIX/$1/meta.json"
}

NCU=$($PY -m engine.profile.ncu find) || { note "no ncu found: nothing to record"; exit 2; }
note "ncu: $NCU"
{
    echo "# ncu"; "$NCU" --version
    echo "# nvcc"; nvcc --version
    echo "# gpu"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
    echo "# python, torch"; $PY -c 'import sys, torch; print(sys.version); print(torch.__version__, torch.version.cuda)'
    echo "# ncu binary"; readlink -f "$NCU"
    if [ "$(stat -c %s "$(readlink -f "$NCU")")" -lt 64000 ]; then echo "# wrapper script"; cat "$(readlink -f "$NCU")"; fi
    echo "# ncu_report candidates"; ls -d /opt/nvidia/nsight-compute/*/extras/python /usr/local/cuda*/nsight-compute*/extras/python 2>&1
    echo "# ncu_report used by hiera"
    $PY -c "from engine.profile.report_api import extras_dirs, load_module; print(extras_dirs('$NCU')); print(load_module('$NCU'))"
} >"$FIX/env.txt" 2>&1

# --- compile every fixture at once (they are independent) ---------------------------------------------------
FIXTURES=()
for src in tools/ncu/*.cu; do
    name=$(basename "$src" .cu)
    FIXTURES+=("$name")
    mkdir -p "$FIX/$name"
    (nvcc -O3 -lineinfo -std=c++17 -arch="$ARCH" -o "$BIN/$name" "$REPO/$src" >"$FIX/$name/nvcc.log" 2>&1 \
        || echo "compile failed" >"$BIN/$name.failed") &
done
wait

# --- profile each fixture --------------------------------------------------------------------------------------
for name in "${FIXTURES[@]}"; do
    src="tools/ncu/$name.cu"
    dir="$FIX/$name"
    expect=$(grep -m1 '^// EXPECT:' "$src" | awk '{print $3}')
    kernel=$(grep -m1 '^// KERNEL:' "$src" | awk '{print $3}')
    note "fixture $name (kernel $kernel, expect $expect)"
    if [ -e "$BIN/$name.failed" ] || [ ! -x "$BIN/$name" ]; then
        fail_meta "$name" "$expect" "compile failed"; continue
    fi
    mapfile -t ARGS < <($PY -m engine.profile.ncu args --kernel "^${kernel}\$" --skip 1 --count 1)
    t0=$(now)
    timeout "$STEP_TIMEOUT" "$NCU" "${ARGS[@]}" -f -o "$REP/$name" "$BIN/$name" >"$dir/ncu_collect.log" 2>&1
    rc=$?
    wall=$(elapsed "$t0" "$(now)")
    cat "$dir/ncu_collect.log"
    if [ ! -f "$REP/$name.ncu-rep" ]; then
        fail_meta "$name" "$expect" "ncu exited $rc without a report"; continue
    fi
    timeout 300 $PY -m engine.profile.ncu export "$REP/$name.ncu-rep" "$dir" --ncu "$NCU" || echo "export incomplete: $name"
    timeout 300 $PY tools/ncu/dump_report.py "$REP/$name.ncu-rep" "$dir" --ncu "$NCU" \
        --meta "fixture=$name" --meta "expect=$expect" --meta "kernel=$kernel" --meta "ncu_s=$wall" \
        --meta "ncu_rc=$rc" --meta "source=$src" || fail_meta "$name" "$expect" "readers failed"
done

# --- the whole path, live: a contract candidate and a reference through engine.profile ----------------------------
note "torch targets through engine.profile"
timeout 400 $PY tools/ncu/record_torch.py "$FIX" --ncu "$NCU" --reports "$REP" || echo "record_torch.py failed"

# --- pack -----------------------------------------------------------------------------------------------------------
tar -czf "$OUT/ncu_fixtures.tar.gz" -C "$WORK" ncu
reports_kb=$(du -sk "$REP" | awk '{print $1}')
if [ "$reports_kb" -lt 15000 ]; then
    tar -czf "$OUT/ncu_reports.tar.gz" -C "$WORK" reports
else
    echo "reports are ${reports_kb} KiB: not packed"
fi

# --- the live GPU test ------------------------------------------------------------------------------------------------
if [ "${RUN_GPU_TESTS:-1}" != "0" ]; then
    note "pytest tests/test_profile_gpu.py"
    HIERA_NCU="$NCU" timeout 300 $PY -m pytest -q -x -p no:cacheprovider -m gpu tests/test_profile_gpu.py \
        >"$OUT/pytest_gpu.txt" 2>&1
    echo "pytest exit $?" >>"$OUT/pytest_gpu.txt"
    cat "$OUT/pytest_gpu.txt"
fi

# --- summary --------------------------------------------------------------------------------------------------------
$PY tools/ncu/summarize.py "$FIX" >"$OUT/summary.txt" 2>&1
echo "total $(( $(date +%s) - T_START )) s" >>"$OUT/summary.txt"
[ -f "$OUT/pytest_gpu.txt" ] && tail -n 3 "$OUT/pytest_gpu.txt" >>"$OUT/summary.txt"
cat "$OUT/summary.txt" >&3
