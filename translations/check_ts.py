#!/usr/bin/env python3
"""Fails when a user-visible string of the window is not translated: runs lupdate over the sources
into a copy of the .ts (so a tr() string added without `update_translations` counts too) and lists
every message whose translation is unfinished, empty or missing. The English file (*_en.ts) holds
the plural forms only ("1 epoch", "2 epochs"): it is checked for those.
Usage: check_ts.py LUPDATE TS_FILE SOURCE_DIR..."""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def untranslated(ts_path):
    bad = []
    for context in ET.parse(ts_path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            t = message.find("translation")
            kind = t.get("type") if t is not None else "missing"
            if kind in ("obsolete", "vanished"):
                continue
            numerus = message.get("numerus") == "yes"
            text = "".join(t.itertext()).strip() if t is not None else ""
            if kind in ("unfinished", "missing") or (not numerus and not text):
                bad.append((name, message.findtext("source")))
    return bad


def main(lupdate, ts, sources):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(ts))
        shutil.copy(ts, copy)
        plurals = ["-pluralonly"] if ts.endswith("_en.ts") else []
        run = subprocess.run([lupdate, "-no-obsolete", "-locations", "none", *plurals, *sources, "-ts", copy],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout + run.stderr, file=sys.stderr)
            return 2
        bad = untranslated(copy)
    for context, source in bad:
        print(f"untranslated in {context}: {source!r}", file=sys.stderr)
    if bad:
        fill = "fill_en.py" if ts.endswith("_en.ts") else "fill_es.py"
        print(f"{len(bad)} string(s) untranslated in {os.path.basename(ts)}: run `cmake --build build --target "
              f"update_translations`, add them to translations/{fill} and run it", file=sys.stderr)
        return 1
    print(f"every string of the window has its translation in {os.path.basename(ts)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
