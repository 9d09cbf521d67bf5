#!/usr/bin/env bash
# Bubblewrap for a machine that cannot install it (the lent GPU machine has no registry): download Debian's
# package here, unpack the binary and the three libraries it links into .tools/, and write .tools/bwrap, a
# wrapper that runs it with those libraries. `run` carries .tools; scripts/device_env.sh points HIERA_BWRAP at
# the wrapper when the machine has no bwrap of its own. .tools/ is kept out of git by .git/info/exclude.
set -eu
cd "$(dirname "$0")/.."
grep -qx '/.tools/' .git/info/exclude 2>/dev/null || echo '/.tools/' >> .git/info/exclude
rm -rf .tools && mkdir -p .tools/lib .tools/deb
(cd .tools/deb && apt-get download bubblewrap libcap2 libselinux1 libpcre2-8-0 >/dev/null)
for d in .tools/deb/*.deb; do dpkg -x "$d" .tools/root; done
cp .tools/root/usr/bin/bwrap .tools/bwrap.bin
cp -L .tools/root/lib/x86_64-linux-gnu/libcap.so.2 .tools/root/lib/x86_64-linux-gnu/libselinux.so.1 \
  .tools/root/usr/lib/x86_64-linux-gnu/libpcre2-8.so.0 .tools/lib/ 2>/dev/null || \
  find .tools/root -name 'libcap.so.2*' -o -name 'libselinux.so.1' -o -name 'libpcre2-8.so.0*' | xargs -I{} cp -L {} .tools/lib/
rm -rf .tools/root .tools/deb
cat > .tools/bwrap <<'SH'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
LD_LIBRARY_PATH="$here/lib" exec "$here/bwrap.bin" "$@"
SH
chmod +x .tools/bwrap .tools/bwrap.bin
.tools/bwrap --version
