#!/bin/bash
# Five runs of the README's main job on this busy machine, one after another, each in a fresh scratch copy.
cd /tmp/five
for i in 1 2 3 4 5; do
  d=/tmp/five/run$i; rm -rf $d; mkdir -p $d; cp /work/wt-37/examples/fused_gelu_scale.py $d/
  cd $d
  l0=$(cut -d' ' -f1 /proc/loadavg); t0=$(date +%s.%N)
  /work/wt-37/.venv/bin/hiera optimize fused_gelu_scale.py > out.txt 2> err.txt; rc=$?
  t1=$(date +%s.%N); l1=$(cut -d' ' -f1 /proc/loadavg)
  ls $d > files.txt
  echo "run $i rc=$rc wall=$(echo "$t1 - $t0" | bc) load_start=$l0 load_end=$l1 file=$(test -f $d/fused_gelu_scale_hiera.py && echo yes || echo no)" >> /tmp/five/summary.txt
  cd /tmp/five
done
echo done >> /tmp/five/summary.txt
