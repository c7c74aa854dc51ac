"""Part 5: malformed audio, imported one file at a time into an
AddressSanitizer build of memoapp.

Seeds: short WAV (mono and stereo), FLAC (16 and 24 bit), Ogg Vorbis, MP3,
AIFF, CAF and AU files made with sox (ffmpeg for MP3). Each mutant is a
seed with bit flips, a truncation, header edits (fields set to 0, 1, -1,
huge or random, in the first 128 bytes where the headers live), a zeroed
or duplicated range, or a mix. Each is imported alone (5 s limit):

  - no crash: no signal, no sanitizer report, no Swift trap;
  - no hang: every import ends within 5 s;
  - exit 0 (the mutant still decodes; the memo is stored and removed
    again), or exit 65 with one clear line and nothing stored: the
    voice_memos rows and the voice/ folder are as before.
"""

import glob
import os
import random
import shutil

import common
import media


def main():
    arguments = common.parse_arguments(__doc__)
    count = arguments.rounds or (60 if arguments.quick else 1000)
    part = common.Part(5, "malformed audio (ASan)", arguments)
    binary = arguments.asan_binary or arguments.binary
    if not arguments.asan_binary:
        part.note("no AddressSanitizer build given: using the plain binary")
    reports = os.path.join(arguments.work, "asan")
    os.makedirs(reports, exist_ok=True)
    # Reports go to files: the voice commands point fd 2 at /dev/null while
    # codecs run, which would swallow a report printed there. Leaks are not
    # checked: libsndfile 1.2.0 leaks a vorbis_info on some malformed Ogg
    # headers (the voice module's fuzz notes), which is not memory corruption.
    environment = {"ASAN_OPTIONS": f"log_path={reports}/report:detect_leaks=0:exitcode=99:abort_on_error=0"}
    app = common.Memoapp(binary, os.path.join(arguments.work, "home"), environment).fresh()
    if not app.has_voice():
        part.skip("could not run: this build has no 'voice' command")
    seeds = media.make_seeds(os.path.join(arguments.work, "seeds"))
    part.note("seeds: " + ", ".join(sorted(os.path.basename(seed) for seed in seeds)))
    mutants = os.path.join(arguments.work, "mutants")
    os.makedirs(mutants, exist_ok=True)
    kept = os.path.join(arguments.work, "kept")
    tally = {"accepted": 0, "refused": 0}
    for number in range(count):
        part.rounds += 1
        seed = random.choice(seeds)
        data, how = mutate(open(seed, "rb").read())
        path = os.path.join(mutants, f"mutant{os.path.splitext(seed)[1]}")
        with open(path, "wb") as file:
            file.write(data)
        before_rows = rows(app)
        before_files = files(app)
        result = app.run("voice", "import", path, "--json", timeout=5)
        label = f"mutant {number} ({os.path.basename(seed)}: {how})"
        asan_reports = glob.glob(os.path.join(reports, "report*"))
        failed = False
        if result.timed_out:
            failed = not part.check(False, f"{label}: hung past 5 s")
        elif asan_reports or result.status == 99 or result.crashed:
            failed = not part.check(False, f"{label}: crashed: {result.describe()} {asan_summary(asan_reports)}")
            for report in asan_reports:
                shutil.move(report, os.path.join(arguments.work, f"asan-{number}-{os.path.basename(report)}"))
        elif result.status == 0:
            tally["accepted"] += 1
            memo = result.json
            failed = not part.check(len(rows(app)) == len(before_rows) + 1, f"{label}: accepted but not stored")
            removed = app.run("voice", "rm", str(memo["id"]))
            failed |= not part.check(removed.status == 0, f"{label}: voice rm after: {removed.describe()}")
        elif result.status == 65:
            tally["refused"] += 1
            message = result.stderr.decode("utf-8", "replace")
            failed = not part.check(message.startswith('{"error":{"code":"bad_input"'),
                                    f"{label}: refusal is not one bad_input error: {message!r}")
            failed |= not part.check(rows(app) == before_rows, f"{label}: refused but a row changed")
            failed |= not part.check(files(app) == before_files, f"{label}: refused but voice/ changed: "
                                     f"{sorted(set(files(app)) ^ set(before_files))}")
        else:
            failed = not part.check(False, f"{label}: exit {result.status}, expected 0 or 65: {result.describe()}")
        if failed:
            os.makedirs(kept, exist_ok=True)
            shutil.copyfile(path, os.path.join(kept, f"{number}-{os.path.basename(path)}"))
    lines = common.integrity(app.database)
    part.check(lines == ["ok"], f"integrity_check after the imports: {lines[:3]}")
    doctor = app.run("doctor")
    part.check(doctor.status == 0, "doctor after the imports: " + doctor.stdout.decode("utf-8", "replace"))
    part.note(f"{tally['refused']} refused with 65, {tally['accepted']} still decoded and were stored"
              + (f"; failing files kept in {kept}" if part.failures else ""))
    part.finish()


def rows(app):
    return common.query(app.database, "SELECT id, file_name, checksum FROM voice_memos ORDER BY id")


def files(app):
    folder = app.voice_directory
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def asan_summary(paths):
    for path in paths:
        for line in open(path, errors="replace"):
            if "SUMMARY:" in line or "ERROR: AddressSanitizer" in line:
                return line.strip()
    return ""


INTERESTING = [b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00",
               b"\x00\x00\x00\x01", b"\x01\x00\x00\x00", b"\xff\xff", b"\x00\x00", b"\x00\x80", b"\xff"]


def mutate(data):
    """A mutant of `data` and a few words saying how it was made."""
    data = bytearray(data)
    kind = random.choice(["flips", "truncate", "header", "header", "zero", "duplicate", "mix"])
    steps = [kind] if kind != "mix" else random.sample(["flips", "truncate", "header", "zero", "duplicate"], 3)
    done = []
    for step in steps:
        if not data:
            break
        if step == "flips":
            count = random.choice([1, 2, 8, 64])
            limit = random.choice([min(len(data), 256), len(data)])
            for _ in range(count):
                offset = random.randrange(limit)
                data[offset] ^= 1 << random.randrange(8)
            done.append(f"{count} bit flips in the first {limit} B")
        elif step == "truncate":
            length = random.choice([random.randrange(1, min(len(data), 128)), random.randrange(len(data))])
            del data[length:]
            done.append(f"cut to {length} B")
        elif step == "header":
            edits = random.randint(1, 4)
            for _ in range(edits):
                offset = random.randrange(min(len(data), 128))
                value = random.choice(INTERESTING + [bytes(random.getrandbits(8) for _ in range(4))])
                data[offset:offset + len(value)] = value
            done.append(f"{edits} header field edits")
        elif step == "zero":
            start = random.randrange(len(data))
            length = random.randint(1, 4096)
            data[start:start + length] = bytes(len(data[start:start + length]))
            done.append(f"{length} B zeroed at {start}")
        elif step == "duplicate":
            start = random.randrange(len(data))
            piece = data[start:start + random.randint(1, 2048)]
            at = random.randrange(len(data))
            data[at:at] = piece
            done.append(f"{len(piece)} B copied to {at}")
    return bytes(data), ", ".join(done)


if __name__ == "__main__":
    main()
