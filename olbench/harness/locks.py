"""Who computes a run: one advisory lock per run (:class:`RunLocks`), so that two ``olbench``
processes on one results folder share its runs instead of both computing them."""

from __future__ import annotations

import fcntl
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from olbench.harness.results import RunStore


class RunLocks:
    """One advisory lock per run (``runs/.locks/<run_id>.lock``, ``flock``), held by the
    process computing the run until its result is saved, so that two ``olbench`` processes
    on one results folder share the work instead of both computing it. The operating system
    releases the locks of a process that dies, however it dies."""

    def __init__(self, store: RunStore):
        self.folder = store.runs / ".locks"
        self._held: dict[str, int] = {}

    def _open(self, run_id: str) -> int:
        path = os.path.join(self.folder, f"{run_id}.lock")
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:  # the first lock of the folder
            self.folder.mkdir(parents=True, exist_ok=True)
            return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)

    def acquire(self, run_id: str, wait: bool = False) -> bool:
        """Take the run's lock (waiting for it if ``wait``); False if another process has it."""
        fd = self._open(run_id)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            return False
        self._held[run_id] = fd
        return True

    def release(self, run_id: str) -> None:
        fd = self._held.pop(run_id, None)
        if fd is not None:
            os.close(fd)  # closing the descriptor drops its flock

    def release_all(self) -> None:
        for run_id in list(self._held):
            self.release(run_id)
