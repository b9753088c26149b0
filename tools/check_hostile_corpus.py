#!/usr/bin/env python3
"""Runs every trace-reading command and output format over the hostile-names corpus (a CI step).

    python3 tools/check_hostile_corpus.py FRAMESCOPE_BINARY

First regenerates the corpus with tools/make_hostile_corpus.py into a scratch folder and checks
that it equals the committed Tests/FramescopeCLITests/Fixtures/hostile byte for byte (the
fixtures are generated, never edited by hand). Then runs the built binary over the regenerated
corpus — report (text, --wide, markdown, html, json, frames-jsonl, frames-csv), check and compare
(text, markdown, json, each with --junit, --github-annotations and a step summary, with one
missing trace among the readable ones), repair (a cut array-form copy), and the error line for a
missing file — also under a file name holding a line break, a workflow command, ESC and a bidi
override, and checks per format, independently of the Swift tests' helpers:

- text, Markdown, stderr: no C0 control but tab and line feed, no DEL, C1 or invisible/bidi
  character; no line that begins, after whitespace, with `::` except framescope's own
  annotations, which come last, one per line, as `::error|warning|notice title=...::`;
- Markdown: every table row has its header's cell count (cells split at each `|` not escaped by
  a backslash, as GitHub does), and no HTML tag, image, link, autolink, entity, emphasis, math
  or emoji from a name outside code spans;
- HTML: no element or attribute that is not framescope's page (tags and attributes as Python's
  html.parser reads them);
- JSON, JSON Lines: parse, and every hostile category name, label and metadata value reads back
  exactly (a name that begins with `(` or `"` inside double quotes, apart from framescope's own
  labels such as `(unattributed)` and `(none)`);
- CSV: parses, no field spans lines or begins as a spreadsheet formula (`=`, `+`, `-`, `@`, tab)
  unless it is a number, and every name, label and metadata value reads back once the visible
  escapes `\\u{HEX}` are decoded and the `'` before a formula removed;
- JUnit: parses as XML 1.0 and names the hostile categories.

Exit status: 0 when every property holds, 1 when one does not, 2 when something could not run.
"""
import csv
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMITTED = os.path.join(ROOT, "Tests", "FramescopeCLITests", "Fixtures", "hostile")
ODD_NAME = "file `tick` ``run`` |pipe| *em* <b>x [l](u) $m$ &amp.json"
CONTROL_NAME = "ctl\n::warning::from-file-name \x1b[2J\u202e.json"
LABEL = "main\n::error::from-label \x1b[31m\u202e"
ANNOTATION = re.compile(r"^::(error|warning|notice) title=[^:\n]*::")
PAYLOADS = ["<img", "<b>", "<script", "![", "](", "**strong**", "~~strike~~", "$x^2$", ":smile:", "https://", "www.example",
            "&amp;", "&lt;", "me@example", "*em*", "_em_"]
PAGE_ELEMENTS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "section", "p", "strong", "br", "span", "div",
                 "table", "caption", "thead", "tbody", "tr", "th", "td", "canvas", "script"}
PAGE_ATTRIBUTES = {"lang", "charset", "http-equiv", "name", "content", "class", "id", "data-frames", "data-bars", "data-drawn", "data-lane", "data-thread",
                   "aria-hidden",
                   "tabindex", "role", "aria-label", "aria-live", "hidden", "type"}

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"  FAIL {what}", file=sys.stderr)
    return condition


def forbidden(character):
    value = ord(character)
    if value in (0x09, 0x0A):
        return False
    return (value < 0x20 or 0x7F <= value <= 0x9F or value == 0x061C or 0x200B <= value <= 0x200F
            or 0x2028 <= value <= 0x202E or 0x2066 <= value <= 0x2069 or value == 0xFEFF)


def expect_clean_text(text, what, annotations=False, json_body=False):
    if not json_body:
        bad = [c for c in text if forbidden(c)]
        expect(not bad, f"{what}: {len(bad)} control or bidi characters, first U+{ord(bad[0]) if bad else 0:04X}")
    lines = text.split("\n")
    commands = [i for i, line in enumerate(lines) if line.lstrip(" \t").startswith("::")]
    if not annotations:
        expect(not commands, f"{what}: lines starting with :: {[lines[i][:60] for i in commands]}")
        return
    expect(commands, f"{what}: no annotations")
    last = max(i for i, line in enumerate(lines) if line != "")
    expect(commands == list(range(last - len(commands) + 1, last + 1)), f"{what}: a :: line before the annotations")
    for i in commands:
        expect(ANNOTATION.match(lines[i]), f"{what}: not framescope's annotation form: {lines[i][:80]!r}")


def shown(name):
    """A trace's category name as framescope keeps it beside its own labels, which are in parentheses."""
    return f'"{name}"' if name[:1] in ("(", '"') else name


def is_number(field):
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", field) is not None


def csv_decoded(field):
    """A frames-csv text field read back: visible escapes decoded, the formula guard removed."""
    if field[:1] == "'" and (field[1:2] in ("=", "+", "-", "@") or field[1:].startswith(("\\u{9}", "\\u{D}"))):
        field = field[1:]
    return re.sub(r"\\u\{([0-9A-F]+)\}", lambda match: chr(int(match.group(1), 16)), field)


def body_without_annotations(text):
    lines = text.split("\n")
    while lines and (lines[-1] == "" or lines[-1].startswith("::")):
        lines.pop()
    return "\n".join(lines) + "\n"


def table_cells(row):
    count, escaped = 0, False
    for character in row[1:]:
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == "|":
            count += 1
    return count


def outside_code(line):
    """The line with backslash escapes and code spans replaced: what GitHub reads as Markdown."""
    result, index = [], 0
    while index < len(line):
        if line[index] == "\\" and index + 1 < len(line):
            result.append("·")
            index += 2
            continue
        if line[index] != "`":
            result.append(line[index])
            index += 1
            continue
        run = len(line[index:]) - len(line[index:].lstrip("`"))
        closing = re.compile(r"(?<!`)" + "`" * run + r"(?!`)")
        match = closing.search(line, index + run)
        if match:
            index = match.end()
        else:
            result.append("`" * run)
            index += run
    return "".join(result)


def expect_clean_markdown(markdown, what):
    expect_clean_text(markdown, what)
    columns, in_fence = None, False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            expect(line in ("```mermaid", "```"), f"{what}: fence {line!r}")
            in_fence = line == "```mermaid"
            continue
        if in_fence:
            if line.startswith("    title"):
                expect(line.count('"') == 2 and line.endswith('"'), f"{what}: chart title {line!r}")
            continue
        if line.startswith("|"):
            cells = table_cells(line)
            if columns is None:
                columns = cells
            expect(cells == columns, f"{what}: {cells} cells, header {columns}: {line[:100]!r}")
        else:
            columns = None
        if line.startswith("#"):
            expect(line.startswith("## ") or line.startswith("### "), f"{what}: heading {line[:80]!r}")
        outside = outside_code(line)
        for payload in PAYLOADS:
            expect(payload not in outside, f"{what}: raw {payload} in {line[:100]!r}")


class Markup(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements, self.attributes = set(), set()

    def handle_starttag(self, tag, attrs):
        self.elements.add(tag)
        self.attributes.update(name for name, _ in attrs)


def run(binary, arguments, environment=None, status=None):
    env = dict(os.environ)
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.update(environment or {})
    result = subprocess.run([binary] + arguments, capture_output=True, env=env)
    output, error = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    if status is not None:
        expect(result.returncode == status, f"{arguments[0]} {arguments[-1]!r}: exit {result.returncode}, expected {status}: {error[:200]}")
    expect_clean_text(error, f"{arguments[0]} stderr")
    return result.returncode, output, error


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="framescope-hostile-")
    try:
        corpus = os.path.join(scratch, "hostile")
        generated = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_hostile_corpus.py"), corpus], capture_output=True)
        if generated.returncode != 0:
            print(f"FAILED: make_hostile_corpus.py: {generated.stderr.decode()}", file=sys.stderr)
            return 2
        print("corpus: regenerated; compared with the committed fixtures")
        expect(sorted(os.listdir(corpus)) == sorted(os.listdir(COMMITTED)), "the committed corpus has other files than the script writes")
        for name in os.listdir(corpus):
            committed = os.path.join(COMMITTED, name)
            with open(os.path.join(corpus, name), "rb") as new:
                same = os.path.exists(committed) and open(committed, "rb").read() == new.read()
            expect(same, f"{name}: differs from what tools/make_hostile_corpus.py writes (edited by hand?)")
        strings = [json.loads(line)["text"] for line in open(os.path.join(corpus, "hostile-strings.jsonl"), encoding="utf-8")]
        trace = os.path.join(corpus, "hostile-names.json")
        head = os.path.join(corpus, "hostile-names-head.json")
        odd = os.path.join(corpus, ODD_NAME)
        budget = os.path.join(corpus, "hostile-budget.json")
        control = os.path.join(scratch, CONTROL_NAME)
        shutil.copyfile(trace, control)
        missing = os.path.join(scratch, "missing \x1b[2J\n::error::gone.json")

        print("report: text, --wide, markdown, html, json, frames-jsonl, frames-csv")
        for source in (trace, odd, control):
            for arguments in (["--format", "text"], ["--wide"], ["--format", "markdown"]):
                _, output, _ = run(binary, ["report", source] + arguments, status=0)
                if arguments[-1] == "markdown":
                    expect_clean_markdown(output, f"report {arguments} {source!r}")
                else:
                    expect_clean_text(output, f"report {arguments} {source!r}")
                expect("stop-commands" in output, f"report {arguments}: the names are not shown")
            _, page, _ = run(binary, ["report", source, "--format", "html"], status=0)
            markup = Markup()
            markup.feed(page)
            expect(not markup.elements - PAGE_ELEMENTS, f"report html: elements a name made: {markup.elements - PAGE_ELEMENTS}")
            expect(not markup.attributes - PAGE_ATTRIBUTES, f"report html: attributes a name made: {markup.attributes - PAGE_ATTRIBUTES}")
        _, output, _ = run(binary, ["report", trace, "--format", "json"], status=0)
        expect_clean_text(output, "report json", json_body=True)
        report = json.loads(output)
        categories = {category["name"] for category in report["categories"]}
        for name in strings:
            expect(shown(name) in categories, f"report json: category {name!r} lost")
        _, output, _ = run(binary, ["report", trace, "--format", "frames-jsonl", "--label", f"branch={LABEL}"], status=0)
        expect_clean_text(output, "frames-jsonl", json_body=True)
        rows = [json.loads(line) for line in output.split("\n") if line]  # not splitlines(): U+0085 and U+2028 may be in a string
        expect(len(rows) == 40 and all(row["label_branch"] == LABEL and row["meta_note"] == strings[24] for row in rows),
               "frames-jsonl: label or metadata does not round-trip")
        keys = set().union(*(row["main_by_category_ms"].keys() for row in rows))
        for name in strings:
            expect(shown(name) in keys, f"frames-jsonl: category {name!r} lost")
        _, output, _ = run(binary, ["report", odd, "--format", "frames-csv", "--label", f"branch={LABEL}"], status=0)
        table = list(csv.reader(io.StringIO(output, newline="")))
        header = table[0]
        expect(len(table) == 41 and all(len(row) == len(header) for row in table), "frames-csv: ragged rows")
        for row in table:
            for field in row:
                expect("\n" not in field and "\r" not in field, f"frames-csv: a field spans lines: {field[:60]!r}")
                expect(not field[:1] or field[0] not in "=+-@\t" or is_number(field), f"frames-csv: a formula: {field[:60]!r}")
        column = {name: index for index, name in enumerate(header)}
        expect(all(csv_decoded(row[column["label_branch"]]) == LABEL and row[column["trace"]] == odd
                   and csv_decoded(row[column["meta_note"]]) == strings[24]
                   for row in table[1:]), "frames-csv: label, trace or metadata does not round-trip")
        decoded_header = {csv_decoded(name) for name in header}
        for name in strings:
            expect(f"category:{shown(name)}" in decoded_header, f"frames-csv: category {name!r} lost")
        status, _, error = run(binary, ["report", missing], status=3)
        expect(error.count("\n") == 1, f"report of a missing file: not one stderr line: {error!r}")

        for command in ("check", "compare"):
            print(f"{command}: text, markdown, json, each with --junit, --github-annotations and a step summary")
            for form in ("text", "markdown", "json"):
                junit = os.path.join(scratch, f"{command}-{form}.xml")
                summary = os.path.join(scratch, f"{command}-{form}.md")
                if command == "check":
                    arguments = ["check", trace, odd, control, missing, "--budget", budget]
                    expected = 3  # one missing trace: the others are still reported
                else:
                    arguments = ["compare", "--base", trace, "--base", control, "--head", head, "--head", odd]
                    expected = 1
                _, output, error = run(binary, arguments + ["--format", form, "--junit", junit, "--github-annotations"],
                                       environment={"GITHUB_STEP_SUMMARY": summary}, status=expected)
                what = f"{command} {form}"
                expect_clean_text(output, what, annotations=True, json_body=form == "json")
                body = body_without_annotations(output)
                if form == "markdown":
                    expect_clean_markdown(body, what)
                if form == "json":
                    json.loads(body)
                expect_clean_markdown(open(summary, encoding="utf-8").read(), f"{what} step summary")
                try:
                    suites = ElementTree.parse(junit).getroot()
                except ElementTree.ParseError as error:
                    expect(False, f"{what} junit: not XML 1.0: {error}")
                    continue
                names = [case.get("name") for case in suites.iter("testcase")]
                wanted = "categories[\"<img src=x onerror=alert(1)>\"]." + ("main-ms-total" if command == "check" else "main-ms-per-frame")
                expect(wanted in names, f"{what} junit: no testcase {wanted!r}")
                if command == "check":
                    errors = [e.get("message") for e in suites.iter("error")]
                    expect(len(errors) == 1 and "no such file or directory" in errors[0], f"{what} junit: errors {errors!r}")

        print("repair: a cut array-form copy, under the control-character file name")
        events = json.load(open(trace, encoding="utf-8"))["traceEvents"]
        text = "[" + ",\n".join(json.dumps(event, ensure_ascii=False) for event in events)
        with open(control, "w", encoding="utf-8") as file:
            file.write(text[: len(text) * 2 // 3])
        _, output, error = run(binary, ["repair", control, "--out", "-"], status=0)
        repaired = json.loads(output)
        expect(len(repaired) > 10 and all(event in events for event in repaired), "repair: the kept events are not the trace's")
        expect("dropped" in error or "bytes" in error, f"repair: no report on stderr: {error!r}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print(f"FAILED: {len(failures)} properties do not hold over the hostile-names corpus", file=sys.stderr)
        return 1
    print("every command and format over the hostile-names corpus: no forged annotation, no control or bidi character, "
          "no Markdown or HTML from a name; JSON, CSV and JUnit read back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
