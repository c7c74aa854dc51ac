#!/usr/bin/env python3
"""Writes a Taskwarrior export (the JSON array `task export` prints) of COUNT
tasks to standard output, for timing `memoapp todo import --format taskwarrior`
at sizes no real Taskwarrior database reaches quickly (1,000,000 tasks: about
a minute with `task import`, per thousand).

Usage: taskwarrior-export.py COUNT

The tasks mix what an export holds: pending, waiting, completed and deleted
tasks (deleted ones are skipped by the import), Korean, English and mixed
descriptions, due dates with and without a time, priorities, projects, tags
and annotations. Uuids and dates follow from the task's number, so the same
COUNT always gives the same file (a repeatable benchmark).
"""

import json
import sys
import time
import uuid

KOREAN = ["회의", "주간회의록", "대한민국", "프로젝트", "일정", "보고서", "예산", "검토", "장보기", "우유",
          "병원", "예약", "운동", "독서", "여행", "계획", "발표", "자료", "정리", "마감"]
ENGLISH = ["meeting", "report", "budget", "review", "project", "deadline", "groceries", "milk", "doctor",
           "booking", "workout", "reading", "travel", "plan", "slides", "notes", "client", "lunch",
           "dinner", "family"]
STATUSES = ["pending", "pending", "pending", "waiting", "completed", "completed", "deleted"]
PRIORITIES = [None, "H", "M", "L"]
# 2026-01-01T00:00:00Z: every date is counted from it, not from today.
START = 1767225600
NAMESPACE = uuid.UUID("6f1b3c7e-2d54-4c1a-9f0e-8a7b6c5d4e3f")


def taskwarrior_date(seconds):
    """Taskwarrior's UTC form, YYYYMMDDTHHMMSSZ."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(seconds))


def task(number):
    entry = START + number * 37
    status = STATUSES[number % len(STATUSES)]
    if number % 3 == 0:
        description = f"{KOREAN[number % 20]} {KOREAN[number * 7 % 20]} {number}"
    elif number % 3 == 1:
        description = f"{ENGLISH[number % 20]} {ENGLISH[number * 11 % 20]} {number}"
    else:
        description = f"{KOREAN[number * 13 % 20]} {ENGLISH[number * 17 % 20]} {number}"
    item = {
        "id": 0 if status in ("completed", "deleted") else number,
        "description": description,
        "entry": taskwarrior_date(entry),
        "modified": taskwarrior_date(entry + 3600),
        "status": status,
        "uuid": str(uuid.uuid5(NAMESPACE, str(number))),
        "urgency": round(number % 100 / 10, 1),
    }
    if status in ("completed", "deleted"):
        item["end"] = taskwarrior_date(entry + 7200)
    if number % 4 != 0:
        # Midnight UTC is a date-only due in UTC; other times keep their time.
        item["due"] = taskwarrior_date(entry - entry % 86400 + (number % 5) * 86400 + (0 if number % 2 else 34200))
    if PRIORITIES[number % 4]:
        item["priority"] = PRIORITIES[number % 4]
    if number % 5 == 0:
        item["project"] = "work.q" + str(1 + number % 4)
    if number % 6 == 0:
        item["tags"] = ["errand", "집"] if number % 12 == 0 else ["next"]
    if status == "waiting":
        item["wait"] = taskwarrior_date(entry + 86400 * 3)
    if number % 10 == 0:
        item["annotations"] = [{"entry": taskwarrior_date(entry + 60), "description": f"{ENGLISH[number % 20]} 메모 {number}"}]
    return item


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: taskwarrior-export.py COUNT (a whole number, 1 or more)")
    count = int(sys.argv[1])
    out = sys.stdout
    out.write("[\n")
    for number in range(1, count + 1):
        out.write(json.dumps(task(number), ensure_ascii=False, separators=(",", ":")))
        out.write(",\n" if number < count else "\n")
    out.write("]\n")


if __name__ == "__main__":
    main()
