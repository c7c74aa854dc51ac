"""Part 4: a corrupt database.

A data home with to-dos, memos, timers (and voice memos when the build has
them) is closed, and its memoapp.db damaged in many ways: truncated at
several sizes, overwritten with garbage (whole, or keeping the header),
page 1 zeroed, header fields edited, random pages overwritten. Every
command then runs on its own fresh copy of the damaged file.

  - Never a crash (a signal, a Swift trap): every exit is a chosen one.
  - Damage memoapp cannot open past (the header, page 1, a file that is
    not SQLite): every command exits 74 with one clear line that points at
    'memoapp doctor', and doctor exits 74.
  - Damage deeper inside: a command may work (it did not touch the damage)
    or exit 74 with a clear line; doctor must not say all is well when
    SQLite's own integrity_check (run here, outside memoapp) finds a fault.
"""

import os
import random
import shutil

import common


def main():
    arguments = common.parse_arguments(__doc__)
    part = common.Part(4, "corrupt database", arguments)
    app = common.Memoapp(arguments.binary, os.path.join(arguments.work, "home")).fresh()
    build(app, arguments)
    good = os.path.join(arguments.work, "good.db")
    shutil.copyfile(app.database, good)
    size = os.path.getsize(good)
    page = common.query(good, "PRAGMA page_size")[0][0]
    damages = make_damages(good, size, page, arguments.work, quick=arguments.quick)
    commands = command_list(app)
    outcomes = {"74": 0, "0": 0}
    for name, damaged, is_severe in damages:
        # Doctor must find what SQLite's own check finds, and a cut-short file.
        sqlite_faults = common.integrity(damaged) != ["ok"] or name.startswith("truncated")
        for arguments_list in commands:
            part.rounds += 1
            shutil.copyfile(damaged, app.database)
            for suffix in ("-wal", "-shm"):
                if os.path.exists(app.database + suffix):
                    os.remove(app.database + suffix)
            result = app.run(*arguments_list, timeout=30)
            label = f"{name}: memoapp {' '.join(arguments_list)}"
            judge(part, label, result, is_severe, sqlite_faults, outcomes)
    part.note(f"{len(damages)} kinds of damage x {len(commands)} commands; "
              f"{outcomes['74']} runs exited 74, {outcomes['0']} ran unharmed past damage they did not touch")
    part.finish()


def build(app, arguments):
    for index in range(60):
        app.must("todo", "add", f"corrupt todo {index} " + "내용 " * (index % 30), "--tag", f"t{index % 4}")
    app.must("todo", "done", "1", "2", "3")
    for index in range(30):
        app.must("memo", "add", f"corrupt memo {index} " + "본문 text " * (index * 20))
    app.must("timer", "start", "1h", "--label", "corrupt")
    if app.has_voice():
        import media
        path = os.path.join(arguments.work, "corrupt.wav")
        media.make_tone(path, seconds=1, rate=8000)
        app.must("voice", "import", path, "--title", "corrupt voice")


def command_list(app):
    commands = [["onboard", "status"], ["todo", "list", "--all"], ["todo", "add", "after damage"],
                ["todo", "done", "4", "5"], ["memo", "list"], ["memo", "add", "after damage"], ["memo", "show", "2"],
                ["search", "corrupt"], ["timer", "list", "--all"], ["timer", "start", "5m"], ["--json", "todo", "list"],
                [], ["doctor"]]
    if app.has_voice():
        commands += [["voice", "list"], ["voice", "verify"]]
    return commands


def make_damages(good, size, page, work, quick):
    """(name, path of the damaged copy, whether memoapp cannot open past it)."""
    folder = os.path.join(work, "damaged")
    os.makedirs(folder, exist_ok=True)
    original = open(good, "rb").read()
    generator = random.Random(size)
    damages = []

    def add(name, content, is_severe):
        path = os.path.join(folder, name.replace(" ", "-") + ".db")
        with open(path, "wb") as file:
            file.write(content)
        damages.append((name, path, is_severe))

    for length in ([50, page, size // 2] if quick else [1, 50, 99, 100, 1000, page, 2 * page, size // 2,
                                                          size - page, size - 1]):
        add(f"truncated to {length} B", original[:length], length <= page)
    add("garbage", bytes(generator.getrandbits(8) for _ in range(size)), True)
    add("text file", b"These are meeting notes, not a database.\n" * 100, True)
    if not quick:
        add("garbage after the header", original[:100] + bytes(generator.getrandbits(8) for _ in range(size - 100)),
            True)
        add("page 1 zeroed after the header", original[:100] + bytes(page - 100) + original[page:], True)
        add("schema page garbage", original[:100] + bytes(generator.getrandbits(8) for _ in range(page - 100))
            + original[page:], True)
        # Header fields (https://www.sqlite.org/fileformat.html#the_database_header).
        add("page size field invalid", patch(original, 16, b"\x00\x03"), True)
        add("write version field unknown", patch(original, 18, b"\x07\x07"), True)
        add("schema format field unknown", patch(original, 44, b"\x00\x00\x00\x09"), True)
        add("first page header type garbage", patch(original, 100, b"\x77"), True)
    pages = size // page
    for round_number in range(2 if quick else 8):
        content = bytearray(original)
        for _ in range(generator.randint(1, 6)):
            number = generator.randrange(1, pages)   # never page 1: that is the severe case above
            content[number * page:(number + 1) * page] = bytes(generator.getrandbits(8) for _ in range(page))
        add(f"random pages garbage {round_number}", bytes(content), False)
    return damages


def patch(content, offset, data):
    return content[:offset] + data + content[offset + len(data):]


def judge(part, label, result, is_severe, sqlite_faults, outcomes):
    if result.crashed or result.timed_out:
        part.fail(f"{label}: crashed or hung: {result.describe()}")
        return
    is_doctor = "doctor" in result.arguments
    allowed = (0, 1, 74) if is_doctor else (0, 74)
    if is_severe:
        allowed = (74,)
    if not part.check(result.status in allowed, f"{label}: exit {result.status}, expected {allowed}: "
                      + result.describe()):
        return
    outcomes["74" if result.status == 74 else "0"] += 1 if not is_doctor else 0
    if is_doctor:
        part.check(not (sqlite_faults and result.status == 0), f"{label}: doctor says all is well on a damaged file")
        return
    if result.status == 74:
        text = result.stderr.decode("utf-8", "replace")
        if "--json" in result.arguments:
            part.check(text.startswith('{"error":{"code":"storage"'), f"{label}: not a JSON storage error: {text!r}")
        else:
            lines = text.strip().splitlines()
            part.check(len(lines) == 1 and lines[0].startswith("memoapp: "), f"{label}: not one clear line: {text!r}")
        if is_severe:
            part.check("memoapp doctor" in text, f"{label}: the message does not point at doctor: {text.strip()!r}")


if __name__ == "__main__":
    main()
