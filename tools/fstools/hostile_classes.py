"""The classes of hostile strings check_hostile_generative.py draws at random, each a generator over
a seeded random.Random: hidden characters (from Unicode's tables, as Python's unicodedata has them),
workflow commands v2 and v1, line breaks, Markdown/HTML/Mermaid syntax, CSV formulas, framescope's
own labels and long names; and the file names made from them."""
import collections
import math
import re
import unicodedata


ORDINARY = ["layout", "draw", "decode", "paint"]  # plain categories in every trace
WORDS = ["layout", "draw", "scroll", "decode", "image", "network", "parse", "render", "commit", "style", "paint", "upload",
         "shader", "cache", "input", "timer", "audio", "physics", "animation", "gc", "text", "fetch", "view", "list"]
RESERVED = {"frame"}  # the category framescope's frame spans use

# Default_Ignorable_Code_Point, from Unicode's DerivedCoreProperties.txt.
DEFAULT_IGNORABLE = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                     (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                     (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]
# Unassigned in every Unicode version so far (Python's tables are older than Swift's: only these count as Cn).
SAFE_UNASSIGNED = [(0x2FE0, 0x2FEF), (0x40000, 0xDFFFD)]
BIDI = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
NONCHARACTERS = list(range(0xFDD0, 0xFDF0)) + [plane * 0x10000 + low for plane in range(17) for low in (0xFFFE, 0xFFFF)]
PRIVATE_USE = [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]
LINE_BREAKS = ["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029"]
LABELS = ["(unattributed)", "(none)", "(unnamed)", "(other)", "other", "other categories", ""]


def noncharacter(value):
    return 0xFDD0 <= value <= 0xFDEF or (value & 0xFFFE) == 0xFFFE


def unicode_tables():
    """The code points by general category, and a regex matching every hidden (terminal-forbidden) character."""
    by_category = collections.defaultdict(list)
    forbidden = []
    ignorable = set()
    for low, high in DEFAULT_IGNORABLE:
        ignorable.update(range(low, high + 1))
    safe = set()
    for low, high in SAFE_UNASSIGNED:
        safe.update(range(low, high + 1))
    for value in range(0x110000):
        category = unicodedata.category(chr(value))
        if category in ("Cc", "Cf", "Zl", "Zp"):
            by_category[category].append(value)
        bad = (category in ("Cc", "Cf", "Co", "Zl", "Zp") or value in ignorable or noncharacter(value)
               or (category == "Cn" and value in safe))
        if bad and value not in (0x09, 0x0A):
            if forbidden and forbidden[-1][1] == value - 1:
                forbidden[-1][1] = value
            else:
                forbidden.append([value, value])
    pattern = "[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in forbidden) + "]"
    return by_category, re.compile(pattern)


BY_CATEGORY, HIDDEN = unicode_tables()
WHITESPACE = [chr(value) for value in range(0x110000) if chr(value).isspace()]


# ---------------------------------------------------------------------------------------------
# Generators: one per class. Each returns one string; ordinary words are mixed in.

def words(rng, low=1, high=3):
    return [rng.choice(WORDS) for _ in range(rng.randint(low, high))]


def insert_at_random(rng, text, fragment):
    at = rng.randint(0, len(text))
    return text[:at] + fragment + text[at:]


def hidden_character(rng):
    pool = rng.choice(["Cc", "Cf", "Co", "Zl/Zp", "ignorable", "bidi", "noncharacter", "tag", "nel", "unassigned"])
    if pool in ("Cc", "Cf"):
        return chr(rng.choice(BY_CATEGORY[pool]))
    if pool == "Co":
        low, high = rng.choice(PRIVATE_USE)
        return chr(rng.randint(low, high))
    if pool == "Zl/Zp":
        return rng.choice(["\u2028", "\u2029"])
    if pool == "ignorable":
        low, high = rng.choice(DEFAULT_IGNORABLE)
        return chr(rng.randint(low, high))
    if pool == "bidi":
        return chr(rng.choice(BIDI))
    if pool == "noncharacter":
        return chr(rng.choice(NONCHARACTERS))
    if pool == "tag":
        return chr(rng.randint(0xE0000, 0xE007F))
    if pool == "nel":
        return rng.choice(["\x85", "\u2028", "\u2029"])
    low, high = rng.choice(SAFE_UNASSIGNED)
    return chr(rng.randint(low, high))


def gen_hidden(rng):
    if rng.random() < 0.1:
        return "".join(hidden_character(rng) for _ in range(rng.randint(1, 3)))  # nothing visible at all
    text = " ".join(words(rng))
    for _ in range(rng.randint(1, 6)):
        text = insert_at_random(rng, text, hidden_character(rng))
    return text


def workflow_v2_command(rng):
    return rng.choice([f"::error::{rng.choice(WORDS)}", f"::warning file=a.swift,line={rng.randint(1, 99)}::{rng.choice(WORDS)}",
                       f"::stop-commands::tok{rng.randint(0, 999)}", f"::add-mask::{rng.choice(WORDS)}",
                       f"::notice title=t::{rng.choice(WORDS)}", "::debug::d", "::group::g", "::endgroup::"])


def gen_workflow_v2(rng):
    parts = []
    for _ in range(rng.randint(1, 3)):
        prefix = "".join(rng.choice(WHITESPACE) for _ in range(rng.randint(0, 3)))
        parts.append((prefix, workflow_v2_command(rng)))
    text = ""
    for index, (prefix, command) in enumerate(parts):
        if index == 0 and rng.random() < 0.3:
            text = prefix + command  # at the very start
        else:
            text += " ".join(words(rng, 0, 2)) + rng.choice(["\n", "\r", "\r\n", "\x85", "\u2028"]) + prefix + command
    if rng.random() < 0.5:
        text += " " + " ".join(words(rng))
    return text


def gen_workflow_v1(rng):
    text = " ".join(words(rng, 0, 3))
    for _ in range(rng.randint(1, 3)):
        command = rng.choice([f"##[error]{rng.choice(WORDS)}", f"##[stop-commands]tok{rng.randint(0, 99)}",
                              f"##[set-output name=a;]{rng.choice(WORDS)}", "##[group]g", "##[endgroup]", "##[warning]w",
                              "##[add-mask]m", "##[section]s", "##[command]c"])
        text = insert_at_random(rng, text, command)
    return text


def gen_line_breaks(rng):
    text = " ".join(words(rng, 1, 4))
    for _ in range(rng.randint(1, 3)):
        tail = rng.choice(["::error::", "::error::x", "::warning::w", "::error file=f::e", "", " ::error::indented"])
        text = insert_at_random(rng, text, rng.choice(LINE_BREAKS + ["\r\r", "\n\n", "\x0b", "\x0c"]) + tail)
    return text


MARKUP = ['%%{init: {"theme":"dark"}}%%', "%% comment", "%%", "'", '"', "`", "``", "```", "````", "|", "||", "<img src=x>",
          "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "<b>", "</td>", "</script>", "<!--", "-->", "[l](u)",
          "![i](u)", "[l]: http://x", "**b**", "*e*", "_e_", "__u__", "~~s~~", "~s~", "$m$", "$$m$$", ":smile:", "&amp;",
          "&#10;", "&lt;", "&#x3C;", "www.x.com", "https://x", "http://x.com/a_b", "@user", "#1", "\\", "\\|", "{", "}",
          "[", "]", "<", ">", "- [ ] task", "<details>", "<br>", "\\`", "<https://x>", "a@b.com"]
MARKUP_LEADING = ["#", "# ", "## ", "-", "- ", "+ ", "1. ", "> ", "```", "~~~", "    ", "|", "=", "---", "***", "<", "%%"]


def gen_markup(rng):
    text = " ".join(words(rng, 0, 3))
    for _ in range(rng.randint(1, 4)):
        text = insert_at_random(rng, text, rng.choice(MARKUP))
    if rng.random() < 0.4:
        text = rng.choice(MARKUP_LEADING) + text
    if rng.random() < 0.15:
        text = "```" + rng.choice(["", "mermaid", "js"]) + "\n" + text + "\n```"
    if rng.random() < 0.1:
        text = "`" * rng.randint(1, 5) + text + "`" * rng.randint(0, 5)
    return text


def gen_csv_formula(rng):
    word = rng.choice(WORDS)
    formula = rng.choice(['=HYPERLINK("http://x")', "=1+1", "+1+1", "-2+3", "@SUM(A1)", "=cmd|' /C calc'!A0", '=IMPORTXML("x")',
                          "+cmd", "-cmd", "@cmd", "=" + word, "\t=1", "\r=1", "=-1", "-", "+", "=", "@", "-1e3x"])
    lead = rng.choice(["", "", "", "\t", "\r", " ", '"', ","])
    text = lead + formula
    if rng.random() < 0.5:
        text += rng.choice([",", '"', '","', ";", " "]) + " ".join(words(rng, 0, 2))
    if rng.random() < 0.2:
        text = " ".join(words(rng)) + rng.choice([",", '"']) + text
    return text


def label_variants():
    variants = []
    for label in LABELS:
        for form in (label, f'"{label}"', f'""{label}""', f"'{label}'", f" {label}", f"{label} ", f"{label}\t", f'\\"{label}\\"',
                     f'"{label}', f'{label}"', label.upper(), f"({label})", f"{label} (2)"):
            if form not in variants:
                variants.append(form)
    return variants


LABEL_VARIANTS = label_variants()


def gen_labels(rng):
    return rng.choice(LABEL_VARIANTS)


def gen_long(rng, length=None):
    """A long name of hostile fragments from every class and words, cut to `length` characters."""
    length = length or int(math.exp(rng.uniform(math.log(10_000), math.log(300_000))))
    pieces, size = [], 0
    makers = [gen_hidden, gen_workflow_v2, gen_workflow_v1, gen_line_breaks, gen_markup, gen_csv_formula, gen_labels]
    while size < length:
        piece = rng.choice(makers)(rng) + " " + " ".join(words(rng))
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces)[:length]


CLASSES = [
    ("hidden characters", gen_hidden),
    ("workflow commands v2", gen_workflow_v2),
    ("workflow commands v1", gen_workflow_v1),
    ("line breaks", gen_line_breaks),
    ("markdown/html/mermaid", gen_markup),
    ("csv formulas", gen_csv_formula),
    ("framescope labels", gen_labels),
    ("long names", gen_long),
]


def draw_batch(rng, generator, count, first=()):
    """`count` distinct strings from `generator` (fewer if it cannot make more), `first` among them."""
    batch, seen = [], set(RESERVED) | set(ORDINARY)
    for text in first:
        if text not in seen and len(batch) < count:
            batch.append(text)
            seen.add(text)
    tries = 0
    while len(batch) < count and tries < count * 20:
        tries += 1
        text = generator(rng)
        if text not in seen:
            batch.append(text)
            seen.add(text)
    return batch


def file_name(text, index):
    """A file name carrying `text`: no '/' or NUL (no file system allows them), at most 240 bytes."""
    name = text.replace("/", "\u2215").replace("\x00", "\u2400")
    if name in ("", ".", ".."):
        name = f"{name}({index})"
    encoded = name.encode("utf-8")[:235]
    name = encoded.decode("utf-8", errors="ignore")
    return name + ".json"
