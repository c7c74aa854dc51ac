"""Part 9: a restore racing every voice writer, and a second restore.

A restore puts the backup's audio into voice/ before its database goes in;
until then those files have no rows. Each round restores a backup (with
audio) over a fresh copy of a home that has its own voice memos, and at a
random moment within the restore's time starts one of: `voice import`,
`voice rm`, `voice trim`, `voice record`, or a second `restore --force` of
the same backup. After both end:
  - every voice memo in the database has its file, byte for byte as its
    checksum says (`voice verify` exits 0: no missing file, no stray one);
  - when the restore succeeded and the racer was not a second restore, the
    backup's memos are all there, each with its file;
  - doctor is clean.
Counted: files lost (a row without its file) and orphans (a file without a
row), both of which must be 0.
"""

import json
import os
import random
import shutil
import time

import common
import media


def main():
    arguments = common.parse_arguments(__doc__)
    rounds = arguments.rounds or (12 if arguments.quick else 200)
    part = common.Part(9, "restore racing voice writers", arguments)
    probe = common.Memoapp(arguments.binary, os.path.join(arguments.work, "probe")).fresh()
    if not probe.has_voice():
        part.skip("this build has no 'voice' command")
    race = Race(arguments, part)
    part.note(f"restore takes {race.restore_seconds * 1000:.0f} ms when alone")
    for index in range(rounds):
        part.rounds += 1
        failures = len(part.failures)
        racer = race.racers[index % len(race.racers)]
        race.round_folder = os.path.join(arguments.work, f"round-{part.rounds:04d}")
        os.makedirs(race.round_folder)
        race.run(racer)
        if len(part.failures) == failures:
            shutil.rmtree(race.round_folder, ignore_errors=True)
        else:
            common.log(f"part 9: round {part.rounds} ({racer.__name__}) kept in {race.round_folder}, "
                       f"seed {arguments.seed}")
    part.note(f"lost files {race.lost}, orphans {race.orphans}; racers: " + ", ".join(
        f"{name} {count}" for name, count in sorted(race.per_racer.items())))
    part.finish()


class Race:
    def __init__(self, arguments, part):
        self.binary = arguments.binary
        self.work = arguments.work
        self.part = part
        self.lost = 0
        self.orphans = 0
        self.per_racer = {}
        seconds = 20 if arguments.quick else 60
        # The backup: a home with several long recordings, so the restore's
        # audio takes long enough for a racer to land inside it.
        source = common.Memoapp(self.binary, os.path.join(self.work, "source")).fresh()
        for index in range(3):
            wav = media.make_tone(os.path.join(self.work, f"source-{index}.wav"), seconds=seconds, rate=48000,
                                  channels=2, variant=index + 1)
            source.must("voice", "import", wav, "--title", f"backup {index}")
        self.backup = os.path.join(self.work, "backup")
        source.must("backup", self.backup)
        self.backup_checksums = {memo["checksum"] for memo in source.must("voice", "list", "--json").json}
        # The home every round starts from: voice memos of its own.
        self.template = os.path.join(self.work, "template")
        template = common.Memoapp(self.binary, self.template).fresh()
        for index in range(2):
            wav = media.make_tone(os.path.join(self.work, f"template-{index}.wav"), seconds=4, variant=index + 20)
            template.must("voice", "import", wav, "--title", f"home {index}")
        self.small = media.make_tone(os.path.join(self.work, "small.wav"), seconds=2, variant=40)
        self.raw = media.make_raw(os.path.join(self.work, "small.raw"), seconds=2)
        self.racers = [self.voice_import, self.voice_rm, self.voice_trim, self.voice_record, self.second_restore]
        self.round_folder = os.path.join(self.work, "calibration")
        os.makedirs(self.round_folder)
        app = self.copy_home()
        started = time.monotonic()
        app.must("restore", self.backup, "--force")
        self.restore_seconds = time.monotonic() - started

    def copy_home(self):
        home = os.path.join(self.round_folder, "home")
        shutil.copytree(self.template, home)
        return common.Memoapp(self.binary, home)

    # MARK: - Racers (each returns the process it started)

    def voice_import(self, app):
        return app.spawn("voice", "import", self.small, "--allow-duplicate")

    def voice_rm(self, app):
        return app.spawn("voice", "rm", "1")

    def voice_trim(self, app):
        return app.spawn("voice", "trim", "2", "--start", "0.5", "--end", "1.5")

    def voice_record(self, app):
        with open(self.raw, "rb") as raw:
            return app.spawn("voice", "record", "--title", "racing", stdin=raw)

    def second_restore(self, app):
        return app.spawn("restore", self.backup, "--force")

    # MARK: - A round

    def run(self, racer):
        self.per_racer[racer.__name__] = self.per_racer.get(racer.__name__, 0) + 1
        app = self.copy_home()
        restore = app.spawn("restore", self.backup, "--force")
        time.sleep(random.uniform(0, 1.1 * self.restore_seconds))
        other = racer(app)
        restored_out, restored_err = restore.communicate()
        other.communicate()
        if restore.returncode != 0:
            self.part.fail(f"{racer.__name__}: restore failed ({restore.returncode}): "
                           + restored_err.decode(errors="replace")[-300:])
        self.check(app, racer, restore.returncode == 0)

    def check(self, app, racer, restored):
        listed = app.run("voice", "list", "--json")
        if listed.status != 0:
            self.part.fail(f"{racer.__name__}: voice list failed: " + listed.describe())
            return
        memos = listed.json
        folder = app.voice_directory
        names = set(name for name in os.listdir(folder) if not name.startswith(".")) if os.path.isdir(folder) else set()
        owned = set(os.path.basename(memo["file"]) for memo in memos)
        lost = owned - names
        orphans = names - owned
        self.lost += len(lost)
        self.orphans += len(orphans)
        self.part.check(not lost, f"{racer.__name__}: memos without their file: {sorted(lost)}")
        self.part.check(not orphans, f"{racer.__name__}: files without a memo: {sorted(orphans)}")
        verify = app.run("voice", "verify", "--json")
        self.part.check(verify.status == 0, f"{racer.__name__}: voice verify: {verify.stdout[-400:]!r}")
        if restored and racer != self.second_restore:
            checksums = {memo["checksum"] for memo in memos}
            missing = self.backup_checksums - checksums
            # A racer that ran after the restore may remove or trim one of the
            # backup's memos (that is its job); the rest must all be there.
            allowed = 1 if racer in (self.voice_rm, self.voice_trim) else 0
            self.part.check(len(missing) <= allowed,
                            f"{racer.__name__}: the restore's memos are not all there: {len(missing)} missing")
        doctor = app.run("doctor", "--json")
        if doctor.status != 0:
            problems = [problem["message"] for check in doctor.json.get("checks", [])
                        for problem in check.get("problems", [])] if doctor.stdout else [doctor.describe()]
            self.part.fail(f"{racer.__name__}: doctor: {problems}")


if __name__ == "__main__":
    main()
