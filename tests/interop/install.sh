#!/usr/bin/env bash
# Installs onnxruntime-node (its bundled CPU runtime for Linux x64) into tests/interop/node_modules
# from package-lock.json, once per lock file. Its install script would also download the CUDA
# provider from GitHub; as its README says, --onnxruntime-node-install-cuda=skip (or the variable
# ONNXRUNTIME_NODE_INSTALL_CUDA=skip) leaves that out. Needs the npm registry the first time.
set -euo pipefail
cd "$(dirname "$0")"
# interop_onnx and interop_text both call this; under `ctest -j` they would run `npm ci` into the
# same folder at once. One at a time: the second finds the first's install.
exec 9>.install.lock
flock 9
stamp=node_modules/.trainbench-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ -f node_modules/onnxruntime-node/package.json && -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "interop: npm is missing (apt-get install nodejs npm, or scripts/setup-debian.sh)" >&2
  exit 1
fi
export ONNXRUNTIME_NODE_INSTALL_CUDA=skip
npm ci --no-audit --no-fund --onnxruntime-node-install-cuda=skip >&2
echo "$want" >"$stamp"
