#!/usr/bin/env python3
"""Runs framescope's GitHub Action (action.yml) the way the Actions runner runs it, and checks it.

    python3 tools/check_action.py --framescope PATH   # CI: a built framescope stands in for the build
    python3 tools/check_action.py --build             # the real release build (minutes), then the same

Reads action.yml and, for each of its composite steps, does what the runner does: evaluates the
step's `if:` and every `${{ }}` (inputs, steps' outputs, github.action_path, github.workspace,
runner.os/arch/temp, env; string literals, ==, !=, !, && and ||, success()/failure()/always()/
cancelled()) and refuses, as an error of the harness, any expression outside that subset; gives
each run step fresh GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH, GITHUB_STATE and
GITHUB_STEP_SUMMARY files and the runner's variables (GITHUB_WORKSPACE, GITHUB_ACTION_PATH,
RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, CI), runs it with `bash --noprofile --norc -eo pipefail
FILE` in the workspace, and reads the files back as the runner does (name=value and
name<<DELIMITER); skips a step after a failed one unless its `if:` says otherwise; simulates
actions/cache (restore, save, and the combined action with its save after a successful job) with a
directory of entries keyed by the evaluated key and path; and evaluates the action's outputs.
Like the runner, it sets no INPUT_* variables for a composite action's run steps
(actions/runner#665): the action must pass its inputs through `env:`.

Every line a step prints, on stdout and stderr, is read as the runner reads it (split at CR and
LF; a `::` command after leading whitespace of any kind; the older `##[` form anywhere): the only
workflow commands allowed are framescope's own annotations (`::error|warning|notice
title=framescope check%3A ...::`) and the action's fixed ones (`title=framescope action`).

Scenarios, each a fresh job (workspace and RUNNER_TEMP wiped; the cache kept, as GitHub keeps it):
a failing budget (the first run builds and saves the binary), the same again (restored from the
cache: no build), a passing budget, a missing trace, hostile names (the hostile-names corpus
under file names holding a line break, a workflow command, ESC and a bidi override, and an input
holding `$(...)`), check and compare with base traces, compare alone, a bad input, a
framescope-ref fetched with git, and every workflow in README.md and the Continuous Integration
article that uses `OWNER/framescope@...`: its framescope step, run as written, with OWNER mapped
to this checkout.

With --framescope PATH, a stand-in `swift` on PATH answers `swift build` by copying PATH to where
SwiftPM would put the binary (`swift build --show-bin-path` and `swift --version` are the real
ones): the action's whole build path runs — cache miss, build step, save, then a hit — without
the minutes a release build costs. --build builds for real instead.

What this cannot check: it is not GitHub's runner. actions/cache is a directory here, not the
cache service; the runner's other contexts and functions, containers, Windows and macOS runners,
the annotation and summary rendering on github.com, and the action's download from a tag are
not exercised.

Exit status: 0 when every check holds, 1 when one does not, 2 when the harness could not run.
"""
import argparse
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from fstools import hostile
from fstools.common import ROOT
from fstools.hostile import CONTROL_NAME, ODD_NAME, runner_lines
from fstools.actions_runner import (
    Cache, Context, Expression, HarnessError, Job, as_input_string, checks, interpolate, load_yaml, parse_v2, run_action,
    yaml,
)


PLACEHOLDER = re.compile(r"^OWNER/framescope@[A-Za-z0-9._/-]+$")
FRAMESCOPE_ANNOTATION = re.compile(r"^::(error|warning|notice) title=framescope( (check|compare)%3A [^:\r\n]*)?::[^\r\n]*$")
ACTION_ANNOTATION = re.compile(r"^::(error|warning) title=framescope action::[A-Za-z0-9 ,.;:()'/_+-]*$")
# Every line the run step may print on stdout besides annotations: fixed text and numbers only.
RUN_STEP_LINES = [
    re.compile(r"^framescope (check|compare): exit [0-9]+; ([0-9]+ of [0-9]+ (rules failed|metrics regressed)|no report \(see the error above\))$"),
    re.compile(r"^framescope: verdict (pass|fail|error), [0-9]+ broken rules, exit [0-9]+$"),
]
FIXTURES = os.path.join(ROOT, "Tests", "FramescopeCLITests", "Fixtures", "hostile")

expect = checks.expect
failures = checks.failures


def shown(text, limit=2000):
    """Captured output for this harness's own log: escaped, so nothing in it is a workflow command."""
    return "\n".join("      | " + ascii(line)[1:-1] for line in text[:limit].split("\n"))


def check_expressions():
    """The evaluator against GitHub's documented semantics, and its refusals."""
    class Stub:
        def status(self, name):
            return name != "failure" and name != "cancelled"

        def lookup(self, path, text, written):
            values = {("inputs", "empty"): "", ("inputs", "name"): "Frames", ("steps", "build", "outputs", "built"): "true"}
            if tuple(path) in values:
                return values[tuple(path)]
            raise HarnessError(f"the harness does not provide {'.'.join(path)}")

    cases = [("'TRUE' == 'true'", True), ("inputs.name == 'frames'", True), ("inputs.empty || 'default'", "default"),
             ("inputs.name || 'default'", "Frames"), ("inputs.empty && 'x'", ""), ("!inputs.empty", True), ("1 == '1'", True),
             ("'' == 0", True), ("steps.build.outputs.built != 'true'", False), ("'it''s'", "it's"), ("null == ''", True),
             ("(inputs.empty || inputs.name) == 'FRAMES'", True), ("always() && !cancelled()", True)]
    for text, wanted in cases:
        got = Expression(text, Stub()).evaluate()
        expect(got == wanted and type(got) is type(wanted), f"expression {text!r} is {got!r}, GitHub gives {wanted!r}")
    for text in ("github.action_ref", "format('{0}', inputs.name)", "inputs.name[0]", "inputs.*", "1 < 2", "hashFiles('x')"):
        try:
            Expression(text, Stub()).evaluate()
            expect(False, f"expression {text!r}: evaluated, but the harness should refuse it")
        except HarnessError:
            pass
    expect(interpolate("a-${{ inputs.name }}-${{ steps.build.outputs.built }}", Stub()) == "a-Frames-true", "interpolation of two expressions")
def check_log(stdout, stderr, what, hostile_text=False):
    """Every line the runner would read: only the allowed workflow commands; none of the older form."""
    commands = []
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        for line in runner_lines(text):
            expect("##[" not in line, f"{what}: {stream} has the runner's older command form ##[: {ascii(line[:120])}")
            if hostile_text:
                bad = [c for c in line if hostile.forbidden(c) and c != "\t"]
                expect(not bad, f"{what}: {stream} line holds control or bidi characters: {ascii(line[:120])}")
            if not line.lstrip().startswith("::"):
                continue
            allowed = stream == "stdout" and (FRAMESCOPE_ANNOTATION.match(line) or ACTION_ANNOTATION.match(line))
            expect(allowed, f"{what}: {stream} has a workflow command the action did not intend: {ascii(line[:160])}")
            parsed = parse_v2(line)
            if parsed:
                commands.append(parsed)
                expect(parsed[0] in ("error", "warning", "notice"), f"{what}: the runner would run ::{parsed[0]}")
                for value in [parsed[2]] + list(parsed[1].values()):
                    bad = [c for c in value if hostile.forbidden(c)]
                    expect(not bad, f"{what}: an annotation shows control or bidi characters: {ascii(value[:120])}")
    return commands

# --- Setting up --------------------------------------------------------------------------------

def copy_action(scratch):
    """The action as the runner downloads it for `uses: OWNER/framescope@v1`: this checkout's files, no build products."""
    destination = os.path.join(scratch, "runner", "work", "_actions", "OWNER", "framescope", "v1")
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True)
    if listed.returncode != 0:
        raise HarnessError("git ls-files failed: the harness copies the action from a git checkout")
    for relative in listed.stdout.decode("utf-8").split("\0"):
        source = os.path.join(ROOT, relative)
        if not relative or not os.path.isfile(source):
            continue
        target = os.path.join(destination, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
    return destination


STAND_IN_SWIFT = r"""#!/usr/bin/env bash
# tools/check_action.py's stand-in for swift: `swift build` copies a prebuilt framescope to where
# the real build would put it (asked of the real swift with --show-bin-path) and logs the call;
# everything else is the real swift.
set -euo pipefail
if [ "${1:-}" = build ]; then
    for argument in "$@"; do
        if [ "$argument" = --show-bin-path ]; then exec "$CHECK_ACTION_REAL_SWIFT" "$@"; fi
    done
    printf '%s\n' "$*" >>"$CHECK_ACTION_BUILD_LOG"
    bin=$("$CHECK_ACTION_REAL_SWIFT" "$@" --show-bin-path)
    mkdir -p "$bin"
    cp "$CHECK_ACTION_PREBUILT" "$bin/framescope"
    echo "stand-in swift build: copied the prebuilt framescope"
    exit 0
fi
exec "$CHECK_ACTION_REAL_SWIFT" "$@"
"""


def stand_in_swift(scratch, prebuilt, build_log):
    real = shutil.which("swift")
    if not real:
        raise HarnessError("swift is not on PATH")
    tools = os.path.join(scratch, "stand-in-bin")
    os.makedirs(tools, exist_ok=True)
    path = os.path.join(tools, "swift")
    with open(path, "w") as file:
        file.write(STAND_IN_SWIFT)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    os.environ["CHECK_ACTION_REAL_SWIFT"] = real
    os.environ["CHECK_ACTION_PREBUILT"] = os.path.abspath(prebuilt)
    os.environ["CHECK_ACTION_BUILD_LOG"] = build_log
    return tools


def stage(workspace, relative, source):
    target = os.path.join(workspace, relative)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copy2(source, target)
    return target


SAMPLE_PASS = os.path.join(ROOT, "Traces", "diffable-update--snapshot-diff.json")
SAMPLE_FAIL = os.path.join(ROOT, "Traces", "diffable-update--reload.json")
STRICT_BUDGET = os.path.join(ROOT, "Traces", "budgets", "feed-60fps.json")
CI_BUDGET = os.path.join(ROOT, "Traces", "budgets", "ci-example.json")


# --- Assertions --------------------------------------------------------------------------------

def verdict_for(status):
    return {0: "pass", 1: "fail"}.get(status, "error")


def check_run(run, what, status, verdict=None, broken=None, failed_rules=None, regressions=None, hostile_text=False):
    """The run step's exit status, the action's outputs, the log's workflow commands and the summary."""
    step = run.step("run")
    if not expect(step is not None and step.outcome != "skipped", f"{what}: the run step did not run"):
        for record in run.steps:
            print(f"      step {record.id}: {record.outcome} (exit {record.returncode})")
            print(shown(record.stdout + record.stderr))
        return None
    outputs = run.outputs
    ok = expect(step.returncode == status, f"{what}: the run step exited {step.returncode}, expected {status}")
    expect(run.failed == (status != 0), f"{what}: the action {'failed' if run.failed else 'succeeded'}, expected it to "
           f"{'fail' if status else 'succeed'}")
    expect(outputs.get("exit-code") == str(status), f"{what}: exit-code output {outputs.get('exit-code')!r}")
    expect(outputs.get("verdict") == (verdict or verdict_for(status)), f"{what}: verdict {outputs.get('verdict')!r}, expected {verdict or verdict_for(status)!r}")
    if broken is not None:
        ok &= expect(outputs.get("broken-rules") == str(broken), f"{what}: broken-rules {outputs.get('broken-rules')!r}, expected {broken}")
    if failed_rules is not None:
        expect(outputs.get("failed-rules") == str(failed_rules), f"{what}: failed-rules {outputs.get('failed-rules')!r}, expected {failed_rules}")
    if regressions is not None:
        expect(outputs.get("regressions") == str(regressions), f"{what}: regressions {outputs.get('regressions')!r}, expected {regressions}")
    commands = check_log(run.stdout, run.stderr, what, hostile_text=hostile_text)
    # The script passes on framescope's annotations and prints fixed text and numbers, nothing
    # else: no name, path or input it was given. framescope's own stderr lines say what failed.
    for line in runner_lines(step.stdout):
        if line and not (FRAMESCOPE_ANNOTATION.match(line) or ACTION_ANNOTATION.match(line) or any(p.match(line) for p in RUN_STEP_LINES)):
            ok = expect(False, f"{what}: the run step printed a line that is neither an annotation nor its fixed text: {ascii(line[:120])}")
    for line in runner_lines(step.stderr):
        if line:
            expect(re.match(r"^(error|warning): ", line), f"{what}: a stderr line that is not framescope's error or warning: {ascii(line[:120])}")
    if not ok:
        print(shown(step.stdout + step.stderr))
    return commands


def read_json(path, what):
    if not expect(path and os.path.isfile(path), f"{what}: no JSON report at {path!r}"):
        return None
    try:
        return json.load(open(path, encoding="utf-8"))
    except ValueError as error:
        expect(False, f"{what}: the JSON report does not parse: {error}")
        return None


def read_junit(path, what):
    if not expect(path and os.path.isfile(path), f"{what}: no JUnit file at {path!r}"):
        return None
    try:
        return ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        expect(False, f"{what}: the JUnit file is not XML: {error}")
        return None


def clean_markdown(markdown, what):
    for problem in hostile.markdown_problems(markdown, what):
        expect(False, problem)


# --- Scenarios ---------------------------------------------------------------------------------

def scenario(title):
    print(f"  {title}")


def workflow_blocks(path):
    """Every ```yaml block of a document that uses OWNER/framescope@..., with the heading it is under."""
    text = open(path, encoding="utf-8").read()
    blocks = []
    for match in re.finditer(r"^```yaml\n(.*?)^```", text, re.S | re.M):
        body = match.group(1)
        if re.search(r"uses:\s*OWNER/framescope@", body):
            blocks.append(body)
    return blocks


def stage_pattern(workspace, pattern, source, copies=2):
    """Files that the glob `pattern` matches, copies of `source`, named after it."""
    base = os.path.splitext(os.path.basename(source))[0]
    made = []
    for index in range(1, copies + 1):
        relative = pattern.replace("**/", "").replace("*", f"{base}-{index}").replace("?", "x")
        made.append(stage(workspace, relative, source))
        if "*" not in pattern and "?" not in pattern:
            break
    matched = glob.glob(os.path.join(workspace, pattern), recursive=True)
    expect(sorted(matched) == sorted(made), f"staging {pattern!r}: the glob matches {len(matched)} files, staged {len(made)}")


def run_documented_workflow(document, action_path, scratch, cache, tools):
    blocks = workflow_blocks(document)
    name = os.path.relpath(document, ROOT)
    if not expect(blocks, f"{name}: no ```yaml workflow that uses OWNER/framescope@"):
        return
    for number, block in enumerate(blocks, 1):
        scenario(f"{name}, workflow {number}: its framescope step, as written")
        try:
            workflow = load_yaml(block)
        except yaml.YAMLError as error:
            expect(False, f"{name}, workflow {number}: not YAML, as GitHub would refuse it: {ascii(str(error))}")
            continue
        steps = [(job_name, step) for job_name, job in (workflow.get("jobs") or {}).items() for step in job.get("steps", [])
                 if isinstance(step.get("uses"), str) and step["uses"].startswith("OWNER/")]
        if not expect(len(steps) == 1, f"{name}: {len(steps)} steps use OWNER/..., expected one"):
            continue
        _, step = steps[0]
        expect(PLACEHOLDER.match(step["uses"]), f"{name}: uses {step['uses']!r} is not OWNER/framescope@REF")
        job = Job(scratch, cache, tools)
        context = Context(job, {}, action_path, {}, set(), set())
        values = {key: interpolate(value, context) for key, value in (step.get("with") or {}).items()}
        # What the workflow's earlier steps leave in the workspace: traces where its globs look
        # (the base like the head, so compare finds nothing) and a budget where it names one.
        for pattern in values.get("traces", "").split():
            stage_pattern(job.workspace, pattern, SAMPLE_PASS)
        for pattern in values.get("base", "").split():
            stage_pattern(job.workspace, pattern, SAMPLE_PASS)
        if values.get("budget"):
            stage(job.workspace, values["budget"], CI_BUDGET)
        run = run_action(action_path, values, job, step_env={k: as_input_string(v) for k, v in (step.get("env") or {}).items()})
        job.finish()
        check_run(run, f"{name} workflow {number}", 0, broken=0)
        expect("framescope check" in run.summary or "framescope compare" in run.summary,
               f"{name} workflow {number}: the step summary has no framescope report")
        # Every output a later step of the workflow reads is one the action declares.
        action = load_yaml(open(os.path.join(action_path, "action.yml"), encoding="utf-8").read())
        if step.get("id"):
            for output in re.findall(r"steps\." + re.escape(str(step["id"])) + r"\.outputs\.([A-Za-z0-9_-]+)", block):
                expect(output in (action.get("outputs") or {}), f"{name}: the workflow reads output {output}, which action.yml does not declare")
        for key in ("junit",):
            if values.get(key):
                expect(os.path.isfile(os.path.join(job.workspace, values[key])), f"{name}: no JUnit file at {values[key]}")


class Harness:
    """What every scenario runs in: the scratch folder, the action's copy, the cache, the stand-in tools."""

    def __init__(self, scratch, action_path, cache, tools, build_log):
        self.scratch, self.action_path, self.cache, self.tools, self.build_log = scratch, action_path, cache, tools, build_log

    def builds(self):
        """How many times the stand-in swift built (None for a real build)."""
        return open(self.build_log).read().count("\n") if self.tools else None

    def fresh_job(self):
        return Job(self.scratch, self.cache, self.tools)


def scenario_failing_budget(h):
    """A failing budget, first run: a cache miss; the binary is built, saved, and run."""
    scenario("a failing budget, first run: cache miss, build, save; the step fails with framescope's exit 1")
    job = h.fresh_job()
    stage(job.workspace, "traces/diffable-update--reload.json", SAMPLE_FAIL)
    stage(job.workspace, "budget.json", STRICT_BUDGET)
    inputs = {"traces": "traces/*.json", "budget": "budget.json", "junit": "out/framescope.xml"}
    run = run_action(h.action_path, inputs, job)
    job.finish()
    commands = check_run(run, "failing budget", 1, broken=10, failed_rules=10, regressions=0)
    expect(run.step("build").outputs.get("built") == "true", "failing budget: the first run did not build")
    expect(run.outputs.get("cache-hit") != "true", "failing budget: the first run was a cache hit")
    expect(run.step("save").outcome == "success", "failing budget: the save step did not run")
    expect(("saved", run.step("cache").outputs.get("cache-primary-key")) in h.cache.events, f"failing budget: nothing saved: {h.cache.events}")
    if h.tools:
        expect(h.builds() == 1, f"failing budget: {h.builds()} swift builds, expected 1")
    key = run.step("cache").outputs.get("cache-primary-key", "")
    swift_number = re.search(r"Swift version ([0-9.]+)", subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout + "")
    expect(key.startswith("framescope-tree-") and f"-{job.runner_os}-{job.runner_arch}-swift-" in key
           and (swift_number is None or f"-swift-{swift_number.group(1)}-" in key),
           f"failing budget: cache key {key!r} is not revision, runner.os, runner.arch and the Swift version")
    if commands is not None:
        errors = [c for c in commands if c[0] == "error"]
        expect(len(errors) == 10, f"failing budget: {len(errors)} ::error annotations, expected 10 (framescope's limit)")
        expect(all(c[1].get("title", "").startswith("framescope check: ") for c in errors), "failing budget: an ::error not titled framescope check")
    report = read_json(run.outputs.get("check-json"), "failing budget")
    if report:
        expect(report["counts"]["failed"] == 10 and report["schema"] == "framescope.check", "failing budget: the JSON report's counts")
    junit = read_junit(os.path.join(job.workspace, "out/framescope.xml"), "failing budget")
    if junit is not None:
        expect(len(list(junit.iter("failure"))) == 10, "failing budget: JUnit has not 10 failures")
    expect(run.outputs.get("check-junit") == "out/framescope.xml", f"failing budget: check-junit {run.outputs.get('check-junit')!r}")
    expect("FAIL" in run.summary and "10 of 12" in run.summary, "failing budget: the step summary does not say FAIL, 10 of 12")
    expect(run.outputs.get("summary") and open(run.outputs["summary"], encoding="utf-8").read() == run.summary,
           "failing budget: the summary output is not what the step summary got")
    clean_markdown(run.summary, "failing budget summary")
    return inputs


def scenario_cached_build(h, inputs):
    """The same again: restored from the cache, no build."""
    scenario("the same failing budget, second run: the binary comes from the cache, no build")
    job = h.fresh_job()
    stage(job.workspace, "traces/diffable-update--reload.json", SAMPLE_FAIL)
    stage(job.workspace, "budget.json", STRICT_BUDGET)
    run = run_action(h.action_path, inputs, job)
    job.finish()
    check_run(run, "failing budget again", 1, broken=10, failed_rules=10)
    expect(run.outputs.get("cache-hit") == "true", f"failing budget again: cache-hit {run.outputs.get('cache-hit')!r}")
    expect(run.step("build").outputs.get("built") == "false", "failing budget again: the build step built")
    expect(run.step("save").outcome == "skipped", "failing budget again: the save step ran")
    if h.tools:
        expect(h.builds() == 1, f"failing budget again: {h.builds()} swift builds in all, expected still 1")


def scenario_passing_budget(h):
    """A passing budget."""
    scenario("a passing budget: verdict pass, the step succeeds")
    job = h.fresh_job()
    stage(job.workspace, "traces/diffable-update--snapshot-diff.json", SAMPLE_PASS)
    stage(job.workspace, "budget.json", STRICT_BUDGET)
    run = run_action(h.action_path, {"traces": "traces/*.json", "budget": "budget.json"}, job)
    job.finish()
    commands = check_run(run, "passing budget", 0, broken=0, failed_rules=0, regressions=0)
    if commands is not None:
        expect(not [c for c in commands if c[0] == "error"], "passing budget: an ::error annotation")
    expect("0 of 12" in run.summary, "passing budget: the summary does not say 0 of 12")
    expect(run.outputs.get("check-junit") == "" and run.outputs.get("compare-json") == "", "passing budget: report outputs that were not written")


def scenario_missing_trace(h):
    """A missing trace: exit 3, the other trace still checked."""
    scenario("a missing trace: verdict error, exit 3, the readable trace still checked")
    job = h.fresh_job()
    stage(job.workspace, "traces/diffable-update--snapshot-diff.json", SAMPLE_PASS)
    stage(job.workspace, "budget.json", STRICT_BUDGET)
    run = run_action(h.action_path, {"traces": "traces/*.json\nmissing/*.json", "budget": "budget.json", "junit": "check.xml"}, job)
    job.finish()
    commands = check_run(run, "missing trace", 3, broken=0)
    if commands is not None:
        expect(any(c[0] == "error" and "no such file" in c[2] for c in commands), "missing trace: no ::error for the missing file")
    expect("no such file" in run.stderr, "missing trace: framescope's error line is not in the log")
    junit = read_junit(os.path.join(job.workspace, "check.xml"), "missing trace")
    if junit is not None:
        expect(len(list(junit.iter("error"))) == 1, "missing trace: JUnit has not one <error>")


def scenario_hostile_names(h):
    """Hostile names: in traces, categories, threads, file names; and an input holding $(...)."""
    scenario("hostile names in traces and file names, check and compare: no forged command, every output escaped")
    job = h.fresh_job()
    for name in ("hostile-names.json", CONTROL_NAME, ODD_NAME):
        stage(job.workspace, os.path.join("head", name), os.path.join(FIXTURES, "hostile-names-head.json"))
        stage(job.workspace, os.path.join("base", name), os.path.join(FIXTURES, "hostile-names.json"))
    stage(job.workspace, "budget.json", os.path.join(FIXTURES, "hostile-budget.json"))
    junit_input = "out/$(touch pwned) `touch pwned2`.xml"
    run = run_action(h.action_path, {"traces": "head/*.json", "base": "base/*.json", "budget": "budget.json", "junit": junit_input}, job)
    job.finish()
    status = run.step("run").returncode if run.step("run") else -1
    expect(status in (1, 3), f"hostile: exit {status}, expected framescope's 1 or 3")
    commands = check_run(run, "hostile", status, hostile_text=True)
    expect(not os.path.exists(os.path.join(job.workspace, "pwned")) and not os.path.exists(os.path.join(job.workspace, "pwned2")),
           "hostile: an input ran as a command")
    expect(os.path.isfile(os.path.join(job.workspace, junit_input)), "hostile: no JUnit file at the literal path given")
    compare_junit = os.path.join(job.workspace, junit_input[:-4] + "-compare.xml")
    expect(os.path.isfile(compare_junit), "hostile: no compare JUnit file beside check's")
    for path in (os.path.join(job.workspace, junit_input), compare_junit):
        read_junit(path, "hostile")
    expect("framescope check" in run.summary and "framescope compare" in run.summary, "hostile: the summary lacks a report")
    clean_markdown(run.summary, "hostile summary")
    if commands is not None:
        expect(len(commands) >= 2, "hostile: no annotations")
    for output in ("check-json", "compare-json"):
        read_json(run.outputs.get(output), f"hostile {output}")
    expect(run.outputs.get("broken-rules") == str(int(run.outputs.get("failed-rules", "x") or 0) + int(run.outputs.get("regressions", "x") or 0)),
           "hostile: broken-rules is not failed-rules + regressions")


def scenario_check_and_compare(h):
    """check and compare with base traces."""
    scenario("check and compare with base traces: failed rules and regressions add up; two JUnit files")
    job = h.fresh_job()
    stage(job.workspace, "traces/head/diffable-update--reload.json", SAMPLE_FAIL)
    stage(job.workspace, "traces/base/diffable-update--snapshot-diff.json", SAMPLE_PASS)
    stage(job.workspace, "ci/frame-budget.json", CI_BUDGET)
    run = run_action(h.action_path, {"traces": "traces/head/*.json", "base": "traces/base/*.json", "budget": "ci/frame-budget.json",
                                   "junit": "frames.xml"}, job)
    job.finish()
    check_report = json.load(open(run.outputs["check-json"])) if run.outputs.get("check-json") else None
    expected_failed = check_report["counts"]["failed"] if check_report else -1
    check_run(run, "check and compare", 1, broken=expected_failed + 3, failed_rules=expected_failed, regressions=3)
    expect(expected_failed > 0, "check and compare: the check found no failed rule")
    compare_report = read_json(run.outputs.get("compare-json"), "check and compare")
    if compare_report:
        expect(sum(m["verdict"] == "regression" for m in compare_report["metrics"]) == 3, "check and compare: the JSON has not 3 regressions")
    expect(run.outputs.get("check-junit") == "frames.xml" and run.outputs.get("compare-junit") == "frames-compare.xml",
           f"check and compare: JUnit outputs {run.outputs.get('check-junit')!r}, {run.outputs.get('compare-junit')!r}")
    for path in ("frames.xml", "frames-compare.xml"):
        read_junit(os.path.join(job.workspace, path), "check and compare")


def scenario_compare_alone(h):
    """compare alone, the same runs on both sides."""
    scenario("compare alone, base equal to head: pass, no regression")
    job = h.fresh_job()
    stage(job.workspace, "base/run.json", SAMPLE_PASS)
    stage(job.workspace, "head/run.json", SAMPLE_PASS)
    run = run_action(h.action_path, {"traces": "head/run.json", "base": "base/run.json"}, job)
    job.finish()
    check_run(run, "compare alone", 0, broken=0, regressions=0)
    expect(run.outputs.get("check-json") == "" and run.outputs.get("compare-json"), "compare alone: check ran, or compare wrote no JSON")


def scenario_bad_input(h):
    """A bad input: the action's own usage error."""
    scenario("a bad input (annotations: maybe): exit 2, verdict error, the action's own ::error")
    job = h.fresh_job()
    stage(job.workspace, "t.json", SAMPLE_PASS)
    run = run_action(h.action_path, {"traces": "t.json", "budget": "t.json", "annotations": "maybe"}, job)
    job.finish()
    commands = check_run(run, "bad input", 2, broken=0)
    if commands is not None:
        expect([c[1].get("title") for c in commands] == ["framescope action"], f"bad input: annotations {commands}")


def scenario_framescope_ref(h):
    """framescope-ref: a revision fetched with git, cached under its commit."""
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if re.fullmatch(r"[0-9a-f]{40}", head):
        scenario("framescope-ref HEAD of this checkout: resolved with git ls-remote, fetched, keyed by the commit")
        job = h.fresh_job()
        stage(job.workspace, "t.json", SAMPLE_PASS)
        stage(job.workspace, "budget.json", STRICT_BUDGET)
        run = run_action(h.action_path, {"traces": "t.json", "budget": "budget.json", "framescope-ref": "HEAD", "framescope-repository": ROOT}, job)
        job.finish()
        check_run(run, "framescope-ref", 0, broken=0)
        expect(run.step("setup").outputs.get("revision") == head, f"framescope-ref: revision {run.step('setup').outputs.get('revision')!r}, expected {head}")
        expect(f"framescope-{head}-" in run.step("cache").outputs.get("cache-primary-key", ""), "framescope-ref: the cache key does not name the commit")
        expect(run.step("build").outputs.get("built") == "true", "framescope-ref: a new revision was not built")
        expect(os.path.isfile(os.path.join(job.temp, "framescope-action", f"source-{head}", "Package.swift")), "framescope-ref: the revision was not fetched")
    else:
        print("    SKIPPED: not a git checkout with a commit")


def scenario_documented_workflows(h):
    """The workflows the documentation shows."""
    for document in (os.path.join(ROOT, "README.md"), os.path.join(ROOT, "Sources", "FrameScope", "FrameScope.docc", "ContinuousIntegration.md")):
        run_documented_workflow(document, h.action_path, h.scratch, h.cache, h.tools)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--framescope", help="a built framescope: a stand-in swift build copies it instead of building")
    parser.add_argument("--build", action="store_true", help="build framescope for real (a release build: minutes)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    arguments = parser.parse_args()
    if bool(arguments.framescope) == arguments.build:
        parser.error("give --framescope PATH (a built framescope) or --build")
    if arguments.framescope and not os.access(arguments.framescope, os.X_OK):
        parser.error(f"--framescope {arguments.framescope}: not an executable file")

    check_expressions()
    for script in ("tools/action/run.sh",):
        syntax = subprocess.run(["bash", "-n", os.path.join(ROOT, script)], capture_output=True, text=True)
        expect(syntax.returncode == 0, f"bash -n {script}: {syntax.stderr.strip()}")

    scratch = tempfile.mkdtemp(prefix="check-action-")
    try:
        action_path = copy_action(scratch)
        cache = Cache(os.path.join(scratch, "cache"))
        build_log = os.path.join(scratch, "builds.log")
        open(build_log, "w").close()
        tools = stand_in_swift(scratch, arguments.framescope, build_log) if arguments.framescope else None

        h = Harness(scratch, action_path, cache, tools, build_log)

        print(f"framescope's GitHub Action, run as the runner runs it ({'stand-in build of ' + arguments.framescope if tools else 'real release build'})")

        inputs = scenario_failing_budget(h)
        scenario_cached_build(h, inputs)
        scenario_passing_budget(h)
        scenario_missing_trace(h)
        scenario_hostile_names(h)
        scenario_check_and_compare(h)
        scenario_compare_alone(h)
        scenario_bad_input(h)
        scenario_framescope_ref(h)
        scenario_documented_workflows(h)
        if tools:
            print(f"  swift builds in all: {h.builds()} (the first run, and the framescope-ref revision)")
    except HarnessError as error:
        print(f"check_action.py cannot run the action: {error}", file=sys.stderr)
        return 2
    finally:
        if arguments.keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print(f"FAILED: {len(failures)} checks of the GitHub Action do not hold", file=sys.stderr)
        return 1
    print("the GitHub Action: every scenario's exit status, outputs, summary and annotations as expected; no forged workflow command")
    return 0


if __name__ == "__main__":
    sys.exit(main())
