#!/usr/bin/env bash
# Download (here, with network) the wheels the lent GPU machine lacks into .whl/, for `run` to carry;
# scripts/device_env.sh installs them there. .whl/ is kept out of git by .git/info/exclude.
set -eu
cd "$(dirname "$0")/.."
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl \
  annotated_types==0.8.0 anyio==4.16.0 attrs==26.1.0 cattrs==26.2.1 distro==1.9.0 h11==0.16.0 \
  httpcore2==2.16.2 httpx2==2.16.2 idna==3.20 jiter==0.19.0 lsprotocol==2025.0.0 openai==3.57.0 \
  pydantic==2.14.4 pydantic_core==2.50.5 pygls==2.1.1 pytest_asyncio==1.5.0 pytest_lsp==1.0.1 sniffio==1.3.1 \
  truststore==0.10.5 typing_extensions==4.16.0 typing_inspection==0.4.5 watchdog==7.1.0
ls .whl | wc -l
