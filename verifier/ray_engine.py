"""`verifier audit --engine ray`: the same audit on Ray Data, so a cluster audits in parallel.

The driver makes one cheap pass over the input to cut it into windows (a start position and a
record count each; nothing of the input is kept). Ray read tasks read those windows from the
file (which therefore must be on storage every node sees), actors verify them with a model
loaded once per actor (`map_batches` with a class), and the driver receives the records in
input order and writes them through the same checkpointed writer as the local engine, so a
Ray audit resumes like a local one and writes the same records.

Ray is imported here only, so the local engine never needs it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Iterator

from verifier.audit import AuditOptions, cache_counters, verify_records
from verifier.audit_io import Columns, RawRecord, iter_records


@dataclass(frozen=True)
class RaySettings:
    address: str | None = None  # None: join RAY_ADDRESS's cluster, or start a local one
    actors: int | None = None  # None: one per CPU left after the read tasks, or one per GPU
    gpus_per_actor: float = 0.0
    window: int = 2_000  # input records per read task


def _window_starts(options: AuditOptions, position: int, number: int, size: int) -> list[dict]:
    """(start position, record number before it, record count) for every window after `position`."""
    windows, count = [], 0
    start = {"position": position, "number": number}
    for raw in iter_records(options.input, options.fmt, options.columns, start=position, first_number=number + 1):
        count += 1
        if count == size:
            windows.append({**start, "count": count})
            start, count = {"position": raw.position, "number": raw.number}, 0
    if count:
        windows.append({**start, "count": count})
    return windows


def _read_window(window: dict, *, path: str, fmt: str, columns: dict) -> list[dict]:
    """A Ray read task: the raw records of one window, as rows of plain columns."""
    rows = []
    for raw in iter_records(path, fmt, Columns(**columns), start=window["position"],
                            first_number=window["number"] + 1):
        rows.append({"number": raw.number, "position": raw.position,
                     "data": json.dumps(raw.data, ensure_ascii=False) if raw.data is not None else "",
                     "error": raw.error or ""})
        if len(rows) >= window["count"]:
            break
    return rows


class _VerifyActor:
    """Loads the model once, then verifies batch after batch with its own cache."""

    def __init__(self, model: str, device: str, models_file: str | None, include_text: bool) -> None:
        from verifier.cache import VerifierCache
        from verifier.pipeline import Verifier

        self.verifier = Verifier(model, device=device, models_file=models_file, cache=VerifierCache())
        self.include_text = include_text
        self.reported: dict[str, int] = {}

    def __call__(self, batch: dict) -> dict:
        raws = [RawRecord(int(n), json.loads(d) if d else None, e or None, int(p))
                for n, p, d, e in zip(batch["number"], batch["position"], batch["data"], batch["error"])]
        records = verify_records(self.verifier, raws, include_text=self.include_text)
        # The cache counters since the last batch ride on the first row, for the driver's hit rate.
        now = cache_counters(self.verifier.cache)
        delta = {k: v - self.reported.get(k, 0) for k, v in now.items()}
        self.reported = now
        return {"number": [r.number for r in raws], "position": [r.position for r in raws],
                "record": [json.dumps(r, ensure_ascii=False) for r in records],
                "cache": [json.dumps(delta)] + [""] * (len(raws) - 1)}


class RayEngine:
    def __init__(self, options: AuditOptions, settings: RaySettings, *, device: str = "auto",
                 models_file: str | None = None) -> None:
        import ray

        self.options, self.settings = options, settings
        self.device, self.models_file = device, models_file
        self.counters: dict[str, int] = {}
        if not ray.is_initialized():
            ray.init(address=settings.address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)

    def _actor_layout(self) -> tuple[int, float, float]:
        """(actors, CPUs per actor, GPUs per actor): GPU actors when asked for, else CPU actors that
        leave one CPU to the read tasks so they never starve each other."""
        import ray

        resources = ray.cluster_resources()
        gpus = self.settings.gpus_per_actor
        if gpus > 0:
            actors = self.settings.actors or max(1, int(resources.get("GPU", 0) / gpus))
            return actors, 1.0, gpus
        actors = self.settings.actors or max(1, int(resources.get("CPU", 1)) - 1)
        return actors, 1.0, 0.0

    def records(self, position: int, number: int) -> Iterator[tuple[int, int, dict]]:
        import ray

        o = self.options
        windows = _window_starts(o, position, number, self.settings.window)
        if not windows:
            return
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = True  # records must come back in input order
        ctx.enable_progress_bars = False  # the audit draws its own bar
        logging.getLogger("ray.data").setLevel(logging.WARNING)  # keep stderr for the bar and the summary
        actors, cpus, gpus = self._actor_layout()
        device = self.device if self.device != "auto" else ("cuda" if gpus else "cpu")
        ds = (ray.data.from_items(windows)
              .flat_map(_read_window, fn_kwargs={"path": o.input, "fmt": o.fmt, "columns": o.columns.as_dict()},
                        num_cpus=0.5)
              .map_batches(_VerifyActor, batch_size=o.batch_size, batch_format="numpy",
                           compute=ray.data.ActorPoolStrategy(size=actors), num_cpus=cpus, num_gpus=gpus,
                           fn_constructor_kwargs={"model": o.model, "device": device,
                                                  "models_file": self.models_file,
                                                  "include_text": o.include_text}))
        for row in ds.iter_rows():
            if row["cache"]:
                for k, v in json.loads(row["cache"]).items():
                    self.counters[k] = self.counters.get(k, 0) + v
            yield int(row["number"]), int(row["position"]), json.loads(row["record"])

    def cache_counters(self) -> dict[str, int]:
        return dict(self.counters)
