"""Where the micro-batcher's model calls run: one model thread, or a few model worker processes.

On CPU the model is most of a request's cost (default model, 32 clients, 2 cores: ~55 of ~67
CPU ms per answer; HTTP, claims, candidates and the verdict ~12 ms), and two intra-op threads
make one model call only ~1.5x faster. `ProcessRunner` keeps N copies of the model in worker
processes, each with its own few intra-op threads, so that N batches are scored at once; the
text phases stay in the server process, where they fit in one core with room to spare. The
workers are started with "spawn": forking a process that already runs torch's thread pools
and the event loop's threads is not safe (so an embedding script needs the usual
`if __name__ == "__main__":` guard).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

from models.base import NLIModel, NLIScores, Pair

log = logging.getLogger("verifier.service.runners")

ScoreFn = Callable[[Sequence[Sequence[Pair]]], list[list[NLIScores]]]


class ModelRunner:
    """Runs score calls off the event loop; `slots` calls may run at the same time."""

    slots: int = 1

    async def start(self) -> None:
        """Have everything loaded (for readiness); the first call would otherwise do it."""

    async def score(self, pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release threads and processes without waiting (e.g. when the event loop is gone)."""

    async def aclose(self) -> None:
        """Release threads and processes once the calls already running have finished."""
        self.close()


class ThreadRunner(ModelRunner):
    """The model in this process, on one dedicated thread: the model is not assumed thread-safe,
    and one call at a time leaves all cores to the model's own intra-op threads."""

    def __init__(self, score_fn: ScoreFn, executor: Executor | None = None) -> None:
        self._score_fn = score_fn
        self._own = executor is None
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="verifier-model")

    async def score(self, pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._score_fn, pair_lists)

    def close(self) -> None:
        if self._own:
            self._executor.shutdown(wait=False)


# -- model worker processes ----------------------------------------------------------------

_worker_model: NLIModel | None = None


def _given(model: NLIModel) -> NLIModel:
    return model


def _start_worker(loader: Callable[[], NLIModel], threads: int) -> None:
    global _worker_model
    try:
        import torch

        torch.set_num_threads(threads)
    except ImportError:  # a model without torch (e.g. lexical)
        pass
    _worker_model = loader()


def _ping() -> int:
    return os.getpid()


def _score_in_worker(pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
    from verifier.pipeline import score_pairs

    assert _worker_model is not None, "the worker's initializer did not run"
    return score_pairs(_worker_model, pair_lists)


def model_loader(verifier) -> Callable[[], NLIModel]:
    """A picklable way to rebuild the verifier's model in a worker process: its registry recipe
    when it was built from a name, else the model object itself (which must then pickle)."""
    loader = verifier.model_loader or functools.partial(_given, verifier.model)
    try:
        pickle.dumps(loader)
    except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing here
        raise ValueError(f"model worker processes need a model they can rebuild, but {type(verifier.model).__name__} "
                         f"does not pickle ({type(exc).__name__}); build the Verifier from a model name or use "
                         "model_workers=0") from exc
    return loader


class ProcessRunner(ModelRunner):
    """`workers` single-process pools, each holding the model; a batch goes to an idle one.

    One pool per worker (rather than one pool of N) so that `start` loads every worker before
    the service says it is ready, and so that a worker that dies (killed, out of memory) is
    replaced on its own: its batch fails closed (abstain with an error id), the next is served.
    """

    def __init__(self, loader: Callable[[], NLIModel], workers: int, threads_per_worker: int = 1) -> None:
        if workers < 1 or threads_per_worker < 1:
            raise ValueError("model workers and threads per worker must be >= 1")
        self.slots = workers
        self._loader, self._threads = loader, threads_per_worker
        self._pools = [self._new_pool() for _ in range(workers)]
        self._idle: asyncio.Queue[int] | None = None
        self._closed = False

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
                                   initargs=(self._loader, self._threads))

    def _queue(self) -> asyncio.Queue[int]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for i in range(len(self._pools)):
                self._idle.put_nowait(i)
        return self._idle

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(pool, _ping) for pool in self._pools))
        log.info("%d model worker processes ready (pids %s, %d torch threads each)", len(pids),
                 ", ".join(map(str, pids)), self._threads)

    async def score(self, pair_lists: Sequence[Sequence[Pair]]) -> list[list[NLIScores]]:
        idle = self._queue()
        i = await idle.get()
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pools[i], _score_in_worker, pair_lists)
        except BrokenProcessPool:
            log.error("model worker %d died; starting a new one", i)
            self._pools[i].shutdown(wait=False)
            if not self._closed:
                self._pools[i] = self._new_pool()
            raise
        finally:
            idle.put_nowait(i)

    def close(self) -> None:
        self._closed = True
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)

    async def aclose(self) -> None:
        # Waiting for the workers to exit: a pool shut down without waiting can leave a worker
        # behind when the server process exits right after (seen with uvicorn's shutdown).
        self._closed = True
        await asyncio.gather(*(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
                               for pool in self._pools))


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_model_workers(model: NLIModel, cores: int | None = None) -> int:
    """What `verifier serve` uses unless told: for a torch model on CPU with 2 or more cores, one
    model process per core, up to 4, one intra-op thread each (measured on 2 cores, 32 clients:
    2 workers x 1 thread 27.9 answers/s; the model in the server process with 1 thread 15.9,
    with 2 threads 23.2; 2 workers x 2 threads 6.8, oversubscribed). On a GPU, on one core, or
    for a model without a device (the lexical baseline, cheaper than the trip to a worker), the
    model runs in the server process."""
    device = str(getattr(model, "device", ""))
    cores = cores or usable_cores()
    if not device.startswith("cpu") or cores < 2:
        return 0
    return min(cores, 4)
