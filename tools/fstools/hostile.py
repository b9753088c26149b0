"""Hostile names: what a name taken from a trace (a span, category, thread, label or file name) may
never do in the output a consumer reads, as plain rules over text. Shared by
check_hostile_corpus.py (the committed corpus), check_hostile_generative.py (random strings per
class) and check_action.py (the Action's log and summary), so each consumer is read one way.

- a terminal: no C0 control but tab and line feed, no DEL, C1, invisible or bidi character;
- the GitHub Actions runner: no line that begins, after whitespace, with `::` except framescope's
  own annotations, which come last, one per line, as `::error|warning|notice title=...::`;
- GitHub's Markdown: every table row has its header's cell count (cells split at each `|` not
  escaped by a backslash), and no HTML tag, image, link, autolink, entity, emphasis, math or emoji
  from a name outside code spans;
- HTML: no element or attribute that is not framescope's page;
- CSV: a text field read back once its visible escapes are decoded and its formula guard removed.

The `*_problems` functions return what is wrong (empty when the text is clean), each problem a
line naming `what` and the evidence; each check counts them its own way.
"""
import re

# File names the corpus checks and the Action check give a copy of the hostile trace.
ODD_NAME = "file `tick` ``run`` |pipe| *em* <b>x [l](u) $m$ &amp.json"
CONTROL_NAME = "ctl\n::warning::from-file-name \x1b[2J\u202e.json"
# framescope's own annotations: the only lines that may begin with `::`.
ANNOTATION = re.compile(r"^::(error|warning|notice) title=[^:\n]*::")
MARKDOWN_PAYLOADS = ["<img", "<b>", "<script", "![", "](", "**strong**", "~~strike~~", "$x^2$", ":smile:", "https://", "www.example",
                     "&amp;", "&lt;", "me@example", "*em*", "_em_"]
# framescope's HTML page: every element and attribute it writes (a name must add none).
PAGE_ELEMENTS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "section", "p", "strong", "br", "span", "div",
                 "table", "caption", "thead", "tbody", "tr", "th", "td", "canvas", "script"}
PAGE_ATTRIBUTES = {"lang", "charset", "http-equiv", "name", "content", "class", "id", "data-frames", "data-bars", "data-drawn", "data-lane", "data-thread",
                   "aria-hidden", "tabindex", "role", "aria-label", "aria-live", "hidden", "type"}


def forbidden(character):
    """A character a terminal must never be sent from a name: C0 (but tab and LF), DEL, C1, bidi, invisible."""
    value = ord(character)
    if value in (0x09, 0x0A):
        return False
    return (value < 0x20 or 0x7F <= value <= 0x9F or value == 0x061C or 0x200B <= value <= 0x200F
            or 0x2028 <= value <= 0x202E or 0x2066 <= value <= 0x2069 or value == 0xFEFF)


def runner_lines(text):
    """Lines as the Actions runner reads them (.NET StreamReader.ReadLine): split at CR LF, CR and LF only."""
    return re.split(r"\r\n|\r|\n", text)


def shown(name):
    """A trace's category name as framescope keeps it apart from its own labels (which are in
    parentheses): a name that begins with `(` or `"` in double quotes, every other name as it is."""
    return f'"{name}"' if name[:1] in ("(", '"') else name


def table_cells(row):
    """The cells of a Markdown table row as GitHub counts them: split at each `|` not escaped by a backslash."""
    count, escaped = 0, False
    for character in row[1:]:
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == "|":
            count += 1
    return count


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


def text_problems(text, what, annotations=False, json_body=False):
    """A terminal's and the runner's view of text (JSON bodies escape their characters, so only their lines count)."""
    problems = []
    if not json_body:
        bad = [c for c in text if forbidden(c)]
        if bad:
            problems.append(f"{what}: {len(bad)} control or bidi characters, first U+{ord(bad[0]):04X}")
    lines = text.split("\n")
    commands = [i for i, line in enumerate(lines) if line.lstrip(" \t").startswith("::")]
    if not annotations:
        if commands:
            problems.append(f"{what}: lines starting with :: {[lines[i][:60] for i in commands]}")
        return problems
    if not commands:
        problems.append(f"{what}: no annotations")
    last = max(i for i, line in enumerate(lines) if line != "")
    if commands != list(range(last - len(commands) + 1, last + 1)):
        problems.append(f"{what}: a :: line before the annotations")
    problems += [f"{what}: not framescope's annotation form: {lines[i][:80]!r}" for i in commands if not ANNOTATION.match(lines[i])]
    return problems


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


def markdown_problems(markdown, what):
    """GitHub's view of Markdown: the text rules, fences, chart titles, table cells, headings, no markup from a name."""
    problems = text_problems(markdown, what)
    columns, in_fence = None, False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            if line not in ("```mermaid", "```"):
                problems.append(f"{what}: fence {line!r}")
            in_fence = line == "```mermaid"
            continue
        if in_fence:
            if line.startswith("    title") and not (line.count('"') == 2 and line.endswith('"')):
                problems.append(f"{what}: chart title {line!r}")
            continue
        if line.startswith("|"):
            cells = table_cells(line)
            if columns is None:
                columns = cells
            if cells != columns:
                problems.append(f"{what}: {cells} cells, header {columns}: {line[:100]!r}")
        else:
            columns = None
        if line.startswith("#") and not (line.startswith("## ") or line.startswith("### ")):
            problems.append(f"{what}: heading {line[:80]!r}")
        outside = outside_code(line)
        problems += [f"{what}: raw {payload} in {line[:100]!r}" for payload in MARKDOWN_PAYLOADS if payload in outside]
    return problems
