"""The GitHub Actions runner, simulated for check_action.py: YAML as GitHub reads it, the expression
language (the subset action.yml uses, refusing the rest), the runner's files and workflow commands,
actions/cache as a directory, and a composite action's steps run as the runner runs them."""
import hashlib
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import uuid

from .common import Checks

# What the simulated runner itself finds wrong (a cache key actions/cache refuses, an input the
# action does not declare or a required one missing) is a failed check of check_action.py: the
# runner and the scenarios count on this one counter.
checks = Checks(shown=1_000_000, indent="    ")
expect = checks.expect

# The runner's registered workflow commands (a line naming another is printed, not run).
RUNNER_COMMANDS = {"error", "warning", "notice", "debug", "group", "endgroup", "add-mask", "stop-commands", "echo",
                   "set-output", "set-env", "add-path", "save-state", "add-matcher", "remove-matcher", "internal-set-repo-path"}


class HarnessError(Exception):
    """Something the harness cannot do: an expression outside its subset, an unknown action."""


# --- YAML as GitHub reads it ---------------------------------------------------------------

def load_yaml_module():
    try:
        import yaml
        return yaml
    except ImportError:
        pass
    print("PyYAML is missing: installing it with pip")
    for arguments in (["install", "--quiet", "pyyaml"], ["install", "--quiet", "--user", "--break-system-packages", "pyyaml"]):
        if subprocess.run([sys.executable, "-m", "pip"] + arguments).returncode == 0:
            break
    try:
        import yaml
        return yaml
    except ImportError:
        print("could not install or import PyYAML (pip install pyyaml); the action cannot be read", file=sys.stderr)
        sys.exit(2)


yaml = load_yaml_module()


class GitHubLoader(yaml.SafeLoader):
    """YAML 1.2's booleans (true/false only), as the runner reads them: `on`, `yes`, `no` stay strings."""


GitHubLoader.yaml_implicit_resolvers = {
    key: [(tag, regex) for tag, regex in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
GitHubLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load_yaml(text):
    return yaml.load(text, Loader=GitHubLoader)


def as_input_string(value):
    """A `with:` or `env:` value as the runner passes it: always a string."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# --- Expressions -----------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?[0-9]+(?:\.[0-9]+)?)|(?P<op>==|!=|&&|\|\||!|\(|\)|\.)"
                   r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))")
STATUS_FUNCTIONS = {"success", "failure", "always", "cancelled"}


class Expression:
    """The subset of GitHub's expression language the action uses, evaluated as the runner does."""

    def __init__(self, text, context):
        self.text, self.context = text, context
        self.tokens, position = [], 0
        text = text.strip()
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise HarnessError(f"expression {self.text!r}: cannot evaluate from {text[position:]!r}")
            kind = match.lastgroup
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
            while position < len(text) and text[position].isspace():
                position += 1
        self.index = 0

    def evaluate(self):
        value = self.parse_or()
        if self.index != len(self.tokens):
            raise HarnessError(f"expression {self.text!r}: unexpected {self.tokens[self.index][1]!r}")
        return value

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else (None, None)

    def take(self, value=None):
        token = self.peek()
        if token[0] is None or (value is not None and token[1] != value):
            raise HarnessError(f"expression {self.text!r}: expected {value or 'more'}")
        self.index += 1
        return token

    def parse_or(self):
        value = self.parse_and()
        while self.peek() == ("op", "||"):
            self.take()
            right = self.parse_and()
            value = value if truthy(value) else right
        return value

    def parse_and(self):
        value = self.parse_not()
        while self.peek() == ("op", "&&"):
            self.take()
            right = self.parse_not()
            value = right if truthy(value) else value
        return value

    def parse_not(self):
        if self.peek() == ("op", "!"):
            self.take()
            return not truthy(self.parse_not())
        return self.parse_comparison()

    def parse_comparison(self):
        value = self.parse_primary()
        if self.peek() in (("op", "=="), ("op", "!=")):
            operator = self.take()[1]
            right = self.parse_primary()
            equal = loosely_equal(value, right)
            return equal if operator == "==" else not equal
        return value

    def parse_primary(self):
        kind, value = self.take()
        if kind == "op" and value == "(":
            inner = self.parse_or()
            self.take(")")
            return inner
        if kind == "string":
            return value[1:-1].replace("''", "'")
        if kind == "number":
            return float(value)
        if kind != "name":
            raise HarnessError(f"expression {self.text!r}: unexpected {value!r}")
        lowered = value.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        if lowered == "null":
            return None
        if self.peek() == ("op", "("):
            if lowered not in STATUS_FUNCTIONS:
                raise HarnessError(f"expression {self.text!r}: the harness does not evaluate {value}()")
            self.take("(")
            self.take(")")
            return self.context.status(lowered)
        path, written = [lowered], [value]
        while self.peek() == ("op", "."):
            self.take()
            kind, name = self.take()
            if kind != "name":
                raise HarnessError(f"expression {self.text!r}: expected a property name after '.'")
            path.append(name.lower())
            written.append(name)
        return self.context.lookup(path, self.text, written)


def truthy(value):
    if isinstance(value, float):
        return value != 0 and not math.isnan(value)
    return bool(value)


def as_number(value):
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, float):
        return value
    text = value.strip()
    if text == "":
        return 0.0
    try:
        return float(text)
    except ValueError:
        return math.nan


def loosely_equal(left, right):
    """GitHub's ==: strings compared ignoring case; values of different types compared as numbers."""
    if isinstance(left, str) and isinstance(right, str):
        return left.casefold() == right.casefold()
    if type(left) is type(right):
        return left == right
    return as_number(left) == as_number(right)


def as_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return value


def interpolate(text, context):
    """A string with every ${{ expression }} replaced by its value, as text."""
    if not isinstance(text, str):
        return as_input_string(text)
    result, position = [], 0
    while True:
        start = text.find("${{", position)
        if start < 0:
            result.append(text[position:])
            return "".join(result)
        end = text.find("}}", start)
        if end < 0:
            raise HarnessError(f"unterminated expression in {text!r}")
        result.append(text[position:start])
        result.append(as_text(Expression(text[start + 3:end], context).evaluate()))
        position = end + 2


def condition(text, context):
    """A step's `if:`, with success() implied unless it names a status function."""
    if text is None:
        return context.status("success")
    if isinstance(text, bool):
        return text and context.status("success")
    text = text.strip()
    if text.startswith("${{") and text.endswith("}}") and text.count("${{") == 1:
        text = text[3:-2]
    if "${{" in text:
        raise HarnessError(f"if: {text!r}: the harness evaluates one expression per if:")
    value = Expression(text, context).evaluate()
    if not re.search(r"\b(success|failure|always|cancelled)\s*\(", text):
        return context.status("success") and truthy(value)
    return truthy(value)


class Context:
    """The contexts a composite action's expressions read."""

    def __init__(self, job, inputs, action_path, steps, declared_inputs, step_ids, step_env=None):
        self.job, self.inputs, self.action_path, self.steps = job, inputs, action_path, steps
        self.declared_inputs, self.step_ids = declared_inputs, step_ids
        self.step_env = step_env or {}  # the env: of the workflow step that uses the action
        self.failed = False

    def status(self, name):
        return {"success": not self.failed, "failure": self.failed, "always": True, "cancelled": False}[name]

    def lookup(self, path, text, written):
        head = path[0]
        if head == "inputs" and len(path) == 2:
            if path[1] not in self.declared_inputs:
                raise HarnessError(f"expression {text!r}: action.yml declares no input {path[1]}")
            return self.inputs.get(path[1], "")
        if head == "steps" and len(path) == 4 and path[2] in ("outputs",):
            if path[1] not in self.step_ids:
                raise HarnessError(f"expression {text!r}: no step has id {path[1]}")
            return self.steps.get(path[1], {}).get("outputs", {}).get(path[3], "")
        if head == "steps" and len(path) == 3 and path[2] in ("outcome", "conclusion"):
            if path[1] not in self.step_ids:
                raise HarnessError(f"expression {text!r}: no step has id {path[1]}")
            return self.steps.get(path[1], {}).get(path[2], "")
        if head == "github" and len(path) == 2 and path[1] in ("action_path", "workspace"):
            return self.action_path if path[1] == "action_path" else self.job.workspace
        if head == "runner" and len(path) == 2 and path[1] in ("os", "arch", "temp", "tool_cache"):
            return {"os": self.job.runner_os, "arch": self.job.runner_arch, "temp": self.job.temp, "tool_cache": self.job.tool_cache}[path[1]]
        if head == "env" and len(path) == 2:
            # Case-sensitive, as the runner's env context is on Linux and macOS.
            return {**self.job.env, **self.step_env}.get(written[1], "")
        raise HarnessError(f"expression {text!r}: the harness does not provide {'.'.join(path)}")


# --- The runner's files and workflow commands -----------------------------------------------

def read_file_command(path):
    """NAME=VALUE and NAME<<DELIMITER ... DELIMITER lines, as the runner reads GITHUB_OUTPUT and GITHUB_ENV."""
    values = {}
    if not os.path.exists(path):
        return values
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\r")
        index += 1
        if line == "":
            continue
        heredoc = line.find("<<")
        equals = line.find("=")
        if equals >= 0 and (heredoc < 0 or equals < heredoc):
            values[line[:equals]] = line[equals + 1:]
            continue
        if heredoc <= 0:
            raise HarnessError(f"{os.path.basename(path)}: invalid line {line!r}")
        name, delimiter, body = line[:heredoc], line[heredoc + 2:], []
        while True:
            if index >= len(lines):
                raise HarnessError(f"{os.path.basename(path)}: no closing delimiter for {name}")
            text = lines[index].rstrip("\r")
            index += 1
            if text == delimiter:
                break
            body.append(text)
        values[name] = "\n".join(body)
    return values


def parse_v2(line):
    """The runner's ActionCommand.TryParseV2: (command, properties, data) or None."""
    message = line.lstrip()
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    info = message[2:end]
    name = info.split(" ", 1)[0]
    if name not in RUNNER_COMMANDS:
        return None
    properties = {}
    if " " in info:
        for pair in info.split(" ", 1)[1].strip().split(","):
            if "=" in pair and pair.split("=", 1)[1]:
                key, value = pair.split("=", 1)
                properties[key] = value.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
    data = message[end + 2:].replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
    return name, properties, data


# --- actions/cache, simulated -----------------------------------------------------------------

class Cache:
    """actions/cache's service as a directory: an entry per (key, paths), restored to the same paths."""

    def __init__(self, root):
        self.root = root
        self.events = []

    def entry(self, key, paths):
        expect(len(key) <= 512 and "," not in key, f"cache key {key!r}: actions/cache refuses keys over 512 characters or with a comma")
        return os.path.join(self.root, hashlib.sha256((key + "\0" + "\n".join(paths)).encode()).hexdigest())

    @staticmethod
    def paths(text):
        return [os.path.expanduser(line.strip()) for line in text.split("\n") if line.strip()]

    def restore(self, key, path_text):
        paths = self.paths(path_text)
        entry = self.entry(key, paths)
        outputs = {"cache-primary-key": key}
        if os.path.isdir(entry):
            for index, path in enumerate(paths):
                stored = os.path.join(entry, str(index))
                if os.path.isdir(stored):
                    shutil.copytree(stored, path, dirs_exist_ok=True, symlinks=True)
                elif os.path.exists(stored):
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    shutil.copy2(stored, path)
            outputs.update({"cache-hit": "true", "cache-matched-key": key})
            self.events.append(("hit", key))
        else:
            outputs["cache-hit"] = "false"
            self.events.append(("miss", key))
        return outputs

    def save(self, key, path_text):
        paths = self.paths(path_text)
        entry = self.entry(key, paths)
        if os.path.isdir(entry):
            self.events.append(("exists", key))   # the real action warns and goes on
            return
        if not all(os.path.exists(path) for path in paths):
            self.events.append(("no-path", key))  # "Path Validation Error": a warning, nothing saved
            return
        os.makedirs(entry)
        for index, path in enumerate(paths):
            stored = os.path.join(entry, str(index))
            if os.path.isdir(path):
                shutil.copytree(path, stored, symlinks=True)
            else:
                shutil.copy2(path, stored)
        self.events.append(("saved", key))


# --- The runner ---------------------------------------------------------------------------------

class Job:
    """One job on one runner: its workspace and RUNNER_TEMP, wiped at its start, and its env."""

    def __init__(self, scratch, cache, tools_path=None):
        self.runner_root = os.path.join(scratch, "runner")
        self.workspace = os.path.join(self.runner_root, "work", "repo", "repo")
        self.temp = os.path.join(self.runner_root, "work", "_temp")
        self.tool_cache = os.path.join(self.runner_root, "tool-cache")
        for path in (self.workspace, self.temp):
            shutil.rmtree(path, ignore_errors=True)
            os.makedirs(path)
        os.makedirs(self.tool_cache, exist_ok=True)
        self.cache, self.tools_path = cache, tools_path
        self.runner_os = {"Linux": "Linux", "Darwin": "macOS", "Windows": "Windows"}.get(platform.system(), platform.system())
        machine = platform.machine().lower()
        self.runner_arch = {"x86_64": "X64", "amd64": "X64", "arm64": "ARM64", "aarch64": "ARM64"}.get(machine, machine.upper())
        self.env = {}
        self.path_prepends = []
        self.succeeded = True
        self.post_steps = []

    def process_environment(self):
        environment = {name: value for name, value in os.environ.items()
                       if not name.startswith(("GITHUB_", "RUNNER_", "INPUT_", "ACTIONS_", "STATE_"))}
        path = environment.get("PATH", "/usr/bin:/bin")
        if self.tools_path:
            path = self.tools_path + os.pathsep + path
        environment["PATH"] = os.pathsep.join(list(reversed(self.path_prepends)) + [path])
        environment.update({"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": self.workspace, "RUNNER_OS": self.runner_os,
                            "RUNNER_ARCH": self.runner_arch, "RUNNER_TEMP": self.temp, "RUNNER_TOOL_CACHE": self.tool_cache})
        # Not the runner's: SwiftPM leaves a lock file per scratch path in TMPDIR, kept here in
        # the scratch folder rather than in /tmp.
        environment["TMPDIR"] = os.path.join(self.runner_root, "tmp")
        os.makedirs(environment["TMPDIR"], exist_ok=True)
        environment.update(self.env)
        return environment

    def finish(self):
        """The post steps (actions/cache's save), run as the runner runs them: after the job, if it succeeded."""
        for post in self.post_steps:
            if self.succeeded:
                post()


class StepResult:
    def __init__(self, step_id, outcome, outputs=None, returncode=None, stdout="", stderr="", summary=""):
        self.id, self.outcome, self.outputs = step_id, outcome, outputs or {}
        self.returncode, self.stdout, self.stderr, self.summary = returncode, stdout, stderr, summary


class ActionRun:
    def __init__(self):
        self.steps, self.outputs, self.failed = [], {}, False

    def step(self, step_id):
        return next((step for step in self.steps if step.id == step_id), None)

    @property
    def stdout(self):
        return "".join(step.stdout for step in self.steps)

    @property
    def stderr(self):
        return "".join(step.stderr for step in self.steps)

    @property
    def summary(self):
        return "".join(step.summary for step in self.steps)


STEP_KEYS = {"name", "id", "if", "run", "shell", "env", "working-directory", "uses", "with"}


def run_action(action_path, with_values, job, step_env=None):
    """Runs a composite action as the runner does for `uses:` with `with_values` (already evaluated)."""
    action = load_yaml(open(os.path.join(action_path, "action.yml"), encoding="utf-8").read())
    if action.get("runs", {}).get("using") != "composite":
        raise HarnessError("action.yml is not a composite action")
    declared = {name.lower(): spec or {} for name, spec in (action.get("inputs") or {}).items()}
    unknown = [name for name in with_values if name.lower() not in declared]
    expect(not unknown, f"with: inputs the action does not declare (the runner warns 'Unexpected input(s)'): {unknown}")
    steps_spec = action["runs"]["steps"]
    step_ids = {str(step["id"]).lower() for step in steps_spec if "id" in step}
    state = {}
    context = Context(job, {}, action_path, state, set(declared), step_ids, step_env)
    inputs = {}
    for name, spec in declared.items():
        given = {key.lower(): value for key, value in with_values.items()}
        if name in given:
            inputs[name] = given[name]
        else:
            expect(not spec.get("required"), f"required input {name} not given")
            inputs[name] = interpolate(as_input_string(spec.get("default", "")), context)
    context.inputs = inputs
    result = ActionRun()
    for index, step in enumerate(steps_spec):
        extra = set(step) - STEP_KEYS
        if extra:
            raise HarnessError(f"step {index}: the harness does not handle {sorted(extra)}")
        step_id = str(step.get("id", f"__step{index}")).lower()
        if not condition(step.get("if"), context):
            record = StepResult(step_id, "skipped")
            result.steps.append(record)
            state[step_id] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
            continue
        if "run" in step:
            record = run_step(step, step_id, context, job, action_path, step_env or {})
        elif "uses" in step:
            record = uses_step(step, step_id, context, job)
        else:
            raise HarnessError(f"step {index}: neither run nor uses")
        result.steps.append(record)
        state[step_id] = {"outputs": record.outputs, "outcome": record.outcome, "conclusion": record.outcome}
        if record.outcome == "failure":
            context.failed = True
    result.failed = context.failed
    for name, spec in (action.get("outputs") or {}).items():
        result.outputs[name] = interpolate(spec.get("value", ""), context)
    if result.failed:
        job.succeeded = False
    return result


def run_step(step, step_id, context, job, action_path, step_env):
    shell = step.get("shell")
    if shell != "bash":
        raise HarnessError(f"step {step_id}: shell {shell!r}; a composite run step needs shell:, and the harness runs bash")
    script = interpolate(step["run"], context)
    files = os.path.join(job.temp, "_runner_file_commands")
    os.makedirs(files, exist_ok=True)
    token = uuid.uuid4().hex
    paths = {name: os.path.join(files, f"{name.lower()}_{token}") for name in
             ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY")}
    for path in paths.values():
        open(path, "w").close()
    script_path = os.path.join(job.temp, f"{token}.sh")
    with open(script_path, "w", encoding="utf-8") as file:
        file.write(script)
    environment = job.process_environment()
    environment.update(step_env)
    environment.update({name: interpolate(value, context) for name, value in (step.get("env") or {}).items()})
    environment.update(paths)
    environment["GITHUB_ACTION_PATH"] = action_path
    directory = interpolate(step.get("working-directory", job.workspace), context)
    completed = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script_path], cwd=directory, env=environment,
                               capture_output=True)
    stdout = completed.stdout.decode("utf-8", "replace")
    stderr = completed.stderr.decode("utf-8", "replace")
    outputs = {name.lower(): value for name, value in read_file_command(paths["GITHUB_OUTPUT"]).items()}
    job.env.update(read_file_command(paths["GITHUB_ENV"]))
    for line in open(paths["GITHUB_PATH"], encoding="utf-8").read().splitlines():
        if line.strip():
            job.path_prepends.append(line.strip())
    summary = open(paths["GITHUB_STEP_SUMMARY"], encoding="utf-8", errors="replace").read()
    outcome = "success" if completed.returncode == 0 else "failure"
    return StepResult(step_id, outcome, outputs, completed.returncode, stdout, stderr, summary)


def uses_step(step, step_id, context, job):
    uses = step["uses"]
    values = {name: interpolate(value, context) for name, value in (step.get("with") or {}).items()}
    if uses == "actions/cache/restore@v4":
        return StepResult(step_id, "success", job.cache.restore(values["key"], values["path"]))
    if uses == "actions/cache/save@v4":
        job.cache.save(values["key"], values["path"])
        return StepResult(step_id, "success")
    if uses == "actions/cache@v4":
        outputs = job.cache.restore(values["key"], values["path"])
        job.post_steps.append(lambda: job.cache.save(values["key"], values["path"]))
        return StepResult(step_id, "success", outputs)
    raise HarnessError(f"step {step_id}: the harness does not simulate uses: {uses}")
