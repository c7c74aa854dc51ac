"""A TCP relay on loopback that counts the bytes crossing it, both ways.

scripts/bench's sync rows put it between a device and its hub to tell the
bytes a sync puts on the wire: `byte-counter.py TARGET_PORT COUNTS_FILE`
prints the port it listens on, relays every connection to TARGET_PORT, and
keeps COUNTS_FILE holding "sent received" (device to hub, hub to device).
"""
import asyncio
import sys

target_port = int(sys.argv[1])
counts_file = sys.argv[2]
counts = [0, 0]


def save():
    with open(counts_file, "w") as out:
        out.write(f"{counts[0]} {counts[1]}\n")


async def pipe(reader, writer, slot):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            counts[slot] += len(data)
            save()
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def relay(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
    await asyncio.gather(pipe(client_reader, server_writer, 0), pipe(server_reader, client_writer, 1))


async def main():
    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    save()
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
