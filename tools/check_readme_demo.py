#!/usr/bin/env python3
"""Is the README's demo table true? On virtual time the demo prints the same table on any machine,
so the block under "The demo, measured on this machine" must equal what `framescope demo` (with
its defaults) prints, line for line, up to the verdicts.

    python3 tools/check_readme_demo.py README.md DEMO_OUTPUT

DEMO_OUTPUT is the demo's standard output. Exit status: 0 when they agree, 1 when they differ,
2 when either could not be read.
"""
import sys


def readme_block(text):
    marker = "### The demo, measured on this machine"
    start = text.find(marker)
    if start < 0:
        return None
    fence = text.find("```\n", start)
    end = text.find("```", fence + 4)
    if fence < 0 or end < 0:
        return None
    return text[fence + 4:end].rstrip("\n").splitlines()


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        return 2
    try:
        readme = open(sys.argv[1], encoding="utf-8").read()
        output = open(sys.argv[2], encoding="utf-8").read().splitlines()
    except OSError as error:
        print(f"cannot read: {error}", file=sys.stderr)
        return 2
    block = readme_block(readme)
    if not block:
        print(f"{sys.argv[1]}: no fenced block under '### The demo, measured on this machine'", file=sys.stderr)
        return 2
    printed = [line for line in output if not line.startswith(("traces:", "        or run:", "frame timelines of every run:"))]
    if printed != block:
        for number, (want, got) in enumerate(zip(block, printed), 1):
            if want != got:
                print(f"line {number} differs:\n  README: {want}\n  demo:   {got}")
                break
        else:
            print(f"the README's block has {len(block)} lines, the demo printed {len(printed)}")
        return 1
    print(f"the README's demo table ({len(block)} lines) is what the demo printed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
