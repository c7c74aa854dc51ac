"""Part 1: kill -9 at a random moment during writes, then check that nothing
that was promised is lost and nothing is half done.

Operations: multi-id `todo done`, `memo add` (words and large stdin),
`timer start` and `timer pause`, the first command on a new data home
(which creates the database and its tables), and when the build has voice memos,
`voice import` of a large file and `voice record` from stdin. Each runs once
to time it, then every round starts one and SIGKILLs it after a random delay
up to a little past that time (so some finish first: their success must
last). After each round:
  - PRAGMA integrity_check is ok;
  - every command that reported success is still in effect;
  - the killed command is applied in full or not at all (a multi-id
    `todo done` changes all its ids or none; a memo's text is whole);
  - voice/ holds exactly the files of voice_memos rows, once the next
    writing voice command has run (a killed import may leave a temporary or
    a renamed file until then: the module's documented recovery), and no
    row lacks its file at any time;
  - every 25 rounds, `memoapp doctor` says all is well.
"""

import os
import random
import shutil
import subprocess
import time

import common
import media


def main():
    arguments = common.parse_arguments(__doc__)
    rounds = arguments.rounds or (12 if arguments.quick else 200)
    part = common.Part(1, "kill -9 during writes", arguments)
    home = os.path.join(arguments.work, "home")
    app = common.Memoapp(arguments.binary, home).fresh()
    state = Ledger(app, part, arguments.work)
    operations = [state.todo_done, state.memo_add, state.memo_add_stdin, state.timer_start, state.timer_pause,
                  state.first_run]
    if app.has_voice():
        state.prepare_voice()
        operations += [state.voice_import, state.voice_record]
    else:
        part.note("this build has no 'voice' command: voice import and record not exercised")
    for operation in operations:
        operation(calibrate=True)
    part.note(state.calibration_note())
    for _ in range(rounds):
        part.rounds += 1
        random.choice(operations)()
        state.verify()
        if part.rounds % 25 == 0:
            state.check_doctor()
    state.settle_voice()
    state.verify(final=True)
    state.check_doctor()
    part.note(f"{state.killed} killed ({state.killed_but_applied} of them after their commit), "
              f"{state.finished} finished before the kill")
    part.note(f"{len(state.leftovers_seen)} leftover files in voice/ after kills "
              f"({sum(common.is_temporary_name(name) for name in state.leftovers_seen)} temporaries), "
              "all gone once the next voice command ran")
    part.note("per command (runs/killed): " + ", ".join(
        f"{name} {runs}/{killed}" for name, (runs, killed) in sorted(state.per_command.items())))
    part.finish()


class Ledger(common.Attacker):
    """What memoapp promised so far, and the pending uncertainty of the last round."""

    def __init__(self, app, part, work):
        super().__init__(part)
        self.app = app
        self.work = work
        self.killed_but_applied = 0   # killed after its commit: shows the kills reach past the write
        self.leftovers_seen = set()  # files a kill left in voice/, each removed by the next command
        self.open_todos = []
        self.done_todos = set()
        self.memos = {}            # marker -> exact text, for memos whose add reported success
        self.memo_sequence = 0
        self.running_timers = []   # ids started (reported) and not paused
        self.paused_timers = set()
        self.timer_labels = {}     # label -> id, for starts that reported success
        self.voice_ids = set()     # voice memos whose import/record reported success
        self.voice_dirty = False   # a voice command was killed: leftovers allowed until the next one
        self.add_todos(60)

    # MARK: - Operations

    def add_todos(self, count):
        for index in range(count):
            result = self.app.must("todo", "add", f"kill-pool {len(self.open_todos)} {index}", "--json")
            self.open_todos.append(result.json["id"])

    def todo_done(self, calibrate=False):
        if len(self.open_todos) < 8:
            self.add_todos(40)
        ids = random.sample(self.open_todos, random.randint(2, 6))
        result = self.attack("todo_done", ["todo", "done", "--json", *map(str, ids)], calibrate)
        done = {row[0] for row in common.query(self.app.database, "SELECT id FROM todos WHERE done_at IS NOT NULL")}
        applied = [todo_id in done for todo_id in ids]
        if not self.part.check(all(applied) or not any(applied),
                               f"todo done {ids} half applied: done {[i for i, a in zip(ids, applied) if a]}"):
            return
        if result.status == 0:
            self.part.check(all(applied), f"todo done {ids} reported success but {ids} are not all done")
            self.part.check(sorted(todo["id"] for todo in result.json) == sorted(ids), "todo done printed other ids")
        if all(applied) and result.status != 0:
            self.killed_but_applied += 1
        if all(applied):
            for todo_id in ids:
                self.open_todos.remove(todo_id)
                self.done_todos.add(todo_id)

    def memo_add(self, calibrate=False):
        marker, text = self.memo_text(random.randint(1, 400))
        words = text.split(" ")
        result = self.attack("memo_add", ["memo", "add", "--json", *words], calibrate)
        self.check_memo(marker, text, result)

    def memo_add_stdin(self, calibrate=False):
        marker, text = self.memo_text(random.choice([10_000, 300_000, 2_000_000]))
        path = os.path.join(self.work, "memo-input.txt")
        with open(path, "wb") as file:
            file.write(text.encode("utf-8"))
        with open(path, "rb") as stdin:
            result = self.attack("memo_add_stdin", ["memo", "add", "--json", "--tag", "stdin"], calibrate, stdin=stdin)
        self.check_memo(marker, text, result)

    def timer_start(self, calibrate=False):
        label = f"kill-timer-{len(self.timer_labels)}-{random.randrange(1 << 30)}"
        length = random.choice([["25m"], ["1h", "30m"], []])
        result = self.attack("timer_start", ["timer", "start", *length, "--label", label, "--json"], calibrate)
        timers = [timer for timer in self.timers() if timer["label"] == label]
        if not self.part.check(len(timers) <= 1, f"timer start --label {label} made {len(timers)} timers"):
            return
        if result.status == 0:
            if self.part.check(len(timers) == 1, f"timer start {label} reported success but no timer has it"):
                self.part.check(timers[0]["id"] == result.json["id"], "timer start printed another id")
        if timers:
            if result.status != 0:
                self.killed_but_applied += 1
            self.timer_labels[label] = timers[0]["id"]
            self.part.check(timers[0]["state"] == "running", f"new timer {label} is {timers[0]['state']}")
            self.running_timers.append(timers[0]["id"])

    def timer_pause(self, calibrate=False):
        if not self.running_timers:
            label = f"kill-timer-{len(self.timer_labels)}-pool"
            started = self.app.must("timer", "start", "2h", "--label", label, "--json").json
            self.timer_labels[label] = started["id"]
            self.running_timers.append(started["id"])
        timer_id = self.running_timers.pop(random.randrange(len(self.running_timers)))
        result = self.attack("timer_pause", ["timer", "pause", str(timer_id), "--json"], calibrate)
        state = {timer["id"]: timer["state"] for timer in self.timers()}.get(timer_id)
        if result.status == 0:
            self.part.check(state == "paused", f"timer pause {timer_id} reported success; the timer is {state}")
        else:
            self.part.check(state in ("running", "paused"), f"killed timer pause left timer {timer_id} {state}")
        if state == "paused":
            self.paused_timers.add(timer_id)
        elif state == "running":
            self.running_timers.append(timer_id)

    def first_run(self, calibrate=False):
        """The very first command on a new data home (creating it, the database
        and every table), killed; the next one must finish the job."""
        home = os.path.join(self.work, "first-run")
        shutil.rmtree(home, ignore_errors=True)
        fresh = common.Memoapp(self.app.binary, home)
        saved, self.app = self.app, fresh
        try:
            self.attack("first_run", ["onboard", "skip", "--json"], calibrate)
        finally:
            self.app = saved
        result = fresh.run("onboard", "skip", "--json")
        self.part.check(result.status == 0, "the command after a killed first run: " + result.describe())
        lines = common.integrity(fresh.database)
        self.part.check(lines == ["ok"], f"integrity_check after a killed first run: {lines[:3]}")
        doctor = fresh.run("doctor")
        self.part.check(doctor.status == 0, "doctor after a killed first run: " + doctor.stdout.decode("utf-8", "replace"))

    # MARK: - Voice

    def prepare_voice(self):
        # Three minutes of 48 kHz stereo (35 MB): an import long enough to be killed in every phase.
        self.large_audio = media.make_tone(os.path.join(self.work, "large.wav"), seconds=180, rate=48000, channels=2)
        self.raw_audio = media.make_raw(os.path.join(self.work, "record.raw"), seconds=20, rate=16000)
        self.audio_sequence = 0

    def unique_copy(self, source, extension):
        """A copy of `source` with a few samples changed, so no import is a duplicate."""
        self.audio_sequence += 1
        path = os.path.join(self.work, f"import-{self.audio_sequence % 2}.{extension}")
        media.variant(source, path, self.audio_sequence)
        return path

    def voice_import(self, calibrate=False):
        path = self.unique_copy(self.large_audio, "wav")
        title = f"kill-import-{self.audio_sequence}"
        result = self.attack("voice_import", ["voice", "import", path, "--title", title, "--json"], calibrate)
        self.check_voice(title, result)

    def voice_record(self, calibrate=False):
        title = f"kill-record-{random.randrange(1 << 30)}"
        with open(self.raw_audio, "rb") as stdin:
            result = self.attack("voice_record", ["voice", "record", "--title", title, "--json"], calibrate,
                                 stdin=stdin)
        self.check_voice(title, result)

    def check_voice(self, title, result):
        rows = common.query(self.app.database, "SELECT id FROM voice_memos WHERE title = ?", (title,))
        self.part.check(len(rows) <= 1, f"voice {title} stored {len(rows)} times")
        if result.status == 0:
            memo = result.json[0] if isinstance(result.json, list) else result.json
            if self.part.check(len(rows) == 1, f"voice {title} reported success but has no row"):
                self.voice_ids.add(memo["id"])
        elif result.status > 0:
            self.part.fail("voice command failed without a kill: " + result.describe())
        if result.status != 0:
            self.voice_dirty = True
        if rows:
            if result.status != 0:
                self.killed_but_applied += 1
            self.voice_ids.add(rows[0][0])

    def settle_voice(self):
        """Runs the next writing voice command (a small import), after ageing
        temporaries past the module's grace period, then requires voice/ and
        the rows to match exactly with no temporary left."""
        if not self.voice_dirty:
            return
        for name in os.listdir(self.app.voice_directory):
            if common.is_temporary_name(name):
                path = os.path.join(self.app.voice_directory, name)
                past = time.time() - 3600
                os.utime(path, (past, past))
        self.audio_sequence += 1
        small = os.path.join(self.work, "settle.wav")
        media.make_tone(small, seconds=0.2, rate=8000, channels=1, variant=self.audio_sequence)
        result = self.app.run("voice", "import", small, "--title", f"settle-{self.audio_sequence}", "--json")
        if self.part.check(result.status == 0, "the voice import after a kill failed: " + result.describe()):
            memo = result.json[0] if isinstance(result.json, list) else result.json
            self.voice_ids.add(memo["id"])
        self.voice_dirty = False
        self.check_voice_files(strict=True)

    def check_voice_files(self, strict):
        rows = dict(common.query(self.app.database, "SELECT file_name, id FROM voice_memos"))
        names = set(os.listdir(self.app.voice_directory)) if os.path.isdir(self.app.voice_directory) else set()
        for name, memo_id in rows.items():
            self.part.check(name in names, f"voice memo {memo_id} has no file {name}")
        missing = {memo_id for memo_id in self.voice_ids if memo_id not in rows.values()}
        self.part.check(not missing, f"voice memos reported stored are gone: {sorted(missing)}")
        extra = sorted(names - set(rows))
        if strict:
            self.part.check(not extra, f"files in voice/ without a row after the next command: {extra}")
        else:
            self.leftovers_seen |= set(extra)

    # MARK: - Killing and checking

    def attack(self, name, arguments, calibrate, stdin=subprocess.DEVNULL):
        """Runs the command; kills it at a random moment unless calibrating."""
        if name.startswith("voice") and self.voice_dirty:
            self.settle_voice()
        return super().attack(name, self.app, arguments, calibrate, stdin)

    def memo_text(self, length):
        self.memo_sequence += 1
        marker = f"kill-memo-{self.memo_sequence:05d}-{random.randrange(1 << 30):09d}"
        body = "".join(random.choice("가나다라마바사 abcdefg 0123 ") for _ in range(length))
        return marker, marker + " " + body.strip()

    def check_memo(self, marker, text, result):
        rows = common.query(self.app.database, "SELECT text FROM memos WHERE substr(text, 1, ?) = ?",
                            (len(marker), marker))
        if not self.part.check(len(rows) <= 1, f"memo {marker} stored {len(rows)} times"):
            return
        if rows:
            self.part.check(rows[0][0] == text, f"memo {marker} stored with other text ({len(rows[0][0])} chars)")
            self.memos[marker] = text
            if result.status != 0:
                self.killed_but_applied += 1
        if result.status == 0:
            self.part.check(len(rows) == 1, f"memo add {marker} reported success but is not stored")

    def timers(self):
        result = self.app.run("timer", "list", "--all", "--json")
        if not self.part.check(result.status == 0, "timer list after a kill: " + result.describe()):
            return []
        return result.json

    def verify(self, final=False):
        lines = common.integrity(self.app.database)
        self.part.check(lines == ["ok"], f"integrity_check after round {self.part.rounds}: {lines[:3]}")
        done = {row[0] for row in common.query(self.app.database, "SELECT id FROM todos WHERE done_at IS NOT NULL")}
        lost = self.done_todos - done
        self.part.check(not lost, f"to-dos reported done are open again: {sorted(lost)[:10]}")
        if final or self.part.rounds % 10 == 0:
            stored = {text.split(" ", 1)[0]: text for (text,) in common.query(self.app.database, "SELECT text FROM memos")}
            for marker, text in self.memos.items():
                self.part.check(stored.get(marker) == text, f"memo {marker} lost or changed")
            timers = {timer["id"]: timer["state"] for timer in self.timers()}
            for label, timer_id in self.timer_labels.items():
                self.part.check(timer_id in timers, f"timer {label} ({timer_id}) lost")
            for timer_id in self.paused_timers:
                self.part.check(timers.get(timer_id) == "paused", f"paused timer {timer_id} is {timers.get(timer_id)}")
        if os.path.isdir(self.app.voice_directory) or self.voice_ids:
            self.check_voice_files(strict=not self.voice_dirty)
        home_temporaries = [name for name in os.listdir(self.app.home) if common.is_temporary_name(name)]
        self.part.check(not home_temporaries, f"temporary files in the data home: {home_temporaries}")

    def check_doctor(self):
        self.settle_voice()
        result = self.app.run("doctor", "--json")
        if result.status != 0:
            problems = [check for check in result.json["checks"] if check["status"] != "ok"] if result.stdout else []
            self.part.fail(f"doctor after round {self.part.rounds}: exit {result.status}: {problems}")


if __name__ == "__main__":
    main()
