#!/usr/bin/env python3
"""Man pages and a bash completion for the `parallax` command, generated from the command's own
help (CLI11's --help of the program and of each subcommand), so that they never disagree with
it. Run by the build (packaging/CMakeLists.txt):

    cli_docs.py PARALLAX_BINARY VERSION OUT_DIR

writes OUT_DIR/man1/parallax.1, OUT_DIR/man1/parallax-SUBCOMMAND.1 (one per subcommand) and
OUT_DIR/completions/parallax (bash)."""

import os
import re
import subprocess
import sys


def helptext(binary, *args):
    r = subprocess.run([binary, *args, "--help"], capture_output=True, text=True, check=True,
                       env={**os.environ, "PARALLAX_CACHE": "off"})
    return r.stdout


def sections(text):
    """The help's first line (the description), its usage line, and its blocks by heading."""
    lines = text.rstrip("\n").split("\n")
    description = lines[0].strip() if lines and not lines[0].startswith("Usage:") else ""
    usage = next((l[len("Usage: "):] for l in lines if l.startswith("Usage: ")), "")
    blocks, current = {}, None
    for line in lines:
        m = re.match(r"^([A-Z][A-Za-z ]+):$", line)
        if m:
            current = m.group(1)
            blocks[current] = []
        elif current is not None and line.strip():
            blocks[current].append(line.rstrip())
    return description, usage, blocks


def entries(block):
    """(name, text) of each `  NAME   text` line (continuation lines joined)."""
    out = []
    for line in block:
        m = re.match(r"^  (\S(?:.*?\S)?)(?:\s{2,}(.*))?$", line)
        if m and not line.startswith("    "):
            out.append([m.group(1), m.group(2) or ""])
        elif out:
            out[-1][1] += " " + line.strip()
    return out


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in text.split("\n"))


def page(name, version, description, usage, blocks, see_also):
    out = [f'.TH {name.upper()} 1 "" "Parallax {version}" "Parallax"',
           ".SH NAME", f"{roff(name)} \\- {roff(description)}", ".SH SYNOPSIS", f".B {roff(usage)}"]
    if description:
        out += [".SH DESCRIPTION", roff(description)]
    titles = {"Positionals": "ARGUMENTS", "Options": "OPTIONS", "Subcommands": "COMMANDS"}
    for heading, block in blocks.items():
        out.append(".SH " + titles.get(heading, heading.upper()))
        for term, text in entries(block):
            out += [".TP", f".B {roff(term)}", roff(text)]
    out += [".SH SEE ALSO", ", ".join(f"\\fB{roff(s)}\\fR(1)" for s in see_also),
            ".PP", "The documentation is in /usr/share/doc/parallax (docs/ in the sources)."]
    return "\n".join(out) + "\n"


def options(block):
    names = []
    for term, _ in entries(block):
        for part in term.split()[0].split(","):
            if part.startswith("-"):
                names.append(part)
    return names


def main():
    binary, version, out = sys.argv[1:4]
    os.makedirs(os.path.join(out, "man1"), exist_ok=True)
    os.makedirs(os.path.join(out, "completions"), exist_ok=True)
    top = helptext(binary)
    description, usage, blocks = sections(top)
    commands = [name for name, _ in entries(blocks.get("Subcommands", []))]
    with open(os.path.join(out, "man1", "parallax.1"), "w") as f:
        f.write(page("parallax", version, description, usage, blocks, [f"parallax-{c}" for c in commands]))
    per_command = {}
    for c in commands:
        d, u, b = sections(helptext(binary, c))
        per_command[c] = options(b.get("Options", []))
        with open(os.path.join(out, "man1", f"parallax-{c}.1"), "w") as f:
            f.write(page(f"parallax-{c}", version, d, u, b, ["parallax"]))
    # bash: the subcommand first, then its options, else files.
    cases = "\n".join(f'    {c}) opts="{" ".join(o)}" ;;' for c, o in per_command.items())
    with open(os.path.join(out, "completions", "parallax"), "w") as f:
        f.write(f"""# bash completion of parallax (generated from its --help by packaging/cli_docs.py)
_parallax() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} cmd="" opts="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${{COMP_WORDS[i]}} in -*) ;; *) cmd=${{COMP_WORDS[i]}}; break ;; esac
  done
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "{' '.join(options(blocks.get('Options', [])))}" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "{' '.join(commands)}" -- "$cur"))
    fi
    return
  fi
  case $cmd in
{cases}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _parallax parallax paramedir
""")


if __name__ == "__main__":
    main()
