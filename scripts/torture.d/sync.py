"""Part 10: kill -9 during syncs, of a device or of the hub, then check that
nothing was lost and nothing doubled.

A hub (`memoapp serve` on loopback) and three devices. Every round makes a
few changes on a random device (to-dos added, to-dos finished, a memo's
lines added to, laps taken on and pauses of stopwatches any device started,
voice memos recorded: WAVs of a second, or of 8 MB so that kills land inside
their uploads), starts a `memoapp sync` of it, and SIGKILLs, after a random
delay up to a little past a sync's time, either that sync or (one round in
four) the hub, which is then started again (on another port: the devices follow it with
no full copy); one round in eight gives the device a new token first, so
the hub meets it anew and it sends a full copy. At the end every device syncs
twice, unkilled, and:
  - every device's to-dos and memos equal the hub's (by uid);
  - every to-do added anywhere is there exactly once (by its unique title);
  - every finished one is finished;
  - every word added to a memo is in it (one memo per device, edited only
    there, so no line merge can conflict);
  - every lap taken on any device is on the hub's stopwatch, once;
  - every voice memo recorded anywhere is on the hub once, with its audio,
    and `voice verify` passes everywhere (no stray blob, no damaged file);
  - PRAGMA integrity_check is ok in every home, and `memoapp doctor` passes.
"""

import json
import os
import random
import signal
import subprocess
import time
import wave

import common


class Hub:
    def __init__(self, app):
        self.app = app
        self.process = None
        self.url = None

    def start(self):
        self.process = subprocess.Popen([self.app.binary, "--json", "serve", "--listen", "127.0.0.1:0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.app.environment)
        self.url = json.loads(self.process.stdout.readline())["url"]

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def state(app):
    """A home's to-dos, memos and timers by uid, as its export has them, without what is each home's own."""
    document = json.loads(app.must("export").stdout)
    return {item["uid"]: {key: value for key, value in item.items() if key not in ("id", "updated_at", "todo_id", "file_name")}
            for kind in ("todos", "memos", "timers", "voice_memos") for item in document[kind]}


def write_wav(path, seconds, seed):
    """A mono 16-bit WAV of noise: its bytes (and checksum) differ with the seed."""
    generator = random.Random(seed)
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(44100)
        out.writeframes(generator.randbytes(int(44100 * seconds) * 2))


def main():
    arguments = common.parse_arguments(__doc__)
    rounds = arguments.rounds or (8 if arguments.quick else 80)
    part = common.Part(10, "kill -9 during sync", arguments)
    hub_app = common.Memoapp(arguments.binary, os.path.join(arguments.work, "hub")).fresh()
    hub = Hub(hub_app)
    hub.start()
    devices, tokens = [], []
    for index in range(3):
        device = common.Memoapp(arguments.binary, os.path.join(arguments.work, f"device{index}")).fresh()
        token = json.loads(hub_app.must("--json", "token", "create", f"device{index}").stdout)["token"]
        devices.append(device)
        tokens.append(token)
        device.must("memo", "add", f"memo of device {index}")
        device.must("timer", "start", "--label", f"stopwatch of device {index}")
        device.must("sync", "--server", hub.url, "--token", token)

    def sync(index, server=None):
        return devices[index].run("sync", "--server", server or hub.url, "--token", tokens[index])

    added, finished, words, laps, recorded = [], set(), {index: [] for index in range(3)}, {}, {}
    counter = 0
    calibration = sync(0).seconds
    try:
        for round_number in range(rounds):
            part.rounds += 1
            index = random.randrange(3)
            device = devices[index]
            for _ in range(random.randint(1, 20)):
                counter += 1
                roll = random.random()
                if roll < 0.5:
                    title = f"todo {counter} of device {index}"
                    device.must("todo", "add", title)
                    added.append(title)
                elif roll < 0.7 and added:
                    todos = json.loads(device.must("--json", "todo", "list").stdout)
                    if todos:
                        chosen = random.choice(todos)
                        device.must("todo", "done", str(chosen["id"]))
                        finished.add(chosen["title"])
                elif roll < 0.76:
                    title = f"recording {counter} of device {index}"
                    path = os.path.join(arguments.work, f"{counter}.wav")
                    write_wav(path, 95 if random.random() < 0.15 else 1, counter)
                    device.must("voice", "import", path, "--title", title)
                    os.remove(path)
                    recorded[title] = [m for m in json.loads(device.must("--json", "voice", "list").stdout)
                                       if m["title"] == title][0]["checksum"]
                elif roll < 0.85:
                    # Any device's stopwatch, as far as this device knows it.
                    stopwatches = [t for t in json.loads(device.must("--json", "timer", "list").stdout)
                                   if t["kind"] == "stopwatch"]
                    if stopwatches:
                        chosen = random.choice(stopwatches)
                        if chosen["state"] != "running":
                            device.must("timer", "resume", str(chosen["id"]))
                        elif random.random() < 0.7:
                            device.must("timer", "lap", str(chosen["id"]))
                            laps[chosen["uid"]] = laps.get(chosen["uid"], 0) + 1
                        else:
                            device.must("timer", "pause", str(chosen["id"]))
                else:
                    memo = [m for m in json.loads(device.must("--json", "memo", "list").stdout)
                            if m["preview"] == f"memo of device {index}"][0]
                    text = json.loads(device.must("--json", "memo", "show", str(memo["id"])).stdout)["text"]
                    word = f"w{counter}"
                    device.must("memo", "edit", str(memo["id"]), "--text", text + "\n" + word)
                    words[index].append(word)
            if round_number % 8 == 5:
                # A new token for the device: the hub meets it as another
                # device, refuses its next change number, and it sends a
                # full copy (the path a restored hub also takes).
                tokens[index] = json.loads(hub_app.must("--json", "token", "create",
                                                        f"device{index}-{round_number}").stdout)["token"]
            process = device.spawn("sync", "--server", hub.url, "--token", tokens[index])
            time.sleep(random.uniform(0, calibration * 1.5 + 0.05))
            if round_number % 4 == 3:
                hub.kill()
                process.wait()
                hub.start()
            else:
                process.send_signal(signal.SIGKILL)
                process.wait()
        for _ in range(2):
            for index in range(3):
                result = sync(index)
                part.check(result.status == 0, f"the last syncs must succeed: {result.describe()}")
        hub_state = state(hub_app)
        for index, device in enumerate(devices):
            part.check(state(device) == hub_state, f"device {index} differs from the hub")
        todos = json.loads(hub_app.must("--json", "todo", "list", "--all").stdout)
        titles = [todo["title"] for todo in todos]
        for title in added:
            part.check(titles.count(title) == 1, f"{title!r} is there {titles.count(title)} times")
        for todo in todos:
            if todo["title"] in finished:
                part.check(todo["is_done"], f"{todo['title']!r} was finished and is open")
        hub_timers = {t["uid"]: t for t in json.loads(hub_app.must("--json", "timer", "list", "--all").stdout)}
        for uid, count in laps.items():
            held = len(hub_timers.get(uid, {}).get("laps", []))
            part.check(held == count, f"stopwatch {uid}: {count} laps taken, {held} on the hub")
        hub_voice = json.loads(hub_app.must("--json", "voice", "list").stdout)
        for title, checksum in recorded.items():
            held = [m["checksum"] for m in hub_voice if m["title"] == title]
            part.check(held == [checksum], f"{title!r}: recorded with {checksum}, the hub holds {held}")
        memos = {m["uid"]: json.loads(hub_app.must("--json", "memo", "show", str(m["id"])).stdout)["text"]
                 for m in json.loads(hub_app.must("--json", "memo", "list").stdout)}
        everything = "\n".join(memos.values())
        for index, written in words.items():
            for word in written:
                part.check(word in everything.split("\n"), f"{word} (device {index}) is in no memo")
        for app in [hub_app] + devices:
            part.check(common.integrity(app.database) == ["ok"], f"{app.home}: integrity check failed")
            part.check(app.run("doctor").status == 0, f"{app.home}: doctor found a problem")
            verify = app.run("voice", "verify")
            part.check(verify.status == 0, f"{app.home}: voice verify: {verify.describe()}")
        part.note(f"{len(added)} to-dos, {len(finished)} finished, {sum(map(len, words.values()))} memo lines, "
                  f"{sum(laps.values())} laps, {len(recorded)} recordings, "
                  f"{rounds // 4} hub kills")
    finally:
        if hub.process and hub.process.poll() is None:
            hub.kill()
    part.finish()


if __name__ == "__main__":
    main()
