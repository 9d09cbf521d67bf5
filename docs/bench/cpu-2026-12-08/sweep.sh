#!/bin/bash
# Held-out user-style modules on the CPU, before (2d866c7, /tmp/old) and after (HEAD, /work/main), interleaved.
out=/tmp/user/sweep; mkdir -p $out
for t in "$@"; do
  for side in old new; do
    dir=/work/main; [ $side = old ] && dir=/tmp/old
    rm -rf /tmp/user/ws_$side; mkdir -p /tmp/user/ws_$side; cp /tmp/user/$t.py /tmp/user/ws_$side/
    s=$(date +%s.%N)
    (cd /tmp/user/ws_$side && PYTHONPATH=$dir timeout 150 /work/main/.venv/bin/python -m engine.cli optimize $t.py --device cpu --deadline 30 > $out/$t.$side.out 2>&1); rc=$?
    w=$(python3 -c "print(round($(date +%s.%N) - $s, 1))")
    best=$(grep -E "^best:" $out/$t.$side.out | head -1 | cut -c1-110)
    echo "$t $side rc=$rc wall=$w | $best" >> $out/summary.txt
  done
done
