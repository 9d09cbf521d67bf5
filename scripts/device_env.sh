# Source this on the lent GPU machine (no network there): the carried wheels and this checkout on the path.
# The wheels: `bash scripts/fetch_wheels.sh` here first, then name `.whl` in the call's carry; bubblewrap:
# `bash scripts/fetch_bwrap.sh`, and `.tools` in the carry.
# Usage (from the repo root):  . scripts/device_env.sh
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    >/tmp/whl-install.log 2>&1 || cat /tmp/whl-install.log
  export PYTHONPATH=/tmp/site:$PWD
else
  export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1
# The sandbox for candidate code: the machine's own bwrap, else the one scripts/fetch_bwrap.sh put in .tools.
if ! command -v bwrap >/dev/null 2>&1 && [ -x .tools/bwrap ]; then
  export HIERA_BWRAP=$PWD/.tools/bwrap
fi
NCU_DIR=$(ls -d /opt/nvidia/nsight-compute/* 2>/dev/null | tail -1)
[ -n "$NCU_DIR" ] && export PATH="$PATH:$NCU_DIR"

# End hiera's processes left by a command stopped at its time limit (evaluation workers and runners start
# sessions of their own, out of reach of `timeout`), never this shell or the ones that started it: a pattern
# that matched the calling command line (`... -m engine.cli ...`) once killed the call and lost its results.
stop_hiera_processes() {
  local keep=" $$ " p=$$ sig pid
  while [ "$p" -gt 1 ] 2>/dev/null; do p=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null || echo 1); keep="$keep$p "; done
  for sig in TERM KILL; do
    for pid in $(pgrep -f "[-]m engine\.(cli|evaluate|profile)"); do
      case "$keep" in *" $pid "*) ;; *) kill -s "$sig" "$pid" 2>/dev/null ;; esac
    done
    sleep 2
  done
}
