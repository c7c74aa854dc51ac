"""What every torture part shares: running memoapp, reading its database
directly, and reporting one result line for scripts/torture's table.

Each part is a script that takes the same arguments (see `parse_arguments`),
prints progress and failures to stderr, and ends by printing one JSON line
on stdout: {"part", "title", "rounds", "failures", "seconds", "status", "note"}.
"""

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

# What memoapp's own crash looks like on stderr (Swift runtime traps, the
# address sanitizer, a signal).
CRASH_MARKERS = (b"Fatal error", b"AddressSanitizer", b"Segmentation fault", b"Illegal instruction",
                 b"stack overflow", b"Assertion failed")


def parse_arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", required=True, help="the memoapp to torture")
    parser.add_argument("--asan-binary", help="an AddressSanitizer build (audio part)")
    parser.add_argument("--work", required=True, help="a scratch folder of this part's own")
    parser.add_argument("--rounds", type=int, help="how many rounds (the part's default otherwise)")
    parser.add_argument("--quick", action="store_true", help="a small version")
    parser.add_argument("--seed", type=int, default=None)
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.randrange(1 << 30)
    random.seed(seed)
    arguments.seed = seed
    return arguments


class Result:
    """The outcome of one memoapp run."""

    def __init__(self, arguments, status, stdout, stderr, seconds, timed_out=False):
        self.arguments = arguments
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out

    @property
    def json(self):
        return json.loads(self.stdout.decode("utf-8"))

    @property
    def crashed(self):
        """Killed by a signal it did not ask for, or a runtime trap on stderr."""
        return self.status < 0 or self.status >= 128 or any(marker in self.stderr for marker in CRASH_MARKERS)

    def describe(self):
        words = " ".join(shorten(argument) for argument in self.arguments)
        error = self.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"memoapp {words} -> {self.status}{' (timed out)' if self.timed_out else ''}" + (
            f": {shorten(error[0], 160)}" if error else "")


def shorten(value, limit=60):
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} chars)"


class Memoapp:
    """One memoapp binary on one data home, English, no colour, UTC."""

    def __init__(self, binary, home, extra_environment=None):
        self.binary = binary
        self.home = home
        self.environment = {key: value for key, value in os.environ.items()
                            if key not in ("MEMOAPP_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "XDG_DATA_HOME")}
        self.environment.update({"MEMOAPP_HOME": home, "TZ": "UTC", "NO_COLOR": "1"})
        self.environment.update(extra_environment or {})

    @property
    def database(self):
        return os.path.join(self.home, "memoapp.db")

    @property
    def voice_directory(self):
        return os.path.join(self.home, "voice")

    def run(self, *arguments, input=b"", timeout=120):
        started = time.monotonic()
        try:
            completed = subprocess.run([self.binary, *arguments], input=input, capture_output=True,
                                       env=self.environment, timeout=timeout)
        except subprocess.TimeoutExpired as expired:
            return Result(arguments, -9, expired.stdout or b"", expired.stderr or b"",
                          time.monotonic() - started, timed_out=True)
        return Result(arguments, completed.returncode, completed.stdout, completed.stderr,
                      time.monotonic() - started)

    def spawn(self, *arguments, stdin=subprocess.DEVNULL):
        """Starts memoapp and returns the Popen (stdout and stderr piped)."""
        return subprocess.Popen([self.binary, *arguments], stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self.environment)

    def must(self, *arguments, input=b""):
        """Runs a command that has to succeed (setting up), or raises."""
        result = self.run(*arguments, input=input)
        if result.status != 0:
            raise RuntimeError("setup failed: " + result.describe())
        return result

    def fresh(self):
        """A new, onboarded data home."""
        self.must("onboard", "skip")
        return self

    def has_voice(self):
        return self.run("help", "voice").status == 0


def integrity(database):
    """PRAGMA integrity_check's lines ("ok" alone when all is well), or the error."""
    try:
        connection = sqlite3.connect(database, timeout=30)
        try:
            return [row[0] for row in connection.execute("PRAGMA integrity_check")]
        finally:
            connection.close()
    except sqlite3.Error as error:
        return [f"sqlite3 error: {error}"]


def query(database, sql, parameters=()):
    connection = sqlite3.connect(database, timeout=30)
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


def is_temporary_name(name):
    """Names memoapp gives files while it writes them (voice's .part, memo edit's text)."""
    return (name.startswith(".") and name.endswith(".part")) or name.startswith(".memo-edit-")


class Part:
    """Counts rounds and failures of one part and prints its result line."""

    def __init__(self, number, title, arguments):
        self.number = number
        self.title = title
        self.arguments = arguments
        self.rounds = 0
        self.failures = []
        self.notes = []
        self.started = time.monotonic()
        self.status = None
        log(f"part {number} ({title}): seed {arguments.seed}")

    def fail(self, message):
        self.failures.append(message)
        if len(self.failures) <= 30:
            log(f"FAIL part {self.number}: {message}")
        elif len(self.failures) == 31:
            log(f"part {self.number}: more failures follow, not shown")

    def check(self, condition, message):
        if not condition:
            self.fail(message)
        return condition

    def note(self, text):
        self.notes.append(text)
        log(f"part {self.number}: {text}")

    def skip(self, reason):
        """The part could not run here (no root, no mount): said, not failed."""
        self.status = "skipped"
        self.note(reason)
        self.finish()

    def finish(self):
        status = self.status or ("FAIL" if self.failures else "ok")
        print(json.dumps({"part": self.number, "title": self.title, "rounds": self.rounds,
                          "failures": len(self.failures), "seconds": round(time.monotonic() - self.started, 1),
                          "status": status, "note": "; ".join(self.notes), "seed": self.arguments.seed}),
              flush=True)
        sys.exit(1 if status == "FAIL" else 0)


def log(text):
    print(text, file=sys.stderr, flush=True)


class Attacker:
    """Runs a command either once to time it (calibration) or to kill it with
    SIGKILL at a random moment within 1.2 times that time, and counts what
    happened: per command (runs, killed), killed and finished in all. A
    command that finished before its kill must have succeeded."""

    def __init__(self, part):
        self.part = part
        self.timing = {}
        self.per_command = {}
        self.killed = 0
        self.finished = 0

    def attack(self, name, app, arguments, calibrate, stdin=subprocess.DEVNULL):
        started = time.monotonic()
        process = app.spawn(*arguments, stdin=stdin)
        if not calibrate:
            time.sleep(random.uniform(0, 1.2 * self.timing.get(name, 0.05)))
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
        stdout, stderr = process.communicate()
        result = Result(arguments, process.returncode, stdout, stderr, time.monotonic() - started)
        if calibrate:
            self.timing[name] = result.seconds
            if result.status != 0:
                raise RuntimeError("calibration run failed: " + result.describe())
            return result
        runs, killed = self.per_command.get(name, (0, 0))
        self.per_command[name] = (runs + 1, killed + (result.status == -signal.SIGKILL))
        if result.status == -signal.SIGKILL:
            self.killed += 1
        else:
            self.finished += 1
            if result.status != 0 or result.crashed:
                self.part.fail(f"{name}: failed on its own: " + result.describe())
        return result

    def calibration_note(self):
        return "calibration: " + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in self.timing.items())
