#!/bin/sh
# Fails when the engine's folders include each other in a circle. Each folder of engine/ (core,
# kernels, layers, ...) is a node; a file's #include "other/x.hpp" is an edge from its folder to
# other/. The graph must be acyclic, so that each folder can be read, tested and replaced knowing only
# the folders beneath it. Prints the folders in an order where each uses only those before it, or the
# circle and the includes that close it.
# Usage: scripts/check-layers.sh [ENGINE_DIR]   (default: engine/ beside this script)
set -eu
root=${1:-$(dirname "$0")/../engine}
exec python3 - "$root" <<'PY'
import os, re, sys

root = sys.argv[1]
edges, why = {}, {}
for folder, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith((".hpp", ".cpp", ".h")):
            continue
        path = os.path.join(folder, name)
        src = os.path.relpath(path, root).split(os.sep)[0]
        if src == name:  # a file at the engine's top level belongs to no folder
            continue
        edges.setdefault(src, set())
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m or "/" not in m.group(1) or not os.path.exists(os.path.join(root, m.group(1))):
                    continue
                dst = m.group(1).split("/")[0]
                if dst != src:
                    edges[src].add(dst)
                    why.setdefault((src, dst), []).append(os.path.relpath(path, root) + ' includes "' + m.group(1) + '"')

order, state = [], {}
def visit(node, stack):
    if state.get(node) == "done":
        return
    if state.get(node) == "open":
        circle = stack[stack.index(node):] + [node]
        print("check-layers: the engine's folders include each other in a circle: " + " -> ".join(circle))
        for a, b in zip(circle, circle[1:]):
            for w in why[(a, b)][:3]:
                print("  " + w)
        sys.exit(1)
    state[node] = "open"
    for dst in sorted(edges.get(node, ())):
        visit(dst, stack + [node])
    state[node] = "done"
    order.append(node)

for node in sorted(edges):
    visit(node, [])
print("check-layers: no circle; each folder uses only those before it: " + " < ".join(order))
PY
