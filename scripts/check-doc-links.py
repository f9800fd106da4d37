#!/usr/bin/env python3
"""Every relative link and image in README.md and docs/ (the CTest test doc_links) resolves.

  scripts/check-doc-links.py [ROOT]

Checks each Markdown link and image ([text](target), ![alt](target), [name]: target) and each
<img src="..."> outside code: the file or folder must exist in the tree (relative to the Markdown
file), and an #anchor must name a heading of the target file, spelt as GitHub makes its anchors.
Addresses with a scheme (https:, mailto:) are not followed. Prints each broken one with its file
and line; exits 1 when there is any.
"""
import os
import re
import sys
import urllib.parse

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
IMG_TAG = re.compile(r"<img\s[^>]*src=\"([^\"]+)\"", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    for folder, dirs, names in os.walk(os.path.join(root, "docs")):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.isfile(f)]


def prose_lines(text, blank_code=True):
    """(line number, line) outside fenced code blocks, inline code spans blanked out (blank_code)."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is None and not blank_code:
            yield number, line
        elif fence is None:
            yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda c: " " * len(c.group(0)), line)


def github_anchor(heading):
    """The anchor GitHub gives a heading: markup dropped, lower case, punctuation out, spaces to -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"[*_~]{1,3}(?=\S)|(?<=\S)[*_~]{1,3}", lambda m: m.group(0) if m.group(0) == "_" else "", text)
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors_of(path, cache={}):
    if path not in cache:
        found, counts = set(), {}
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text, blank_code=False):
            m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = github_anchor(m.group(1))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", text):
            found.add(m.group(1))
        cache[path] = found
    return cache[path]


def check(root):
    broken, count = [], 0
    for md in markdown_files(root):
        with open(md, encoding="utf-8") as f:
            raw = f.read()
        for number, line in prose_lines(raw):
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REFERENCE.match(line)
            if m:
                targets.append(m.group(1))
            targets += IMG_TAG.findall(line)
            for target in targets:
                if SCHEME.match(target) or target.startswith("//"):
                    continue
                count += 1
                path_part, _, anchor = target.partition("#")
                path_part = urllib.parse.unquote(path_part)
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path_part)) if path_part else md
                where = f"{os.path.relpath(md, root)}:{number}"
                if path_part.startswith("/"):
                    broken.append(f"{where}: {target}: an absolute path; link relative to the file")
                elif not os.path.exists(dest):
                    broken.append(f"{where}: {target}: {os.path.relpath(dest, root)} does not exist")
                elif os.path.relpath(dest, root).split(os.sep)[0] == "..":
                    broken.append(f"{where}: {target}: points outside the repository")
                elif anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                    broken.append(f"{where}: {target}: {os.path.relpath(dest, root)} has no heading "
                                  f"with the anchor #{anchor}")
    return broken, count


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    broken, count = check(root)
    for b in broken:
        print("BROKEN:", b)
    files = len(markdown_files(root))
    if broken:
        print(f"{len(broken)} of {count} relative links and images in {files} Markdown files do not resolve")
        return 1
    print(f"all {count} relative links and images in {files} Markdown files (README.md, docs/) resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
