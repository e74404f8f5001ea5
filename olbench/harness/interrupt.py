"""Interruptions: SIGTERM handled like Ctrl-C, and worker processes that end with their parent.

* :func:`terminate_as_interrupt` turns SIGTERM (``kill``, a batch scheduler, ``timeout``)
  into a :class:`Terminated` exception in the main thread, so a grid stops the way it does on
  Ctrl-C: the runs already written are kept, a message says how to resume, and the command
  exits with status 143 (128 + SIGTERM).
* :func:`exit_with_parent` runs in every local worker process (loky's ``initializer``): a
  daemon thread that ends the worker as soon as its parent is gone. Without it, after a
  ``kill -9`` of ``olbench`` the workers would idle for minutes (loky's idle timeout),
  holding the parent's stdout open, so that a pipe reader (``olbench | tee log``) hangs.

>>> with terminate_as_interrupt():
...     try:
...         os.kill(os.getpid(), signal.SIGTERM)
...         time.sleep(1)
...     except Terminated:
...         print("stopped")
stopped
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

#: seconds between two checks of the parent process
POLL_S = 0.2


class Terminated(BaseException):
    """SIGTERM was received (a BaseException, like KeyboardInterrupt: no ``except Exception``
    on the way up may swallow it)."""


def _raise_terminated(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (main thread only; elsewhere, and
    on exit, the previous handler stays in charge)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_watched: int | None = None


def exit_with_parent(parent_pid: int) -> None:
    """In a worker whose parent is ``parent_pid``: exit (status 143) once that parent is gone.

    Does nothing in the parent itself, nor in a process whose parent is another one (a Dask
    worker's nanny, say: there the cluster handles the lifetime), nor twice in one process.
    """
    global _watched
    if _watched == parent_pid or os.getpid() == parent_pid or os.getppid() != parent_pid:
        return
    _watched = parent_pid
    threading.Thread(target=_watch, args=(parent_pid,), daemon=True,
                     name="olbench-exit-with-parent").start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:  # re-parented (to init or a subreaper) when it dies
        time.sleep(POLL_S)
    os._exit(143)
