"""Part 8: extreme values in every leaf of an export document.

A home with every kind of item (to-dos with dues, tags and notes, memos,
timers in every state with spans and laps, a voice memo, the onboarding)
is exported. Then, one leaf at a time, the leaf's value is replaced by an
extreme one: integers +-2^63 and 2^63-1, 2^64, 1e308, -1e308, 1e400, -0,
0, null, true, empty and 1 MB strings, NUL, lone surrogates, control and
bidi characters, years 0 and 10000 and offsets that push a time out of the
years 1 to 9999, an empty array and object. Each document is imported,
into a fresh home (a restore) or into one with data (an addition), chosen
at random.

For every document:
  - import never crashes; it exits 0 or 65 (65 names a JSON path or a line);
  - refused: the home is exactly as before (its export, times aside);
  - accepted: list, show, search, export, doctor, timer list, voice list
    and the main screen, text and --json, never crash; a command that fails
    (anything but 0, or 4 for a show of an id the document no longer has)
    must leave doctor reporting a problem, never "all is well".
The voice memo's frames and duration are another check's (they are
compared with the audio); they are fuzzed all the same, for crashes.

--quick tries --rounds (default 60) random leaf and value pairs; the full
run tries every pair. Prints the seed: --seed repeats a run.
"""

import json
import os
import random
import shutil

import common
import media

HUGE = "x" * 1_000_000
VALUES = {
    "2^63": "9223372036854775808",
    "-2^63": "-9223372036854775808",
    "2^63-1": "9223372036854775807",
    "2^64": "18446744073709551616",
    "1e308": "1e308",
    "-1e308": "-1e308",
    "1e400": "1e400",
    "-0": "-0",
    "-0.0": "-0.0",
    "0": "0",
    "null": "null",
    "true": "true",
    "empty string": '""',
    "1 MB string": json.dumps(HUGE),
    "NUL": '"a\\u0000b"',
    "lone high surrogate": '"\\ud800"',
    "lone low surrogate": '"x\\udc00y"',
    "controls": '"\\u001b[2J\\u001b]0;pwned\\u0007\\r\\nline\\u009b"',
    "bidi": '"\\u202eevil.exe\\u202c"',
    "year 0": '"0000-01-01T00:00:00Z"',
    "year 10000": '"10000-01-01T00:00:00Z"',
    "offset past 9999": '"9999-12-31T23:59:59-23:59"',
    "offset before 1": '"0001-01-01T00:00:00+23:59"',
    "empty array": "[]",
    "empty object": "{}",
}
PLACEHOLDER = "@@memoapp-fuzz-leaf@@"
# A show of an id the mutated document does not hold is a plain not-found.
ALLOWED_FAILURES = {("todo", "show"): {4}, ("memo", "show"): {4}, ("timer", "status"): {4}, ("voice", "show"): {4}}


def main():
    arguments = common.parse_arguments(__doc__)
    part = common.Part(8, "export document fuzz", arguments)
    work = arguments.work
    source = common.Memoapp(arguments.binary, os.path.join(work, "source")).fresh()
    has_voice = source.has_voice()
    fill(source, work, has_voice)
    document = source.must("export").json
    audio = source.voice_directory
    leaves = list(paths(document))
    pairs = [(leaf, name) for leaf in leaves for name in VALUES]
    if arguments.quick:
        pairs = random.sample(pairs, min(len(pairs), arguments.rounds or 60))
    elif arguments.rounds:
        pairs = random.sample(pairs, min(len(pairs), arguments.rounds))
    part.note(f"{len(leaves)} leaves x {len(VALUES)} values: {len(pairs)} documents")
    fuzzer = Fuzzer(arguments, part, document, audio)
    accepted = 0
    for leaf, name in pairs:
        part.rounds += 1
        accepted += fuzzer.attempt(leaf, name, with_data=random.random() < 0.5)
    part.note(f"{accepted} accepted, {part.rounds - accepted} refused")
    part.finish()


def fill(app, work, has_voice):
    """Every kind of item, in every state a timer can be in."""
    app.must("todo", "add", "회의 준비 🎉", "--tag", "work", "--due", "2030-06-01 09:30", "--priority", "high",
             "--note", "line one\nline two")
    app.must("todo", "add", "buy milk", "--due", "2030-01-01")
    app.must("todo", "add", "done already", "--priority", "low")
    app.must("todo", "done", "3")
    app.must("memo", "add", "--title", "회의록", "--tag", "notes", "첫 줄\n둘째 줄")
    app.must("memo", "add", "untitled memo")
    app.must("memo", "pin", "1")
    app.must("timer", "start", "--label", "run")
    app.must("timer", "lap", "1")
    app.must("timer", "pause", "1")
    app.must("timer", "resume", "1")
    app.must("timer", "lap", "1")
    app.must("timer", "start", "25m")
    app.must("timer", "pause", "2")
    app.must("timer", "start", "1s", "--label", "tea")
    app.must("timer", "wait", "3")
    app.must("timer", "start")
    app.must("timer", "stop", "4")
    app.must("timer", "start", "10m")
    app.must("timer", "cancel", "5")
    if has_voice:
        tone = media.make_tone(os.path.join(work, "tone.wav"), seconds=0.5, rate=8000)
        app.must("voice", "import", tone, "--tag", "work", "--title", "tone")


def paths(value, path=()):
    """The path of every leaf (a value that is not an object or an array,
    and every empty array or object), document order."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from paths(item, path + (key,))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from paths(item, path + (index,))
    else:
        yield path


def replaced(document, leaf, raw):
    """The document's text with the value at `leaf` replaced by the JSON text `raw`."""
    copy = json.loads(json.dumps(document))
    container = copy
    for step in leaf[:-1]:
        container = container[step]
    container[leaf[-1]] = PLACEHOLDER
    text = json.dumps(copy, ensure_ascii=False)
    assert text.count(json.dumps(PLACEHOLDER)) == 1
    return text.replace(json.dumps(PLACEHOLDER), raw)


def describe(leaf):
    return "$" + "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in leaf)


def without_time(export_text):
    return "\n".join(line for line in export_text.splitlines() if not line.startswith('  "exported_at": '))


class Fuzzer:
    def __init__(self, arguments, part, document, audio):
        self.arguments = arguments
        self.part = part
        self.document = document
        self.audio = audio
        self.count = 0
        self.has_voice = bool(document.get("voice_memos"))

    def attempt(self, leaf, name, with_data):
        """Imports one mutated document and checks everything; True when it was accepted."""
        self.count += 1
        folder = os.path.join(self.arguments.work, f"doc-{self.count:05d}")
        os.makedirs(folder)
        where = f"{describe(leaf)} = {name} ({'home with data' if with_data else 'fresh home'})"
        path = os.path.join(folder, "export.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
            file.write(replaced(self.document, leaf, VALUES[name]))
        app = common.Memoapp(self.arguments.binary, os.path.join(folder, "home")).fresh()
        if with_data:
            app.must("todo", "add", "already here")
            app.must("timer", "start", "5m", "--label", "here")
        before = without_time(app.must("export").stdout.decode())
        result = app.run("import", path, "--audio", self.audio)
        if result.crashed or result.status not in (0, 65):
            self.part.fail(f"{where}: {result.describe()}")
            return False
        if result.status == 65:
            after = app.run("export")
            self.part.check(after.status == 0 and without_time(after.stdout.decode()) == before,
                            f"{where}: refused, but the home changed")
            self.part.check(b"$" in result.stderr or b":" in result.stderr, f"{where}: refused without a place")
            shutil.rmtree(folder)
            return False
        failed = []
        for arguments in commands(self.has_voice):
            run = app.run(*arguments)
            if run.crashed:
                self.part.fail(f"{where}: {run.describe()}")
            elif run.status != 0 and run.status not in ALLOWED_FAILURES.get(tuple(arguments[:2]), set()):
                failed.append(run.describe())
        doctor = app.run("doctor")
        if doctor.crashed:
            self.part.fail(f"{where}: {doctor.describe()}")
        elif failed and doctor.status == 0:
            self.part.fail(f"{where}: accepted; {failed[0]}; but doctor says all is well")
        if len(self.part.failures) == 0:
            shutil.rmtree(folder)
        return True


def commands(has_voice):
    views = [["todo", "list", "--all"], ["todo", "show", "1"], ["memo", "list"], ["memo", "show", "1"],
             ["search", "a"], ["timer", "list", "--all"], ["timer", "status", "1"], ["voice", "list"], [],
             ["export"]]
    if not has_voice:
        views.remove(["voice", "list"])
    return views + [view + ["--json"] for view in views if view != ["export"]]


if __name__ == "__main__":
    main()
