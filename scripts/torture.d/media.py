"""Audio for the torture parts: WAV and raw PCM written with the standard
library, other containers made by sox (and ffmpeg for MP3)."""

import math
import os
import random
import shutil
import struct
import subprocess
import wave


def samples(seconds, rate, channels, variant=0):
    """16-bit little-endian PCM: a tone with a little noise; `variant` shifts
    the pitch and the noise so every variant is other bytes."""
    generator = random.Random(variant)
    frequency = 220 + (variant % 500)
    frames = int(seconds * rate)
    data = bytearray()
    for index in range(frames):
        value = 0.5 * math.sin(2 * math.pi * frequency * index / rate) + 0.02 * (generator.random() - 0.5)
        sample = struct.pack("<h", int(value * 32767))
        data += sample * channels
    return bytes(data)


def make_tone(path, seconds, rate=16000, channels=1, variant=0):
    """A 16-bit PCM WAV. Long files are built from one repeated second."""
    one_second = samples(min(seconds, 1.0), rate, channels, variant)
    repeats = max(1, int(seconds))
    with wave.open(path, "wb") as file:
        file.setnchannels(channels)
        file.setsampwidth(2)
        file.setframerate(rate)
        for _ in range(repeats):
            file.writeframes(one_second)
    return path


def make_raw(path, seconds, rate=16000, channels=1):
    """Headerless s16le PCM, what `voice record` reads on stdin."""
    one_second = samples(1.0, rate, channels)
    with open(path, "wb") as file:
        for _ in range(max(1, int(seconds))):
            file.write(one_second)
    return path


def variant(source, destination, number):
    """A copy of a WAV with a few sample bytes near the end changed: the same
    sound to the ear, other bytes (so not a duplicate of earlier imports)."""
    shutil.copyfile(source, destination)
    size = os.path.getsize(destination)
    with open(destination, "r+b") as file:
        for offset in range(4):
            file.seek(size - 64 + offset * 8)
            file.write(struct.pack("<h", (number * 7 + offset) % 30000))


def make_seeds(folder):
    """One short file per container memoapp is asked to survive: WAV, FLAC,
    Ogg Vorbis, MP3, AIFF, CAF. Returns the paths that could be made."""
    os.makedirs(folder, exist_ok=True)
    base = make_tone(os.path.join(folder, "seed.wav"), seconds=0.4, rate=16000, channels=1, variant=7)
    stereo = make_tone(os.path.join(folder, "stereo.wav"), seconds=0.3, rate=22050, channels=2, variant=9)
    seeds = [base, stereo]
    for extension, extra in [("flac", []), ("ogg", ["-C", "3"]), ("aiff", []), ("caf", []), ("au", [])]:
        path = os.path.join(folder, "seed." + extension)
        if subprocess.run(["sox", base, *extra, path], capture_output=True).returncode == 0:
            seeds.append(path)
    flac24 = os.path.join(folder, "stereo24.flac")
    if subprocess.run(["sox", stereo, "-b", "24", flac24], capture_output=True).returncode == 0:
        seeds.append(flac24)
    mp3 = os.path.join(folder, "seed.mp3")
    if shutil.which("ffmpeg") and subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-y", "-i", base, "-c:a", "libmp3lame", "-b:a", "32k", mp3],
            capture_output=True).returncode == 0:
        seeds.append(mp3)
    return seeds
