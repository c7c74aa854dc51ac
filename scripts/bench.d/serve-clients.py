#!/usr/bin/env python3
"""The many-connection clients of scripts/bench's serve section (serve.sh).

  serve-clients.py sse URL TOKEN COUNT SERVER_PID
      COUNT clients subscribe to /api/v1/events; a 2-second countdown starts;
      prints one line: "worst_ms median_ms told count rss_mb" where worst and
      median are how long after the countdown's end (its ends_at) each client
      read its `timer.finished` event, told how many did, and rss_mb the
      server's VmHWM (peak resident memory) afterwards.
  serve-clients.py slow URL TOKEN COUNT SECONDS
      COUNT clients open connections and send a request head one byte every
      two seconds, never finishing it; meanwhile a normal client sends
      `GET /api/v1/todos?limit=50` every 100 ms for SECONDS (each given 5 s);
      prints "worst_ms median_ms answered unanswered open" (open: slow
      connections still open at the end).

The server limits connections per IP address (64), as it should against one
flooding client; these clients stand for many people, so they come from many
loopback addresses (127.0.0.2 on, at most 50 each). The normal client uses
127.0.0.1, which no slow client shares. Only loopback addresses are used, and
every loop is bounded in count and time.
"""
import http.client
import json
import resource
import selectors
import socket
import statistics
import sys
import time
import urllib.parse
from datetime import datetime

PER_ADDRESS = 50


def source_address(index):
    n = 2 + index // PER_ADDRESS  # 127.0.0.3 on: never 127.0.0.1
    return ("127.0.%d.%d" % (n // 250, n % 250 + 1), 0)


def connect(host, port, index):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(source_address(index))
    sock.connect((host, port))
    return sock


def raise_open_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def vm_hwm_mb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def sse(url, token, count, server_pid):
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname, parts.port
    head = ("GET /api/v1/events HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
            "Accept: text/event-stream\r\n\r\n" % (host, port, token)).encode()
    selector = selectors.DefaultSelector()
    buffers = {}
    for index in range(count):
        sock = connect(host, port, index)
        sock.sendall(head)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""

    # Every stream's response head must have arrived before the countdown starts.
    deadline = time.monotonic() + 30
    subscribed = set()
    while len(subscribed) < count and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            chunk = key.fileobj.recv(65536)
            if not chunk:
                sys.exit("bench serve: the server closed an event stream: %r" % buffers[key.fileobj][:200])
            buffers[key.fileobj] += chunk
            if b"\r\n\r\n" in buffers[key.fileobj]:
                if not buffers[key.fileobj].startswith(b"HTTP/1.1 200"):
                    sys.exit("bench serve: an event stream was refused: %r" % buffers[key.fileobj][:200])
                subscribed.add(key.fileobj)
    if len(subscribed) < count:
        sys.exit("bench serve: only %d of %d event streams opened in 30 s" % (len(subscribed), count))

    starter = http.client.HTTPConnection(host, port, timeout=10)
    starter.request("POST", "/api/v1/timers", body=json.dumps({"duration": 2, "label": "bench"}),
                    headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    answer = starter.getresponse()
    body = answer.read()
    if answer.status != 201:
        sys.exit("bench serve: POST /api/v1/timers answered %d: %r" % (answer.status, body[:200]))
    ends_at = parse_time(json.loads(body)["ends_at"])

    told = {}
    deadline = time.monotonic() + 10
    while len(told) < count and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            sock = key.fileobj
            chunk = sock.recv(65536)
            now = time.time()
            if not chunk:
                selector.unregister(sock)
                continue
            buffers[sock] += chunk
            if sock not in told and b"event: timer.finished" in buffers[sock]:
                told[sock] = now
            buffers[sock] = buffers[sock][-64:]
    rss = vm_hwm_mb(server_pid)
    for sock in buffers:
        sock.close()
    late = sorted((moment - ends_at) * 1000 for moment in told.values())
    if not late:
        sys.exit("bench serve: no subscriber was told of the countdown's end")
    print("%.1f %.1f %d %d %.1f" % (late[-1], statistics.median(late), len(late), count, rss))


def slow(url, token, count, seconds):
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname, parts.port
    trickle = b"GET /api/v1/todos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
    slow_clients = []
    for index in range(count):
        sock = connect(host, port, index)
        sock.setblocking(False)
        slow_clients.append([sock, 0])

    normal = http.client.HTTPConnection(host, port, timeout=5, source_address=("127.0.0.1", 0))
    times = []
    unanswered = 0
    started = time.monotonic()
    next_byte = started
    while time.monotonic() - started < seconds:
        if time.monotonic() >= next_byte:
            for client in slow_clients:
                sock, sent = client
                if sock is None or sent >= len(trickle):
                    continue
                try:
                    sock.send(trickle[sent:sent + 1])
                    client[1] = sent + 1
                except OSError:
                    sock.close()
                    client[0] = None
            next_byte += 2
        before = time.monotonic()
        try:
            normal.request("GET", "/api/v1/todos?limit=50", headers={"Authorization": "Bearer " + token})
            answer = normal.getresponse()
            answer.read()
            if answer.status != 200:
                sys.exit("bench serve: GET /api/v1/todos answered %d beside the slow clients" % answer.status)
        except OSError:
            # No answer within the client's time-out (or a refused
            # connection): a miss, counted at the time it took, not hidden.
            unanswered += 1
            normal.close()
            normal = http.client.HTTPConnection(host, port, timeout=5, source_address=("127.0.0.1", 0))
        times.append((time.monotonic() - before) * 1000)
        time.sleep(0.1)
    still_open = 0
    for sock, _ in slow_clients:
        if sock is None:
            continue
        try:
            # A closed connection reads as b"" (or a reset); an open one has nothing to read.
            still_open += 0 if sock.recv(1) == b"" else 1
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    times.sort()
    print("%.1f %.1f %d %d %d" % (times[-1], statistics.median(times), len(times) - unanswered, unanswered, still_open))


def main():
    raise_open_file_limit()
    if len(sys.argv) == 6 and sys.argv[1] == "sse":
        sse(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif len(sys.argv) == 6 and sys.argv[1] == "slow":
        slow(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(__doc__)


main()
