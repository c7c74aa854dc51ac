"""Part 7: kill -9 while data moves in and out (backup, restore, export,
import, todo import), then check that every move happened whole or not at all.

Each round works on a fresh scratch data home (a copy of one made at the
start: to-dos, memos of Korean text, a running timer, 2 voice memos) and
kills one of these at a random moment within the time it took when it ran
uninterrupted (calibration, as part 1 does):
  - `restore BACKUP --force` over a home with other data: the items (uids,
    from `export`) are exactly the old ones or exactly the backup's; doctor
    is clean or reports only leftovers of the interrupted restore; after
    `voice list` and the restore run again, doctor is clean, the export
    equals the backup's and voice/ holds the backup's files byte for byte;
  - `restore BACKUP` into a new home: no database or a complete one; the
    restore run again (with --force when the first got far enough: counted)
    ends equal to the backup;
  - `backup DIR`: DIR is refused by `restore` (65, or 66 when it was never
    made) or restores completely and correctly; the source home is unchanged
    and doctor-clean;
  - `import EXPORT --audio DIR` into a home with data and `todo import
    --from todotxt FILE` (thousands of lines): the counts are the old ones
    or the old plus all of the file's; no voice row lacks its file; doctor
    is clean after the next writing voice command;
  - `export -o FILE`: FILE is absent, still its previous content, or a whole
    JSON document with the home's items.
"""

import hashlib
import json
import os
import random
import shutil
import time

import common
import media

KINDS = ("todos", "memos", "voice_memos", "timers")


def main():
    arguments = common.parse_arguments(__doc__)
    rounds = arguments.rounds or (20 if arguments.quick else 120)
    part = common.Part(7, "kill -9 during backup/restore/io", arguments)
    app = common.Memoapp(arguments.binary, os.path.join(arguments.work, "probe")).fresh()
    if not app.has_voice():
        part.skip("this build has no 'voice' command")
    moves = Moves(arguments, part)
    operations = [moves.restore_force, moves.restore_new, moves.backup, moves.import_export, moves.todo_import,
                  moves.export]
    for operation in operations:
        moves.round_folder = os.path.join(arguments.work, "calibration", operation.__name__)
        os.makedirs(moves.round_folder)
        operation(calibrate=True)
    moves.seen.clear()
    part.note(moves.calibration_note())
    for index in range(rounds):
        part.rounds += 1
        failures = len(part.failures)
        operation = operations[index % len(operations)] if index < len(operations) else random.choice(operations)
        moves.round_folder = os.path.join(arguments.work, f"round-{part.rounds:04d}")
        os.makedirs(moves.round_folder)
        operation()
        if len(part.failures) == failures:
            shutil.rmtree(moves.round_folder, ignore_errors=True)
        else:
            common.log(f"part 7: round {part.rounds} ({operation.__name__}) kept in {moves.round_folder}, "
                       f"seed {arguments.seed}")
    part.note(f"{moves.killed} killed, {moves.finished} finished before the kill")
    part.note("per command (runs/killed/finished): " + ", ".join(
        f"{name} {runs}/{killed}/{runs - killed}" for name, (runs, killed) in sorted(moves.per_command.items())))
    part.note("outcomes: " + ", ".join(f"{key} {value}" for key, value in sorted(moves.seen.items())))
    part.finish()


def digest(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def voice_files(home):
    """Name -> digest of every file in voice/ (temporaries included)."""
    folder = os.path.join(home, "voice")
    if not os.path.isdir(folder):
        return {}
    return {name: digest(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}


def age_temporaries(home):
    """Moves the mtime of hidden files in the home and voice/ an hour back, past
    memoapp's grace period for temporaries of a running command."""
    past = time.time() - 3600
    for folder in (home, os.path.join(home, "voice")):
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                if name.startswith("."):
                    os.utime(os.path.join(folder, name), (past, past))


class Moves(common.Attacker):
    def __init__(self, arguments, part):
        super().__init__(part)
        self.binary = arguments.binary
        self.work = arguments.work
        self.round_folder = os.path.join(self.work, "calibration")
        os.makedirs(self.round_folder, exist_ok=True)
        self.seen = {}
        self.sequence = 0
        quick = arguments.quick
        # The home every round starts from (A), the one the backup is made
        # from (B), the one the export comes from (C).
        self.template = self.make_home("template-a", "a", todos=600 if quick else 1500, memos=80, seconds=20)
        source = self.make_home("source-b", "b", todos=400, memos=60, seconds=40)
        self.backup_folder = os.path.join(self.work, "backup-b")
        common.Memoapp(self.binary, source).must("backup", self.backup_folder)
        self.backup_export = self.export_of(source)
        other = self.make_home("source-c", "c", todos=500, memos=60, seconds=20)
        self.export_file = os.path.join(self.work, "export-c.json")
        common.Memoapp(self.binary, other).must("export", "-o", self.export_file)
        self.export_audio = os.path.join(other, "voice")
        with open(self.export_file) as file:
            self.export_counts = {kind: len(items) for kind, items in json.load(file).items() if kind in KINDS}
        self.todo_file = os.path.join(self.work, "todo.txt")
        with open(self.todo_file, "w") as file:
            for index in range(3000):
                file.write(f"({'ABC'[index % 3]}) 할 일 {index} 장보기 +집 @밖 due:2026-12-{index % 28 + 1:02d}\n")

    # MARK: - Homes

    def make_home(self, name, letter, todos, memos, seconds):
        home = os.path.join(self.work, name)
        app = common.Memoapp(self.binary, home).fresh()
        lines = os.path.join(self.work, f"{name}.txt")
        with open(lines, "w") as file:
            for index in range(todos):
                file.write(f"{letter} 할 일 {index} 우유 사기 +장보기\n")
        app.must("todo", "import", "--from", "todotxt", lines)
        folder = os.path.join(self.work, f"{name}-memos")
        os.makedirs(folder)
        paths = []
        for index in range(memos):
            path = os.path.join(folder, f"memo-{index}.md")
            with open(path, "w") as file:
                file.write(f"# {letter} 메모 {index}\n\n" + "오늘 회의에서 정한 일: 보고서를 금요일까지 끝낸다. " * 20 + "\n")
            paths.append(path)
        app.must("memo", "import", *paths)
        app.must("timer", "start", "25m", "--label", f"{letter} 타이머")
        for index in range(2):
            wav = media.make_tone(os.path.join(self.work, f"{name}-{index}.wav"), seconds=seconds, rate=48000,
                                  channels=2, variant=ord(letter) * 10 + index)
            app.must("voice", "import", wav, "--title", f"{letter} 음성 {index}")
        return home

    def copy_home(self):
        home = os.path.join(self.round_folder, "home")
        shutil.copytree(self.template, home)
        return common.Memoapp(self.binary, home)

    def export_of(self, home):
        """The home's export without its moment, or None when it fails."""
        result = common.Memoapp(self.binary, home).run("export")
        if result.status != 0:
            return None
        document = json.loads(result.stdout)
        document.pop("exported_at", None)
        return document

    @staticmethod
    def uids(document):
        return {kind: sorted(item["uid"] for item in document[kind]) for kind in KINDS}

    def doctor_problems(self, app):
        """Doctor's problems as (check name, message); [] when it exits 0."""
        result = app.run("doctor", "--json")
        if result.status == 0:
            return []
        if not result.stdout:
            return [("doctor", result.describe())]
        return [(check["name"], problem["message"]) for check in result.json["checks"] if check["status"] != "ok"
                for problem in check["problems"]] or [("doctor", f"exit {result.status} with no problem listed")]

    def check_doctor(self, name, app, tolerate_leftovers=False):
        problems = self.doctor_problems(app)
        if tolerate_leftovers:
            allowed = [p for p in problems if p[0] == "temporary_files" or "no voice memo owns" in p[1]]
            for problem in allowed:
                key = "temporary files" if problem[0] == "temporary_files" else "voice files without a row"
                self.seen[key] = self.seen.get(key, 0) + 1
            problems = [p for p in problems if p not in allowed]
        self.part.check(not problems, f"{name}: doctor in {app.home}: {problems[:4]}")

    def check_voice_rows(self, name, app):
        """No voice memo row without its file."""
        if not os.path.exists(app.database):
            return
        rows = common.query(app.database, "SELECT file_name FROM voice_memos")
        missing = [row[0] for row in rows if not os.path.exists(os.path.join(app.voice_directory, row[0]))]
        self.part.check(not missing, f"{name}: voice rows without their file in {app.home}: {missing}")

    def settle_voice(self, name, app):
        """The next writing voice command (a tiny import), after ageing temporaries."""
        age_temporaries(app.home)
        self.sequence += 1
        small = os.path.join(self.round_folder, "settle.wav")
        media.make_tone(small, seconds=0.2, rate=8000, channels=1, variant=5000 + self.sequence)
        result = app.run("voice", "import", small, "--title", "settle")
        self.part.check(result.status == 0, f"{name}: the voice import after the kill: " + result.describe())

    # MARK: - Operations

    def restore_force(self, calibrate=False):
        app = self.copy_home()
        before = self.export_of(app.home)
        self.attack("restore_force", app, ["restore", self.backup_folder, "--force"], calibrate)
        after = self.export_of(app.home)
        if not self.part.check(after is not None, "restore_force: export fails after the kill"):
            return
        uids = self.uids(after)
        old, new = self.uids(before), self.uids(self.backup_export)
        self.part.check(uids == old or uids == new,
                        "restore_force: the items are a mix of the old and the backup's: " + ", ".join(
                            f"{k} {len(uids[k])} (old {len(old[k])}, backup {len(new[k])})" for k in KINDS))
        self.seen["restore --force: backup's items" if uids == new else "restore --force: old items"] = \
            self.seen.get("restore --force: backup's items" if uids == new else "restore --force: old items", 0) + 1
        self.check_voice_rows("restore_force", app)
        self.check_doctor("restore_force", app, tolerate_leftovers=True)
        result = app.run("voice", "list")
        self.part.check(result.status == 0, "restore_force: voice list after the kill: " + result.describe())
        age_temporaries(app.home)
        result = app.run("restore", self.backup_folder, "--force")
        self.part.check(result.status == 0, "restore_force: restore again: " + result.describe())
        self.check_restored("restore_force", app)

    def check_restored(self, name, app):
        self.check_doctor(name + " (restored again)", app)
        self.part.check(self.export_of(app.home) == self.backup_export,
                        f"{name}: the data home's export differs from the backup's")
        files = voice_files(app.home)
        expected = voice_files(self.backup_folder)
        self.part.check(files == expected, f"{name}: voice/ is not the backup's byte for byte: "
                                           f"{sorted(set(files) ^ set(expected)) or 'same names, other bytes'}")

    def restore_new(self, calibrate=False):
        app = common.Memoapp(self.binary, os.path.join(self.round_folder, "new-home"))
        self.attack("restore_new", app, ["restore", self.backup_folder], calibrate)
        if os.path.exists(app.database):
            lines = common.integrity(app.database)
            self.part.check(lines == ["ok"], f"restore_new: integrity_check after the kill: {lines[:3]}")
            after = self.export_of(app.home)
            self.part.check(after is not None and self.uids(after) == self.uids(self.backup_export),
                            "restore_new: the killed restore left an incomplete database")
            state = "database in place"
        else:
            files = [name for name in voice_files(app.home) if not name.startswith(".")]
            state = "voice files only" if files else "nothing usable"
        self.check_voice_rows("restore_new", app)
        age_temporaries(app.home)
        result = app.run("restore", self.backup_folder)
        if result.status == 5:
            state += ", needed --force"
            result = app.run("restore", self.backup_folder, "--force")
        key = "restore into a new home: " + state
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.part.check(result.status == 0, f"restore_new ({state}): restore again: " + result.describe()):
            self.check_restored("restore_new", app)

    def backup(self, calibrate=False):
        app = self.copy_home()
        before = self.export_of(app.home)
        folder = os.path.join(self.round_folder, "backup")
        self.attack("backup", app, ["backup", folder], calibrate)
        self.part.check(self.export_of(app.home) == before, "backup: the source home changed")
        self.check_doctor("backup", app)
        target = common.Memoapp(self.binary, os.path.join(self.round_folder, "restored"))
        result = target.run("restore", folder)
        key = f"backup then restore: exit {result.status}"
        self.seen[key] = self.seen.get(key, 0) + 1
        if result.status == 66:
            self.part.check(not os.path.exists(folder), "backup: restore says 66 but the folder exists")
        elif result.status == 0:
            self.part.check(self.export_of(target.home) == before, "backup: a restored backup differs from its source")
            source_files = {n: d for n, d in voice_files(app.home).items() if not n.startswith(".")}
            self.part.check(voice_files(target.home) == source_files, "backup: restored voice/ differs from the source")
            self.check_doctor("backup (restored)", target)
        else:
            self.part.check(result.status == 65, "backup: restoring the killed backup: " + result.describe())
            self.part.check(not os.path.exists(target.database) and not voice_files(target.home),
                            "backup: a refused restore left files in the new home")

    def import_export(self, calibrate=False):
        app = self.copy_home()
        before = self.export_of(app.home)
        self.attack("import", app, ["import", self.export_file, "--audio", self.export_audio], calibrate)
        self.check_counts("import", app, before, self.export_counts)

    def todo_import(self, calibrate=False):
        app = self.copy_home()
        before = self.export_of(app.home)
        self.attack("todo_import", app, ["todo", "import", "--from", "todotxt", self.todo_file], calibrate)
        self.check_counts("todo_import", app, before, {"todos": 3000})

    def check_counts(self, name, app, before, added):
        lines = common.integrity(app.database)
        self.part.check(lines == ["ok"], f"{name}: integrity_check after the kill: {lines[:3]}")
        after = self.export_of(app.home)
        if not self.part.check(after is not None, f"{name}: export fails after the kill"):
            return
        old = {kind: len(before[kind]) for kind in KINDS}
        new = {kind: len(after[kind]) for kind in KINDS}
        full = {kind: old[kind] + added.get(kind, 0) for kind in KINDS}
        self.part.check(new in (old, full), f"{name}: partly imported: {new} (before {old}, all {full})")
        key = f"{name}: " + ("nothing added" if new == old else "all added" if new == full else "partly added")
        self.seen[key] = self.seen.get(key, 0) + 1
        self.check_voice_rows(name, app)
        self.settle_voice(name, app)
        self.check_doctor(name, app)

    def export(self, calibrate=False):
        app = self.copy_home()
        expected = self.export_of(app.home)
        path = os.path.join(self.round_folder, "out", "export.json")
        os.makedirs(os.path.dirname(path))
        previous = None
        if random.random() < 0.5:
            previous = b'{"previous": "' + "이전 내용".encode() * 1000 + b'"}'
            with open(path, "wb") as file:
                file.write(previous)
        self.attack("export", app, ["export", "-o", path, "--force"], calibrate)
        if not os.path.exists(path):
            self.part.check(previous is None, "export: the previous file is gone")
            state = "absent"
        else:
            with open(path, "rb") as file:
                content = file.read()
            if previous is not None and content == previous:
                state = "previous content"
            else:
                state = "complete"
                try:
                    document = json.loads(content)
                    document.pop("exported_at", None)
                    self.part.check(document == expected, "export: a whole document with other content")
                except ValueError as error:
                    self.part.fail(f"export: a half file ({len(content)} bytes): {error}")
        leftovers = [name for name in os.listdir(os.path.dirname(path)) if name != "export.json"]
        if leftovers:
            state += " + a temporary beside it"
        self.seen["export: " + state] = self.seen.get("export: " + state, 0) + 1


if __name__ == "__main__":
    main()
