"""The websockets server connection of `mfls serve --ws`, told of each read.

websockets answers a ping by writing the pong to the socket itself, while it reads, with
no bound on the write buffer: a client that sends pings and reads nothing grows it
without end. `ReadWatched` calls `after_read` after each read, so that the connection's
byte budget (`websocket.TextFrames.check`) counts those pongs (`buffered`), and once
`stop_reading` is called, answers nothing more, not even a ping: while its client reads
nothing, nothing is read from it; once it reads again, what it sends is read and dropped,
so that its hanging up is seen. Imported only when the socket is served: websockets is an
optional dependency (the `ws` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import Event

WRITE_COST = 64
"""What a write costs in the socket's buffer beside its bytes, at most: from Python 3.12
the buffer keeps each write as an object of its own, and a pong may be 2 bytes."""


def _nothing() -> None:
    pass


class ReadWatched(ServerConnection):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.after_read: Callable[[], None] = _nothing
        self.deaf = False
        self._pongs = 0  # written since the write buffer was last seen empty

    def buffered(self) -> int:
        """The bytes of the socket's write buffer, each pong in it counted with its
        `WRITE_COST` (every pong written since the buffer was last seen empty)."""
        size = self.transport.get_write_buffer_size()
        if size == 0:
            self._pongs = 0
        return size + self._pongs * WRITE_COST

    def stop_reading(self) -> None:
        """Answer nothing the client sends from now on: its connection is being closed."""
        self.deaf = True
        if self.paused:  # the client reads nothing: neither does the server, until it does
            self.transport.pause_reading()
        else:  # websockets may have paused it, its queue of messages full
            self.transport.resume_reading()

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.deaf:
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self.deaf:
            if self.paused:
                self.transport.pause_reading()
            return
        super().data_received(data)
        self.after_read()

    def process_event(self, event: Event) -> None:
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            self._pongs += 1  # websockets has written its pong
        super().process_event(event)
