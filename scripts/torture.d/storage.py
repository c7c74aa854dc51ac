"""Part 3: the data home on a full filesystem and on a read-only one.

Full: a small tmpfs holds the data home; a filler file takes all its room
but 0 B, 4 KiB, 16 KiB, 64 KiB or 256 KiB, and each writing command runs.
Each must either succeed in full or fail with exit 74 and a message that
says the disk is full (with no room at all it must fail); either way
nothing is half stored, integrity_check is ok once room returns, and the
next command works.

Read-only: the tmpfs is remounted read-only. Every writing command must
exit 74 saying so, reads may work or exit 74, nothing crashes, and after a
remount read-write everything is as it was and writes work again.

Needs root (mount). When mount is refused, the part says it could not run.
"""

import errno
import json
import os
import subprocess

import common
import media

LEVELS = [0, 4096, 16384, 65536, 262144]


def main():
    arguments = common.parse_arguments(__doc__)
    part = common.Part(3, "full and read-only storage", arguments)
    mount_point = os.path.join(arguments.work, "mnt")
    os.makedirs(mount_point, exist_ok=True)
    refusal = mount(mount_point, "size=8m")
    if refusal:
        part.skip(f"could not run: mount -t tmpfs refused ({refusal})")
    try:
        app = common.Memoapp(arguments.binary, os.path.join(mount_point, "home")).fresh()
        storage = Storage(app, part, arguments, mount_point)
        storage.seed()
        storage.full_disk(LEVELS[:2] if arguments.quick else LEVELS)
        storage.read_only()
    finally:
        subprocess.run(["umount", "-l", mount_point], capture_output=True)
    part.finish()


def mount(mount_point, options):
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mount_point], capture_output=True)
    return None if result.returncode == 0 else result.stderr.decode("utf-8", "replace").strip()


class Storage:
    def __init__(self, app, part, arguments, mount_point):
        self.app = app
        self.part = part
        self.arguments = arguments
        self.mount_point = mount_point
        self.sequence = 0
        self.has_voice = app.has_voice()
        if not self.has_voice:
            part.note("this build has no 'voice' command: voice import not exercised")

    def seed(self):
        for index in range(20):
            self.app.must("todo", "add", f"storage todo {index}", "--tag", "seed")
        for index in range(5):
            self.app.must("memo", "add", f"storage memo {index}")
        self.app.must("timer", "start", "1h", "--label", "storage")

    def snapshot(self):
        """Everything stored, as rows (read with memoapp's own lists)."""
        todos = self.app.must("todo", "list", "--all", "--json").json
        memos = [self.app.must("memo", "show", str(memo["id"]), "--json").json
                 for memo in self.app.must("memo", "list", "--json").json]
        # A running timer's elapsed and remaining move with the clock: keep what a write changes.
        timers = [{key: timer[key] for key in ("id", "label", "state", "kind", "duration")}
                  for timer in self.app.must("timer", "list", "--all", "--json").json]
        voice = self.app.must("voice", "list", "--json").json if self.has_voice else []
        return {"todos": todos, "memos": memos, "timers": timers, "voice": voice}

    # MARK: - The writing commands, each returning (arguments, stdin, how to find its effect)

    def writes(self):
        self.sequence += 1
        marker = f"storage-{self.sequence}"
        big = (marker + " " + "가득 찬 디스크 " * 40_000).encode("utf-8")   # ~800 KB
        open_ids = [str(todo["id"]) for todo in self.app.must("todo", "list", "--json").json[:3]]
        commands = [
            ("todo add", ["todo", "add", marker, "--tag", "full", "--json"], b""),
            ("todo done", ["todo", "done", *open_ids, "--json"], b""),
            ("memo add 800 KB", ["memo", "add", "--json"], big),
            ("timer start", ["timer", "start", "10m", "--label", marker, "--json"], b""),
        ]
        if self.has_voice:
            path = os.path.join(self.arguments.work, "storage.wav")
            media.make_tone(path, seconds=8, rate=32000, channels=1, variant=self.sequence)
            commands.append(("voice import 500 KB", ["voice", "import", path, "--title", marker, "--json"], b""))
        return marker, commands

    # MARK: - Full

    def fill(self, leave):
        """Takes all the room on the mount but `leave` bytes; returns the filler's path."""
        path = os.path.join(self.mount_point, "filler")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            # Large pieces, then page-sized ones, so that the mount is full to the page.
            for piece in (b"\0" * 65536, b"\0" * 4096, b"\0"):
                try:
                    while True:
                        os.write(descriptor, piece)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
        finally:
            os.close(descriptor)
        if leave:
            size = os.path.getsize(path)
            os.truncate(path, max(0, size - leave))
        return path

    def full_disk(self, levels):
        self.part.rounds += 1
        filler = self.fill(0)
        doctor = self.app.run("doctor")
        os.remove(filler)
        self.part.check(doctor.status in (1, 74) and b"full" in doctor.stdout,
                        "doctor on a full disk: " + doctor.describe() + doctor.stdout.decode("utf-8", "replace"))
        for leave in levels:
            marker, commands = self.writes()
            for name, arguments, stdin in commands:
                self.part.rounds += 1
                before = self.snapshot()
                filler = self.fill(leave)
                result = self.app.run(*arguments, input=stdin)
                os.remove(filler)
                label = f"{name} with {leave} B free"
                self.judge(label, result, before, expect_failure=(leave == 0), words=(b"full", b"space"))
                self.next_command_works(label)

    # MARK: - Read-only

    def read_only(self):
        before = self.snapshot()
        marker, commands = self.writes()
        remount = subprocess.run(["mount", "-o", "remount,ro", self.mount_point], capture_output=True)
        if remount.returncode != 0:
            self.part.note("could not remount read-only: " + remount.stderr.decode().strip())
            return
        try:
            for name, arguments, stdin in commands:
                self.part.rounds += 1
                result = self.app.run(*arguments, input=stdin)
                self.judge(f"{name} on a read-only home", result, None, expect_failure=True,
                           words=(b"read-only", b"readonly", b"read only"), can_read=False)
            for arguments in [["todo", "list", "--all"], ["memo", "list"], ["search", "storage"], ["timer", "list"],
                              ["onboard", "status"], ["doctor"]]:
                self.part.rounds += 1
                result = self.app.run(*arguments)
                allowed = (0, 1, 74) if arguments == ["doctor"] else (0, 74)
                self.part.check(not result.crashed and result.status in allowed,
                                "read on a read-only home: " + result.describe())
                if result.status == 74 and arguments != ["doctor"]:
                    self.check_message(result, f"{' '.join(arguments)} on a read-only home",
                                       (b"read-only", b"readonly", b"read only"))
                elif arguments == ["doctor"]:
                    self.part.check(b"read-only" in result.stdout, "doctor on a read-only home does not say so: "
                                    + result.stdout.decode("utf-8", "replace"))
        finally:
            subprocess.run(["mount", "-o", "remount,rw", self.mount_point], capture_output=True)
        lines = common.integrity(self.app.database)
        self.part.check(lines == ["ok"], f"after the read-only home: integrity_check {lines[:3]}")
        after = self.snapshot()
        self.part.check(after == before, "a read-only home changed what is stored")
        self.next_command_works("read-only")

    # MARK: - Judging

    def judge(self, label, result, before, expect_failure, words, can_read=True):
        if result.crashed or result.status not in (0, 74):
            self.part.fail(f"{label}: {result.describe()}")
            return
        if expect_failure and result.status == 0:
            self.part.fail(f"{label}: succeeded where nothing could be written")
        if result.status == 74:
            self.check_message(result, label, words)
        if not can_read:
            return  # checked once the disk is writable again
        lines = common.integrity(self.app.database)
        self.part.check(lines == ["ok"], f"{label}: integrity_check {lines[:3]}")
        if before is not None and result.status == 74:
            after = self.snapshot()
            self.part.check(after == before, f"{label}: failed with 74 but changed what is stored")

    def check_message(self, result, label, words):
        text = result.stderr.decode("utf-8", "replace")
        if "--json" in result.arguments:
            try:
                error = json.loads(text)["error"]
                self.part.check(error["code"] == "storage", f"{label}: error code {error['code']}")
                text = error["message"]
            except (ValueError, KeyError, TypeError):
                self.part.fail(f"{label}: stderr is not one JSON error: {text!r}")
        else:
            lines = text.strip().splitlines()
            self.part.check(len(lines) == 1 and lines[0].startswith("memoapp: "),
                            f"{label}: the message is not one 'memoapp: ' line: {text!r}")
        if words:
            self.part.check(any(word.decode() in text.lower() for word in words),
                            f"{label}: the message does not say why: {text.strip()!r}")

    def next_command_works(self, label):
        self.sequence += 1
        result = self.app.run("todo", "add", f"after {label} {self.sequence}", "--json")
        self.part.check(result.status == 0, f"after {label}, the next command: {result.describe()}")
        doctor = self.app.run("doctor")
        self.part.check(doctor.status == 0, f"after {label}, doctor: {doctor.stdout.decode('utf-8', 'replace')}")


if __name__ == "__main__":
    main()
