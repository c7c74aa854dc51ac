"""Part 2: many memoapp processes writing at once.

8 workers each run 250 `todo add` one after another, while 4 workers run
`memo add` and 2 run `voice import` (when the build has voice memos), all
on one data home. Every command must succeed (no "database is locked" or
any other error reaching the user), and afterwards every item must be
stored exactly once, with integrity_check ok and doctor content.
"""

import os
import threading

import common
import media


def main():
    arguments = common.parse_arguments(__doc__)
    scale = 0.1 if arguments.quick else 1.0
    todo_workers, todos_each = 8, max(5, int(250 * scale))
    memo_workers, memos_each = 4, max(3, int(100 * scale))
    voice_workers, voices_each = 2, max(2, int(15 * scale))
    part = common.Part(2, "concurrent writers", arguments)
    app = common.Memoapp(arguments.binary, os.path.join(arguments.work, "home")).fresh()
    has_voice = app.has_voice()
    if not has_voice:
        part.note("this build has no 'voice' command: no voice import workers")
    audio = []
    if has_voice:
        for worker in range(voice_workers):
            for index in range(voices_each):
                path = os.path.join(arguments.work, f"voice-{worker}-{index}.wav")
                media.make_tone(path, seconds=1.5, rate=16000, variant=1000 + worker * 100 + index)
                audio.append((worker, index, path))

    lock = threading.Lock()
    results = []

    def record(result):
        with lock:
            results.append(result)

    def todo_worker(worker):
        for index in range(todos_each):
            record(app.run("todo", "add", f"concurrent todo {worker}-{index}", "--tag", f"w{worker}", "--json"))

    def memo_worker(worker):
        for index in range(memos_each):
            text = f"concurrent memo {worker}-{index}\n" + "메모 본문 " * (index % 50)
            record(app.run("memo", "add", "--json", input=text.encode("utf-8")))

    def voice_worker(worker):
        for _, index, path in (item for item in audio if item[0] == worker):
            record(app.run("voice", "import", path, "--title", f"concurrent voice {worker}-{index}", "--json"))

    threads = [threading.Thread(target=todo_worker, args=(worker,)) for worker in range(todo_workers)]
    threads += [threading.Thread(target=memo_worker, args=(worker,)) for worker in range(memo_workers)]
    if has_voice:
        threads += [threading.Thread(target=voice_worker, args=(worker,)) for worker in range(voice_workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    part.rounds = len(results)
    for result in results:
        part.check(result.status == 0, result.describe())
        part.check(b"locked" not in result.stderr and b"busy" not in result.stderr.lower(),
                   "a lock reached the user: " + result.describe())

    titles = [row[0] for row in common.query(app.database, "SELECT title FROM todos")]
    expected = {f"concurrent todo {w}-{i}" for w in range(todo_workers) for i in range(todos_each)}
    check_exactly_once(part, "to-do", titles, expected)
    texts = [row[0].split("\n", 1)[0] for row in common.query(app.database, "SELECT text FROM memos")]
    expected = {f"concurrent memo {w}-{i}" for w in range(memo_workers) for i in range(memos_each)}
    check_exactly_once(part, "memo", texts, expected)
    tags = common.query(app.database, "SELECT count(*) FROM todo_tags")[0][0]
    part.check(tags == todo_workers * todos_each, f"{tags} tag rows for {todo_workers * todos_each} to-dos")
    if has_voice:
        voice = [row[0] for row in common.query(app.database, "SELECT title FROM voice_memos")]
        expected = {f"concurrent voice {w}-{i}" for w, i, _ in audio}
        check_exactly_once(part, "voice memo", voice, expected)
        files = sorted(name for name in os.listdir(app.voice_directory))
        names = sorted(row[0] for row in common.query(app.database, "SELECT file_name FROM voice_memos"))
        part.check(files == names, f"voice/ holds {len(files)} files for {len(names)} rows")
    lines = common.integrity(app.database)
    part.check(lines == ["ok"], f"integrity_check: {lines[:3]}")
    doctor = app.run("doctor")
    part.check(doctor.status == 0, "doctor: " + doctor.stdout.decode("utf-8", "replace"))
    slowest = max(result.seconds for result in results)
    part.note(f"{len(results)} commands from {len(threads)} workers; slowest command {slowest:.2f} s")
    part.finish()


def check_exactly_once(part, kind, stored, expected):
    counts = {}
    for item in stored:
        counts[item] = counts.get(item, 0) + 1
    missing = sorted(expected - counts.keys())
    doubled = sorted(item for item, count in counts.items() if count > 1)
    unexpected = sorted(counts.keys() - expected)
    part.check(not missing, f"{len(missing)} {kind}s missing, e.g. {missing[:3]}")
    part.check(not doubled, f"{len(doubled)} {kind}s stored twice, e.g. {doubled[:3]}")
    part.check(not unexpected, f"{len(unexpected)} unexpected {kind}s, e.g. {unexpected[:3]}")


if __name__ == "__main__":
    main()
