"""When a turn, a control call or the end of input happens (docs/drivers.md, "Trigger").

`TriggerBoard.arm` is called for every trigger when the session is created, so message triggers
count the messages the SDK yields from then on; `Armed.wait` returns True when the trigger
fired and False when the run ended first (`abandon_all`). A `ResultCount` lets the input
stream wait until the CLI answered the turns written so far.
How it fails: it does not; an unmatched pattern simply never fires.
What it costs: one pattern match per armed message trigger per message.
"""

import anyio

from .spec import Trigger, json_matches


class Armed:
    """One armed trigger."""

    def __init__(self, board: "TriggerBoard", trigger: Trigger):
        self._board = board
        self._matched = anyio.Event()
        self._fire_at = 0.0
        self._remaining = trigger.nth
        self._trigger = trigger
        self.scope: anyio.CancelScope | None = None
        if trigger.kind in ("start", "delay"):
            self._fire_at = anyio.current_time() + trigger.delay_ms / 1000
            self._matched.set()

    def offer(self, message: dict) -> bool:
        """Counts a message; True once the trigger matched (it then leaves the board)."""
        if not json_matches(self._trigger.pattern, message):
            return False
        self._remaining -= 1
        if self._remaining > 0:
            return False
        self._fire_at = anyio.current_time() + self._trigger.delay_ms / 1000
        self._matched.set()
        return True

    def due(self) -> bool:
        return self._matched.is_set() and self._fire_at <= anyio.current_time()

    async def wait(self) -> bool:
        if self._board.abandoned:
            return self.due()
        with anyio.CancelScope() as scope:
            self.scope = scope
            self._board.waiters.add(self)
            try:
                await self._matched.wait()
                if not self.due():
                    await anyio.sleep_until(self._fire_at)
                return True
            finally:
                self._board.waiters.discard(self)
        return False


class TriggerBoard:
    def __init__(self):
        self._waiting: list[Armed] = []
        self.waiters: set[Armed] = set()
        self._abandoned = False

    def arm(self, trigger: Trigger) -> Armed:
        armed = Armed(self, trigger)
        if trigger.kind == "message":
            self._waiting.append(armed)
        return armed

    def on_message(self, message: dict) -> None:
        self._waiting = [armed for armed in self._waiting if not armed.offer(message)]

    def abandon_all(self) -> None:
        """Releases every waiter whose trigger is not due: the run is over. A waiter already
        due (matched by the last message) still goes ahead."""
        self._abandoned = True
        for armed in list(self.waiters):
            if not armed.due():
                armed.scope.cancel()

    @property
    def abandoned(self) -> bool:
        return self._abandoned


class ResultCount:
    """Counts `result` messages; `wait_for(n)` returns once n have been yielded."""

    def __init__(self):
        self.count = 0
        self._changed = anyio.Event()

    def add(self) -> None:
        self.count += 1
        self._changed.set()
        self._changed = anyio.Event()

    async def wait_for(self, n: int) -> None:
        while self.count < n:
            await self._changed.wait()
