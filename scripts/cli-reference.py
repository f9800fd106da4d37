#!/usr/bin/env python3
"""The command-line reference in docs/cli.md, made from what trainbench-cli --help prints.

  scripts/cli-reference.py --write [--cli build/app/cli/trainbench-cli] [--doc docs/cli.md]
      rewrites the part of docs/cli.md between the GENERATED markers: the usage as printed, then one
      section per command with the options its help names (and its own help, where `CMD --help`
      prints something other than the general usage).
  scripts/cli-reference.py --check --cli CLI --doc docs/cli.md
      (the CTest test cli_reference) fails when an option or a command that --help prints is missing
      from docs/cli.md, naming them and the command that regenerates the file.

Run --write after changing the usage (an option, a command): the lead re-runs it after merging.
"""
import argparse
import os
import re
import subprocess
import textwrap
import sys

BEGIN = "<!-- BEGIN GENERATED: scripts/cli-reference.py --write (do not edit by hand) -->"
END = "<!-- END GENERATED -->"
REGENERATE = "scripts/cli-reference.py --write --cli build/app/cli/trainbench-cli"
# An option as the usage writes it: --long-name, or a one-letter -o (not a number, not a word's hyphen).
OPTION = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*|-[A-Za-z])(?![\w-])")


def run_help(cli, *args):
    """What `cli args... --help` prints on stdout; an error when it fails or prints nothing."""
    env = dict(os.environ, LC_ALL="C", LANG="C")
    proc = subprocess.run([cli, *args, "--help"], capture_output=True, text=True, env=env, timeout=60)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(f"cli-reference: `{cli} {' '.join(args)} --help` exited with {proc.returncode} "
                         f"and printed {len(proc.stdout)} characters on stdout; stderr: {proc.stderr.strip()}")
    return proc.stdout


def commands_of(usage):
    """The commands the usage lists, in order, each with the lines that describe it.

    The usage has a `commands:` section whose entries start with two spaces and the command's name;
    continuation lines are indented further. The section ends at the first line that is not indented.
    """
    lines = usage.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip().lower().rstrip(":") == "commands")
    except StopIteration:
        raise SystemExit("cli-reference: `trainbench-cli --help` has no `commands:` section; "
                         "update scripts/cli-reference.py to the new usage format")
    commands = []  # [(name, [lines])]
    for line in lines[start + 1:]:
        if not line.strip() or not line.startswith(" "):
            break
        m = re.match(r"^  ([a-z][\w-]*)(\s|$)", line)
        if m:
            if commands and commands[-1][0] == m.group(1):
                commands[-1][1].append(line)  # a second form of the same command (train --resume)
            else:
                commands.append((m.group(1), [line]))
        elif commands:
            commands[-1][1].append(line)
    if not commands:
        raise SystemExit("cli-reference: found no command under `commands:` in `trainbench-cli --help`")
    return commands


def options_in(text):
    seen = []
    for m in OPTION.finditer(text):
        if m.group(1) not in seen:
            seen.append(m.group(1))
    return seen


def declared_options(help_text):
    """The options a command's help declares: in its usage lines (up to the first blank line) and at the
    start of its options' lines, not those its prose mentions ("train one device with --device")."""
    usage, _, rest = help_text.partition("\n\n")
    declared = [line.split()[0] for line in rest.splitlines() if re.match(r"^ {2}-", line)]
    return options_in(usage + "\n" + "\n".join(declared))


def gather(cli):
    """The general usage, the commands with their usage lines and their own help when it differs."""
    usage = run_help(cli)
    result = []
    for name, lines in commands_of(usage):
        own = run_help(cli, name)
        result.append((name, "\n".join(lines), None if own.strip() == usage.strip() else own))
    return usage, result


def generate(cli):
    usage, commands = gather(cli)
    out = [BEGIN, "", "### Usage", "", "What `trainbench-cli --help` prints:", "", "```text", usage.rstrip("\n"),
           "```", ""]
    for name, lines, own in commands:
        out += [f"### {name}", ""]
        text = own if own is not None else lines
        if own is not None:
            out += [f"What `trainbench-cli {name} --help` prints:", "", "```text", own.rstrip("\n"), "```", ""]
        else:
            out += ["```text", textwrap.dedent(lines).rstrip("\n"), "```", ""]
        opts = declared_options(own) if own is not None else options_in(text)
        out.append("Options: " + (", ".join(f"`{o}`" for o in opts) if opts else "none") + ".")
        out.append("")
    general = [o for o in options_in(usage)
               if not any(o in (declared_options(own) if own is not None else options_in(lines))
                          for _, lines, own in commands)]
    if general:
        out += ["### Without a command", "", ", ".join(f"`{o}`" for o in general) + ".", ""]
    out.append(END)
    return "\n".join(out)


def write(cli, doc):
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"cli-reference: {doc} lacks the markers\n  {BEGIN}\n  {END}")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + generate(cli) + tail
    tmp = doc + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(new)
    os.replace(tmp, doc)
    print(f"cli-reference: wrote the reference into {doc}")


def check(cli, doc):
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    usage, commands = gather(cli)
    documented = set(options_in(text))
    printed = options_in(usage)
    for _, _, own in commands:
        for o in options_in(own or ""):
            if o not in printed:
                printed.append(o)
    missing = [o for o in printed if o not in documented]
    missing_cmds = [name for name, _, _ in commands if not re.search(rf"^### {re.escape(name)}$", text, re.M)]
    if missing or missing_cmds:
        if missing:
            print(f"FAIL: {doc} lacks these options that trainbench-cli --help prints: {' '.join(missing)}")
        if missing_cmds:
            print(f"FAIL: {doc} has no section for these commands: {' '.join(missing_cmds)}")
        print(f"Regenerate it: {REGENERATE} (then review and commit docs/cli.md)")
        return 1
    print(f"{doc}: all {len(printed)} options and {len(commands)} commands of trainbench-cli --help are there")
    return 0


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated part of the reference")
    mode.add_argument("--check", action="store_true", help="fail when --help names something the reference lacks")
    p.add_argument("--cli", default=os.path.join(root, "build/app/cli/trainbench-cli"))
    p.add_argument("--doc", default=os.path.join(root, "docs/cli.md"))
    a = p.parse_args()
    if not os.access(a.cli, os.X_OK):
        raise SystemExit(f"cli-reference: {a.cli} is not an executable; build it first "
                         "(cmake --build build --target trainbench-cli)")
    if a.write:
        write(a.cli, a.doc)
        return 0
    return check(a.cli, a.doc)


if __name__ == "__main__":
    sys.exit(main())
