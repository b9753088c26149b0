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
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from fstools.common import ROOT, Checks, run as run_command
from fstools.hostile import (
    CONTROL_NAME, ODD_NAME, PAGE_ATTRIBUTES, PAGE_ELEMENTS, body_without_annotations, csv_decoded, is_number,
    markdown_problems, shown, text_problems,
)

COMMITTED = os.path.join(ROOT, "Tests", "FramescopeCLITests", "Fixtures", "hostile")
LABEL = "main\n::error::from-label \x1b[31m\u202e"

checks = Checks(shown=1_000_000, stream=sys.stderr)
expect = checks.expect
failures = checks.failures


def expect_none(problems, what):
    """Each problem a failure of its own; none: one check passed."""
    for problem in problems:
        expect(False, problem)
    return expect(True, what) if not problems else False


def expect_clean_text(text, what, annotations=False, json_body=False):
    expect_none(text_problems(text, what, annotations=annotations, json_body=json_body), what)


def expect_clean_markdown(markdown, what):
    expect_none(markdown_problems(markdown, what), what)


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
    result = run_command([binary] + arguments, check=False, text=False, env=env)
    output, error = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    if status is not None:
        expect(result.returncode == status, f"{arguments[0]} {arguments[-1]!r}: exit {result.returncode}, expected {status}: {error[:200]}")
    expect_clean_text(error, f"{arguments[0]} stderr")
    return result.returncode, output, error


def compare_corpus(corpus):
    print("corpus: regenerated; compared with the committed fixtures")
    expect(sorted(os.listdir(corpus)) == sorted(os.listdir(COMMITTED)), "the committed corpus has other files than the script writes")
    for name in os.listdir(corpus):
        committed = os.path.join(COMMITTED, name)
        with open(os.path.join(corpus, name), "rb") as new:
            same = os.path.exists(committed) and open(committed, "rb").read() == new.read()
        expect(same, f"{name}: differs from what tools/make_hostile_corpus.py writes (edited by hand?)")


def check_report_pages(binary, sources):
    """report as text, --wide, Markdown and HTML, under each of the files' names."""
    for source in sources:
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


def check_report_rows(binary, trace, odd, strings):
    """report's JSON, frames-jsonl and frames-csv: every name, label and metadata value reads back."""
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


def check_gate(binary, scratch, command, form, sources):
    """check or compare in one format, with --junit, --github-annotations and a step summary."""
    trace, head, odd, control, missing, budget = sources
    junit = os.path.join(scratch, f"{command}-{form}.xml")
    summary = os.path.join(scratch, f"{command}-{form}.md")
    if command == "check":
        arguments = ["check", trace, odd, control, missing, "--budget", budget]
        expected = 3  # one missing trace: the others are still reported
    else:
        arguments = ["compare", "--base", trace, "--base", control, "--head", head, "--head", odd]
        expected = 1
    _, output, _ = run(binary, arguments + ["--format", form, "--junit", junit, "--github-annotations"],
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
        return
    names = [case.get("name") for case in suites.iter("testcase")]
    wanted = "categories[\"<img src=x onerror=alert(1)>\"]." + ("main-ms-total" if command == "check" else "main-ms-per-frame")
    expect(wanted in names, f"{what} junit: no testcase {wanted!r}")
    if command == "check":
        errors = [e.get("message") for e in suites.iter("error")]
        expect(len(errors) == 1 and "no such file or directory" in errors[0], f"{what} junit: errors {errors!r}")


def check_repair(binary, trace, control):
    print("repair: a cut array-form copy, under the control-character file name")
    events = json.load(open(trace, encoding="utf-8"))["traceEvents"]
    text = "[" + ",\n".join(json.dumps(event, ensure_ascii=False) for event in events)
    with open(control, "w", encoding="utf-8") as file:
        file.write(text[: len(text) * 2 // 3])
    _, output, error = run(binary, ["repair", control, "--out", "-"], status=0)
    repaired = json.loads(output)
    expect(len(repaired) > 10 and all(event in events for event in repaired), "repair: the kept events are not the trace's")
    expect("dropped" in error or "bytes" in error, f"repair: no report on stderr: {error!r}")


def check_corpus(binary, scratch):
    corpus = os.path.join(scratch, "hostile")
    generated = run_command([sys.executable, os.path.join(ROOT, "tools", "make_hostile_corpus.py"), corpus], check=False)
    if generated.returncode != 0:
        print(f"FAILED: make_hostile_corpus.py: {generated.stderr}", file=sys.stderr)
        return 2
    compare_corpus(corpus)
    strings = [json.loads(line)["text"] for line in open(os.path.join(corpus, "hostile-strings.jsonl"), encoding="utf-8")]
    trace = os.path.join(corpus, "hostile-names.json")
    head = os.path.join(corpus, "hostile-names-head.json")
    odd = os.path.join(corpus, ODD_NAME)
    budget = os.path.join(corpus, "hostile-budget.json")
    control = os.path.join(scratch, CONTROL_NAME)
    shutil.copyfile(trace, control)
    missing = os.path.join(scratch, "missing \x1b[2J\n::error::gone.json")

    print("report: text, --wide, markdown, html, json, frames-jsonl, frames-csv")
    check_report_pages(binary, (trace, odd, control))
    check_report_rows(binary, trace, odd, strings)
    status, _, error = run(binary, ["report", missing], status=3)
    expect(error.count("\n") == 1, f"report of a missing file: not one stderr line: {error!r}")
    for command in ("check", "compare"):
        print(f"{command}: text, markdown, json, each with --junit, --github-annotations and a step summary")
        for form in ("text", "markdown", "json"):
            check_gate(binary, scratch, command, form, (trace, head, odd, control, missing, budget))
    check_repair(binary, trace, control)
    return 0


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="framescope-hostile-")
    try:
        if check_corpus(binary, scratch) == 2:
            return 2
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
