#!/usr/bin/env python3
"""The floor of scripts/bench's upload row (serve.sh): an HTTP/1.1 server on
127.0.0.1 that reads each request's body and throws it away, so that the time
curl takes to send a file to it is what sending costs on this machine, with
nothing stored and nothing decoded.

  upload-sink.py
      prints its port on one line, then answers every request 201 after
      reading its Content-Length bytes (answering `Expect: 100-continue` as
      memoapp's server does, so curl does not wait for it), until killed.
"""
import socket
import sys

HEAD_LIMIT = 64 * 1024


def read_head(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        piece = connection.recv(65536)
        if not piece or len(data) > HEAD_LIMIT:
            return None, b""
        data += piece
    head, rest = data.split(b"\r\n\r\n", 1)
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower()] = value.strip()
    return fields, rest


def answer(connection):
    fields, rest = read_head(connection)
    if fields is None:
        return
    length = int(fields.get(b"content-length", b"0"))
    if fields.get(b"expect", b"").lower() == b"100-continue":
        connection.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    received = len(rest)
    buffer = bytearray(1 << 20)
    while received < length:
        count = connection.recv_into(buffer)
        if count == 0:
            return
        received += count
    connection.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    print(listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        with connection:
            answer(connection)


if __name__ == "__main__":
    sys.exit(main())
