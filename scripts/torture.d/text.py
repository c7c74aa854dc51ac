"""Part 6: hostile text in every text field.

Values: SQL-looking text, shell metacharacters, format strings, JSON
breakers, right-to-left overrides and scripts, combining marks, decomposed
Hangul, emoji sequences, zero-width and control characters, line
separators, a 112 KB argument, bytes that are not UTF-8; on stdin also NUL
bytes, a BOM, CRLF, 10 MB of text and 10 MB of random bytes.

Fields: to-do title, note and tag (add and edit), memo text (arguments
and stdin), title and tag (add and edit), timer label, voice memo title
(import and rename), and search queries.

For each value in each field: the command either succeeds and the field
reads back exactly as given (trimmed where the field documents trimming:
timer labels, voice titles; a tag's leading '#' dropped), or it fails with
exit 64 or 65 and one clear line, and nothing at all was stored or changed.
Lists and shows of the stored text must not fail either.
"""

import hashlib
import json
import os
import random

import common
import media

HOSTILE = {
    "sql quote": "'); DROP TABLE todos; --",
    "sql or": "\" OR 1=1 -- '",
    "sql like": "100% _done_ \\ [x] %%",
    "sql comment": "/* */ SELECT * FROM memos; -- x",
    "shell substitution": "$(touch /tmp/memoapp-pwned) `id` ${HOME}",
    "shell operators": "; rm -rf ~ && echo | cat > /dev/null & x",
    "glob": "*?[]{} ~ !! #x",
    "format": "%s%n%x %@ {0} {{}} \\(x)",
    "json breaker": "\"}]}{\\u0000\\\" </script>",
    "rtl override": "\u202eevil.exe\u202c txt",
    "hebrew arabic": "שלום עולם مرحبا بالعالم",
    "mixed bidi": "abc אבג 123 دحخ",
    "combining": "e\u0301\u0327\u0308 Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319",
    "hangul decomposed": "\u1112\u1161\u11ab\u1100\u1173\u11af",
    "emoji sequences": "👩‍👩‍👧‍👦 🏳️‍🌈 🇰🇷",
    "zero width": "a\u200bb\u200cc\u200dd\ufeffe",
    "control": "bell\x07 esc\x1b[31mred\x1b[0m tab\t cr\r lf\n del\x7f",
    "line separators": "a\u2028b\u2029c\u0085d",
    "noncharacters": "\ufffe\uffff \U0010ffff \ue000",
    "long": "가나다 abc " * 8_000,  # 112 KB: a single argument may hold 128 KiB
    "one word": "#x_y-z.가나다👍",
}
NOT_UTF8 = {"lone byte": b"caf\xe9", "overlong": b"\xc0\xaf", "surrogate": b"\xed\xa0\x80", "truncated": b"\xe0\xa4"}
STDIN = {
    "nul bytes": "a\0b\0\0c",
    "bom": "\ufeffstarts with a BOM",
    "crlf": "line one\r\nline two\r\n",
    "ten megabytes": ("10MB 메모 " * 1_000_000)[:10_000_000],
}


def main():
    arguments = common.parse_arguments(__doc__)
    part = common.Part(6, "hostile text", arguments)
    app = common.Memoapp(arguments.binary, os.path.join(arguments.work, "home")).fresh()
    hostile = dict(HOSTILE)
    if arguments.quick:
        hostile = {name: hostile[name] for name in ["sql quote", "shell substitution", "rtl override", "combining",
                                                   "control", "one word"]}
    tester = Tester(app, part, arguments.work)
    for field in tester.fields():
        for name, value in hostile.items():
            tester.attempt(field, name, value)
        for name, value in NOT_UTF8.items():
            tester.attempt(field, name, value, must_refuse=True)
    stdin = STDIN if not arguments.quick else {name: STDIN[name] for name in ["nul bytes", "crlf"]}
    for name, value in stdin.items():
        tester.attempt(tester.memo_stdin_field(), name, value)
    random_bytes = bytes(random.getrandbits(8) for _ in range(10_000_000 if not arguments.quick else 100_000))
    if random_bytes.decode("utf-8", "ignore").encode() != random_bytes:
        tester.attempt(tester.memo_stdin_field(), "10 MB random bytes", random_bytes, must_refuse=True)
    for name, value in NOT_UTF8.items():
        tester.attempt(tester.memo_stdin_field(), name + " on stdin", value, must_refuse=True)
    tester.search_and_list(hostile)
    lines = common.integrity(app.database)
    part.check(lines == ["ok"], f"integrity_check: {lines[:3]}")
    part.check(not os.path.exists("/tmp/memoapp-pwned"), "a shell substitution ran")
    part.note(f"{tester.stored} stored exactly, {tester.refused} refused clearly")
    part.finish()


class Field:
    def __init__(self, name, command, read, trims=False, is_tag=False, stdin=False):
        self.name = name
        self.command = command    # value -> arguments
        self.read = read          # successful result -> the stored value (read back from memoapp)
        self.trims = trims
        self.is_tag = is_tag
        self.stdin = stdin


class Tester:
    def __init__(self, app, part, work):
        self.app = app
        self.part = part
        self.stored = 0
        self.refused = 0
        self.todo = app.must("todo", "add", "edit target", "--json").json["id"]
        self.memo = app.must("memo", "add", "edit target", "--json").json["id"]
        self.has_voice = app.has_voice()
        if self.has_voice:
            self.audio = media.make_tone(os.path.join(work, "text.wav"), seconds=0.2, rate=8000)
            self.voice = app.must("voice", "import", self.audio, "--json").json["id"]
            self.audio_variant = 0
            self.work = work
        else:
            part.note("this build has no 'voice' command: voice titles not exercised")

    def show(self, kind, item):
        return self.app.must(kind, "show", str(item), "--json").json

    def fields(self):
        todo = lambda result: self.show("todo", result.json["id"])
        memo = lambda result: self.show("memo", result.json["id"])
        fields = [
            Field("todo title", lambda v: ["todo", "add", "--json", "--", v], lambda r: todo(r)["title"]),
            Field("todo note", lambda v: ["todo", "add", "--json", b"--note=" + as_bytes(v), "t"],
                  lambda r: todo(r)["note"]),
            Field("todo tag", lambda v: ["todo", "add", "--json", b"--tag=" + as_bytes(v), "t"],
                  lambda r: single(todo(r)["tags"]), is_tag=True),
            Field("todo edit title", lambda v: ["todo", "edit", str(self.todo), "--json", b"--title=" + as_bytes(v)],
                  lambda r: self.show("todo", self.todo)["title"]),
            Field("todo edit note", lambda v: ["todo", "edit", str(self.todo), "--json", b"--note=" + as_bytes(v)],
                  lambda r: self.show("todo", self.todo)["note"]),
            Field("memo text", lambda v: ["memo", "add", "--json", "--", v], lambda r: memo(r)["text"]),
            Field("memo title", lambda v: ["memo", "add", "--json", b"--title=" + as_bytes(v), "body"],
                  lambda r: memo(r)["title"]),
            Field("memo tag", lambda v: ["memo", "add", "--json", b"--tag=" + as_bytes(v), "body"],
                  lambda r: single(memo(r)["tags"]), is_tag=True),
            Field("memo edit text", lambda v: ["memo", "edit", str(self.memo), "--json", b"--text=" + as_bytes(v)],
                  lambda r: self.show("memo", self.memo)["text"]),
            Field("memo edit title", lambda v: ["memo", "edit", str(self.memo), "--json", b"--title=" + as_bytes(v)],
                  lambda r: self.show("memo", self.memo)["title"]),
            Field("timer label", lambda v: ["timer", "start", "5m", "--json", b"--label=" + as_bytes(v)],
                  lambda r: self.timer_label(r.json["id"]), trims=True),
        ]
        if self.has_voice:
            fields += [
                Field("voice title", lambda v: ["voice", "import", self.new_audio(), "--json", b"--title=" + as_bytes(v)],
                      lambda r: self.show("voice", r.json["id"])["title"], trims=True),
                Field("voice rename", lambda v: ["voice", "rename", str(self.voice), "--json", "--", v],
                      lambda r: self.show("voice", self.voice)["title"], trims=True),
            ]
        return fields

    def memo_stdin_field(self):
        return Field("memo text on stdin", None, lambda r: self.show("memo", r.json["id"])["text"], stdin=True)

    def new_audio(self):
        """A fresh file per voice import: the same bytes twice would be a duplicate."""
        self.audio_variant += 1
        path = os.path.join(self.work, "text-variant.wav")
        media.variant(self.audio, path, self.audio_variant)
        return path

    def timer_label(self, timer_id):
        timers = {timer["id"]: timer for timer in self.app.must("timer", "list", "--all", "--json").json}
        return timers[timer_id]["label"]

    def state(self):
        """Everything stored, for 'nothing changed' after a refusal."""
        queries = ["SELECT * FROM todos", "SELECT * FROM todo_tags", "SELECT * FROM memos", "SELECT * FROM memo_tags",
                   "SELECT id, label, created_at FROM timers"]
        if self.has_voice:
            queries += ["SELECT id, title, file_name FROM voice_memos"]
        digest = hashlib.sha256()
        for sql in queries:
            for row in common.query(self.app.database, sql + " ORDER BY 1"):
                digest.update(repr(row).encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def attempt(self, field, name, value, must_refuse=False):
        self.part.rounds += 1
        label = f"{field.name} <- {name}"
        before = self.state()
        if field.stdin:
            result = self.app.run("memo", "add", "--json", input=as_bytes(value))
        else:
            result = self.app.run(*field.command(value))
        if result.crashed or result.timed_out:
            self.part.fail(f"{label}: {result.describe()}")
            return
        if result.status == 0:
            if must_refuse:
                self.part.fail(f"{label}: bytes that are not UTF-8 were accepted: {result.describe()}")
                return
            stored = field.read(result)
            expected = value.decode("utf-8") if isinstance(value, bytes) else value
            if field.trims:
                expected = expected.strip(" \t\n\r\x0b\x0c\u0085\u2028\u2029\u3000\u00a0")
            if field.is_tag and expected.startswith("#"):
                expected = expected[1:]
            if self.part.check(stored == expected, f"{label}: stored {common.shorten(stored)!r}, "
                               f"given {common.shorten(expected)!r}"):
                self.stored += 1
        elif result.status in (64, 65):
            text = result.stderr.decode("utf-8", "replace")
            try:
                error = json.loads(text)["error"]
                self.part.check(error["code"] in ("usage", "bad_input") and error["message"],
                                f"{label}: odd error {error}")
            except (ValueError, KeyError, TypeError):
                self.part.fail(f"{label}: stderr is not one JSON error: {text[:200]!r}")
            self.part.check(self.state() == before, f"{label}: refused, but something was stored or changed")
            self.refused += 1
        else:
            self.part.fail(f"{label}: exit {result.status}: {result.describe()}")

    def search_and_list(self, hostile):
        """Reading the stored text back through every view must not fail."""
        views = [["todo", "list", "--all"], ["memo", "list"], ["timer", "list", "--all"], ["memo", "show", str(self.memo)],
                 ["todo", "show", str(self.todo)], []]
        if self.has_voice:
            views += [["voice", "list"]]
        for view in views:
            for mode in ([], ["--json"]):
                self.part.rounds += 1
                result = self.app.run(*view, *mode)
                self.part.check(result.status == 0 and not result.crashed, f"view {view}{mode}: {result.describe()}")
                if mode:
                    try:
                        json.loads(result.stdout.decode("utf-8"))
                    except ValueError as error:
                        self.part.fail(f"view {view} --json is not JSON: {error}")
        for name, value in list(hostile.items()) + [(n, v) for n, v in NOT_UTF8.items()]:
            for command in (["search"], ["memo", "search"], ["todo", "list", "--tag"]):
                self.part.rounds += 1
                if command[-1] == "--tag":
                    arguments = [*command[:-1], b"--tag=" + as_bytes(value)]
                else:
                    arguments = [*command, "--", value]
                result = self.app.run(*arguments)
                self.part.check(not result.crashed and result.status in (0, 64, 65),
                                f"{' '.join(command)} <- {name}: {result.describe()}")


def as_bytes(value):
    return value if isinstance(value, bytes) else value.encode("utf-8")


def single(tags):
    return tags[0] if len(tags) == 1 else tags


if __name__ == "__main__":
    main()
