#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The generated parts of the documentation, and the check that keeps them true.

  docs.py chart               docs/speed.svg from BENCHMARKS.md's summary table
  docs.py cli WGSCAN          docs/cli.md from `WGSCAN --help` and each command's --help
  docs.py check [WGSCAN]      fails (exit 1, one line a problem) where the README states a
                              figure that BENCHMARKS.md's summary does not, where docs/speed.svg is
                              not what `chart` draws, or (given WGSCAN) where docs/cli.md
                              is not what `cli` writes

Run from anywhere: paths are taken from the repository this file is in. Python 3 only,
no packages."""
import difflib
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
BENCHMARKS = os.path.join(ROOT, "BENCHMARKS.md")
CHART = os.path.join(ROOT, "docs", "speed.svg")
CLI_DOC = os.path.join(ROOT, "docs", "cli.md")
SUMMARY_HEADING = "## Summary: the figures the README shows"

# ---------------------------------------------------------------------------------------
# BENCHMARKS.md's summary table


def summary_section(text):
    """The text of BENCHMARKS.md's summary section, its heading included."""
    start = text.find(SUMMARY_HEADING)
    if start < 0:
        raise SystemExit(f"docs.py: BENCHMARKS.md has no section '{SUMMARY_HEADING}'")
    end = text.find("\n## ", start + len(SUMMARY_HEADING))
    return text[start:] if end < 0 else text[start:end + 1]


def summary_rows(text):
    """The rows of the summary table: dicts of primitive, n, and for wgscan and CUB the
    time as written ("742.9 µs"), in µs, and in copies (None for CUB's "—")."""
    rows = []
    for line in summary_section(text).splitlines()[1:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or cells[0] in ("primitive", "---") or not line.startswith("|"):
            continue
        row = {"primitive": cells[0], "n": cells[1]}
        for who, cell in (("wgscan", cells[2]), ("cub", cells[3])):
            if who == "cub" and cell == "—":
                row[who] = None
                continue
            m = re.fullmatch(r"([0-9.]+) (µs|ms) \(([0-9.]+)\)", cell)
            if not m:
                raise SystemExit(f"docs.py: summary row '{cells[0]}, {cells[1]}': cannot read '{cell}'"
                                 " (wanted 'TIME µs|ms (COPIES)')")
            us = float(m.group(1)) * (1000.0 if m.group(2) == "ms" else 1.0)
            row[who] = {"text": f"{m.group(1)} {m.group(2)}", "us": us, "copies": float(m.group(3))}
        rows.append(row)
    if not rows:
        raise SystemExit("docs.py: BENCHMARKS.md's summary table has no rows")
    return rows


# ---------------------------------------------------------------------------------------
# The chart: each primitive's speed as a fraction of a copy's, wgscan beside CUB

def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def chart_svg(rows):
    rows = [r for r in rows if r["n"] == "2^28" and r["cub"]]
    # Speeds span from 1/40 of a copy's (CUB's segmented reduce of short segments) to
    # twice it (a reduce reads half a copy's bytes): a log axis over round decades' steps.
    lo, hi = 0.02, 3.0
    ticks = [0.02, 0.05, 0.1, 0.2, 0.5, 1, 2]
    font = 12
    left, plot_w, right_w = 300, 330, 190
    width = left + plot_w + right_w + 20
    top, row_h = 92, 26
    plot_h = row_h * len(rows)
    height = top + plot_h + 78
    x0 = left + 10

    def x(v):
        return x0 + (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo)) * (plot_w - 20)

    blue, red, grey = "#1f5fa8", "#c8402a", "#888888"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{font}">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{width / 2:.0f}" y="24" text-anchor="middle" font-size="15" font-weight="bold">'
           'wgscan and CUB on one NVIDIA H200: u32 data, n = 2^28</text>',
           f'<text x="{width / 2:.0f}" y="43" text-anchor="middle" fill="#444444">'
           'GPU time by timestamp queries; figures, commits and commands: BENCHMARKS.md, summary</text>']
    # Legend, on its own line above the plot.
    ly = 66
    out.append(f'<circle cx="{x0 + 6}" cy="{ly - 4}" r="5" fill="{blue}"/>')
    out.append(f'<text x="{x0 + 16}" y="{ly}">wgscan (WGSL, Dawn over Vulkan)</text>')
    out.append(f'<circle cx="{x0 + 236}" cy="{ly - 4}" r="4.5" fill="#ffffff" stroke="{red}" stroke-width="2"/>')
    out.append(f'<text x="{x0 + 246}" y="{ly}">CUB (CUDA, the same GPU)</text>')
    out.append(f'<text x="{left + plot_w + 10}" y="{top - 8}" fill="#444444">wgscan · CUB</text>')
    # Grid and ticks.
    for t in ticks:
        tx = x(t)
        colour, dash = ("#333333", ' stroke-dasharray="5,3"') if t == 1 else ("#dddddd", "")
        out.append(f'<line x1="{tx:.1f}" y1="{top}" x2="{tx:.1f}" y2="{top + plot_h}" stroke="{colour}"{dash}/>')
        out.append(f'<text x="{tx:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{t:g}</text>')
    out.append(f'<text x="{x(1):.1f}" y="{top - 8}" text-anchor="middle" fill="#333333">copy</text>')
    out.append(f'<line x1="{x0}" y1="{top + plot_h}" x2="{left + plot_w - 10}" y2="{top + plot_h}" stroke="#333333"/>')
    # One row a primitive: the label, a line from CUB's speed to wgscan's, the two dots
    # (CUB's a ring over wgscan's, so that equal speeds show both).
    for i, r in enumerate(rows):
        cy = top + row_h * i + row_h / 2
        w, c = 1 / r["wgscan"]["copies"], 1 / r["cub"]["copies"]
        out.append(f'<text x="{left}" y="{cy + 4:.1f}" text-anchor="end">{esc(r["primitive"])}</text>')
        out.append(f'<line x1="{x(w):.1f}" y1="{cy:.1f}" x2="{x(c):.1f}" y2="{cy:.1f}" stroke="{grey}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(w):.1f}" cy="{cy:.1f}" r="5" fill="{blue}"/>')
        out.append(f'<circle cx="{x(c):.1f}" cy="{cy:.1f}" r="4.5" fill="none" stroke="{red}" stroke-width="2"/>')
        out.append(f'<text x="{left + plot_w + 10}" y="{cy + 4:.1f}">'
                   f'{esc(r["wgscan"]["text"])} · {esc(r["cub"]["text"])}</text>')
    ax = top + plot_h + 36
    out.append(f'<text x="{x0 + (plot_w - 20) / 2:.0f}" y="{ax}" text-anchor="middle">'
               'speed as a fraction of a copy of n u32 on the same GPU</text>')
    out.append(f'<text x="{x0 + (plot_w - 20) / 2:.0f}" y="{ax + 16}" text-anchor="middle" fill="#444444">'
               '(copy time / time, log scale; right is faster)</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# The README's figures

UNIT = r"(?:µs|ms|GB/s|Gelem/s|Melem/s|copies|copy|x copy|times a copy)"
NUM = r"[0-9]+(?:\.[0-9]+)?"
FIGURE = re.compile(rf"(?<![\w.^/])((?:{NUM}\s*/\s*)*{NUM})\s*(?:=\s*)?{UNIT}(?![\w])")


def readme_figures(text):
    """(number, line number) of every figure the README states: numbers followed by a
    unit of time, rate or copies, each number of 'A / B µs' on its own."""
    found = []
    for m in FIGURE.finditer(text):  # on the whole text: a figure may wrap at its unit
        lineno = text.count("\n", 0, m.start()) + 1
        for num in re.split(r"\s*/\s*", m.group(1)):
            found.append((num, lineno))
    return found


def missing_figures(readme, benchmarks):
    summary = summary_section(benchmarks)
    missing = []
    for num, lineno in readme_figures(readme):
        if not re.search(rf"(?<![\w.]){re.escape(num)}(?![\w]|\.[0-9])", summary):
            missing.append(f"README.md:{lineno}: {num} is not in BENCHMARKS.md's summary")
    return missing


# ---------------------------------------------------------------------------------------
# The CLI reference

def run_help(wgscan, *args):
    p = subprocess.run([wgscan, *args, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit(f"docs.py: '{wgscan} {' '.join(args)} --help' exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def commands(overview):
    """The commands the overview lists, in its order (not `help` or `--version`)."""
    names, inside = [], False
    for line in overview.splitlines():
        if line.strip() == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            m = re.match(r"  ([a-z][a-z0-9-]*)\b", line)
            if m and m.group(1) != "help":
                names.append(m.group(1))
    if not names:
        raise SystemExit("docs.py: found no commands in the overview of --help")
    return names


def cli_markdown(wgscan):
    overview = run_help(wgscan)
    parts = ["# The wgscan command-line tool",
             "",
             "Generated from `wgscan --help` and each command's `--help` by",
             "`python3 scripts/docs.py cli build/wgscan`; the `docs` test fails when they",
             "differ, so edit the help text in `programs/wgscan/` and run that again.",
             "",
             "Commands: " + ", ".join(f"[{c}](#wgscan-{c})" for c in commands(overview)) + ".",
             "",
             "## wgscan --help",
             "",
             "```text",
             overview.rstrip("\n"),
             "```"]
    for c in commands(overview):
        parts += ["", f"## wgscan {c}", "", "```text", run_help(wgscan, c).rstrip("\n"), "```"]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------

def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"docs.py: wrote {os.path.relpath(path, ROOT)}")


def main(argv):
    if len(argv) >= 1 and argv[0] == "chart" and len(argv) == 1:
        write(CHART, chart_svg(summary_rows(read(BENCHMARKS))))
    elif len(argv) == 2 and argv[0] == "cli":
        write(CLI_DOC, cli_markdown(argv[1]))
    elif len(argv) in (1, 2) and argv[0] == "check":
        benchmarks = read(BENCHMARKS)
        problems = missing_figures(read(README), benchmarks)
        if not os.path.exists(CHART) or read(CHART) != chart_svg(summary_rows(benchmarks)):
            problems.append("docs/speed.svg is not what BENCHMARKS.md's summary draws: "
                            "run python3 scripts/docs.py chart")
        if len(argv) == 2:
            want = cli_markdown(argv[1])
            have = read(CLI_DOC) if os.path.exists(CLI_DOC) else ""
            if have != want:
                diff = difflib.unified_diff(have.splitlines(), want.splitlines(), "docs/cli.md",
                                            "wgscan's --help", lineterm="", n=1)
                problems.append("docs/cli.md differs from wgscan's --help: run "
                                "python3 scripts/docs.py cli build/wgscan\n" + "\n".join(list(diff)[:30]))
        for p in problems:
            print(p)
        print(f"docs.py check: {len(problems)} problem(s)")
        return 1 if problems else 0
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
