#!/usr/bin/env python3
"""Are the documentation's demo tables true? On virtual time the demo prints the same table on any
machine, so the block under the heading "The demo, measured on this machine" in each document
(README.md's front page, and the Benchmarks article of the FrameScope DocC catalog) must equal
what `framescope demo` (with its defaults) prints, line for line, up to the verdicts.

    python3 tools/check_readme_demo.py DOCUMENT... DEMO_OUTPUT

DEMO_OUTPUT is the demo's standard output. Exit status: 0 when every document agrees, 1 when one
differs, 2 when a file could not be read or a document has no such block.
"""
import re
import sys

HEADING = re.compile(r"^#{2,} The demo, measured on this machine$", re.M)


def demo_block(text):
    heading = HEADING.search(text)
    if not heading:
        return None
    fence = text.find("```\n", heading.end())
    end = text.find("```", fence + 4)
    if fence < 0 or end < 0:
        return None
    return text[fence + 4:end].rstrip("\n").splitlines()


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[5].strip(), file=sys.stderr)
        return 2
    documents, output_path = sys.argv[1:-1], sys.argv[-1]
    try:
        output = open(output_path, encoding="utf-8").read().splitlines()
    except OSError as error:
        print(f"cannot read: {error}", file=sys.stderr)
        return 2
    printed = [line for line in output if not line.startswith(("traces:", "        or run:", "frame timelines of every run:"))]
    status = 0
    for document in documents:
        try:
            text = open(document, encoding="utf-8").read()
        except OSError as error:
            print(f"cannot read: {error}", file=sys.stderr)
            return 2
        block = demo_block(text)
        if not block:
            print(f"{document}: no fenced block under a heading 'The demo, measured on this machine'", file=sys.stderr)
            return 2
        if printed != block:
            for number, (want, got) in enumerate(zip(block, printed), 1):
                if want != got:
                    print(f"{document}: line {number} differs:\n  document: {want}\n  demo:     {got}")
                    break
            else:
                print(f"{document}: the block has {len(block)} lines, the demo printed {len(printed)}")
            status = 1
        else:
            print(f"{document}: the demo table ({len(block)} lines) is what the demo printed")
    return status


if __name__ == "__main__":
    sys.exit(main())
