"""A TCP proxy in front of a test server that can cut, or silence, every connection at once.

What a dropped network looks like to a client: its open connections end
without a goodbye, and the next ones get through again. The proxy runs on
its own event loop in a thread, so a client in another process (``meeple
bot run``) can be cut as well as one in the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from urllib.parse import urlparse


class TcpProxy:
    """Listens on a free loopback port and forwards each connection to ``target_url``."""

    def __init__(self, target_url: str) -> None:
        target = urlparse(target_url)
        self.target = (target.hostname or "127.0.0.1", target.port or 80)
        self.loop = asyncio.new_event_loop()
        self.writers: set[asyncio.StreamWriter] = set()
        self.frozen: set[asyncio.StreamWriter] = set()
        self.cuts = 0
        self.connections = 0
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", 0)
        )
        self.port: int = self.server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers.update((writer, up_writer))
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if writer in self.frozen:
                    continue  # a connection gone silent: what is sent never arrives
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    def cut(self) -> int:
        """Drop every open connection (both sides, no goodbye); how many there were."""

        async def drop() -> int:
            writers = list(self.writers)
            for writer in writers:
                transport = writer.transport
                transport.abort()
            self.writers.clear()
            return len(writers)

        dropped = asyncio.run_coroutine_threadsafe(drop(), self.loop).result(10)
        self.cuts += 1
        return dropped

    def freeze(self) -> int:
        """Let every open connection go silent, open but carrying nothing more (a network that
        drops a connection without telling either end); how many there were."""

        async def silence() -> int:
            self.frozen.update(self.writers)
            return len(self.writers)

        return asyncio.run_coroutine_threadsafe(silence(), self.loop).result(10)

    def close(self) -> None:
        """Stop listening and forwarding."""

        async def shut() -> None:
            self.server.close()
            for writer in list(self.writers):
                writer.transport.abort()

        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
