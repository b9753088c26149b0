"""What every check and fixture writer in tools/ needs: the repository's paths, ../shared, running
a command with a timeout and a one-line error, reading JSON, and two ways to report a check:

- `Checks`, a counter: each `expect(condition, what)` counts, a false one prints `FAIL what` (up to
  a limit) and is kept; `finish(name)` prints one summary line and gives the exit status (0 or 1);
- `fail(message)` raising `CheckFailed`, for checks that stop at the first failure, with `ok(...)`
  and `note(...)` lines for what passed.

A command that cannot run at all is not a check's failure but a broken run: `run` raises
`CommandFailed`, or `run_or_exit` exits 2 with its message.
"""
import importlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
# The shared folder beside the checkout (read-only): the third-party corpus and the trace validator.
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
THIRD_PARTY = os.path.join(SHARED, "traces", "third-party")
VALIDATOR = os.path.join(SHARED, "tools", "validate_trace.py")


def repo_path(*parts):
    return os.path.join(ROOT, *parts)


def import_or_exit(module, install):
    """A module a check cannot run without: imported, or exit 1 saying how to install it (never skip)."""
    try:
        return importlib.import_module(module)
    except Exception as error:  # ImportError, or a protobuf too old for the generated code
        print(f"FAIL: cannot import {module} ({type(error).__name__}: {error}); install it with `{install}`", file=sys.stderr)
        sys.exit(1)


class CommandFailed(Exception):
    """A command that did not run as asked: its exit status, or a timeout, and the end of its stderr."""


def command_line(command):
    return " ".join(str(part) for part in command)


def run(command, *, timeout=None, check=True, text=True, **kwargs):
    """Runs a command to completion with its output captured. With `check` (the default), a status
    other than 0 raises CommandFailed naming the command, its status and the first 500 characters of
    its stderr; a timeout always raises it. Returns the CompletedProcess."""
    try:
        result = subprocess.run([str(part) for part in command], capture_output=True, text=text, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        raise CommandFailed(f"{command_line(command)}: no exit after {timeout} s") from None
    except OSError as error:
        raise CommandFailed(f"{command_line(command)}: cannot run: {error}") from None
    if check and result.returncode != 0:
        stderr = result.stderr if text else result.stderr.decode("utf-8", "replace")
        raise CommandFailed(f"{command_line(command)} exited {result.returncode}: {stderr.strip()[:500]}")
    return result


def exit_failed(message):
    """Something a check needs could not run: say what on stderr, exit 2 (not a check's failure)."""
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(2)


def run_or_exit(command, *, status=0, text=False, **kwargs):
    """A command the check cannot go on without: its CompletedProcess when it exits `status`, else
    its stderr and `FAILED: COMMAND: exit N, expected S` on stderr, and exit 2."""
    result = run(command, check=False, text=text, **kwargs)
    if result.returncode != status:
        sys.stderr.write(result.stderr if text else result.stderr.decode("utf-8", "replace"))
        exit_failed(f"{command_line(command)}: exit {result.returncode}, expected {status}")
    return result


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


class Checks:
    """Counts checks; prints each failure (the first `shown` of them) as `{indent}FAIL what`."""

    def __init__(self, shown=40, indent="  ", stream=None):
        self.passed, self.failures = 0, []
        self.shown, self.indent = shown, indent
        self.stream = stream

    def expect(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            if len(self.failures) <= self.shown:
                print(f"{self.indent}FAIL {what}", file=self.stream or sys.stdout, flush=True)
        return condition

    @property
    def checked(self):
        return self.passed + len(self.failures)

    def finish(self, name):
        """Prints `name: N checks passed` or `name: F of N checks FAILED` and returns the exit status."""
        if self.failures:
            print(f"{name}: {len(self.failures)} of {self.checked} checks FAILED", flush=True)
            return 1
        print(f"{name}: {self.checked} checks passed", flush=True)
        return 0


class CheckFailed(Exception):
    """The first failed property of a check that stops there."""


def fail(message):
    raise CheckFailed(message)


def ok(message):
    print('ok    %s' % message, flush=True)


def note(message):
    print('note  %s' % message, flush=True)
