"""`verifier` command line: check one answer, audit a file, list models."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from models.base import ModelLoadError
from verifier.errors import InputError, explain


def _add_model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default="default", help="registry name (default, lexical, ...), a local model "
                   "folder or a model id in the local HF cache")
    p.add_argument("--models-file", default=None, help="TOML file naming more models (see `verifier models`)")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:1 ...")
    p.add_argument("--policy", default="default", help="decision policy: default, strict, or a TOML file")
    p.add_argument("--decision-log", default=None, help="append one JSON line per decision to this file")
    p.add_argument("--log-text", action="store_true", help="include answer and source text in the decision log")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="verifier", description="Check RAG answers against their sources.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="verify one answer (a JSON object) and print the report")
    check.add_argument("input", help="JSON file with answer and sources, or - for standard input")
    check.add_argument("--pretty", action="store_true", help="a readable, coloured view instead of JSON")
    _add_model_args(check)

    from verifier.audit_cli import add_audit_arguments, add_report_parser

    audit = sub.add_parser("audit", help="verify every answer of a JSONL, CSV or Parquet file (resumable)")
    add_audit_arguments(audit)
    _add_model_args(audit)
    add_report_parser(sub)

    calibrate = sub.add_parser("calibrate", help="choose thresholds from labelled answers and write a policy")
    calibrate.add_argument("input", help="JSONL: the input contract plus expected.claims[{span,label}] "
                           "and/or expected.action (optional lang, bucket)")
    calibrate.add_argument("-o", "--output", required=True, help="policy TOML to write (the base policy with "
                           "the new [thresholds])")
    calibrate.add_argument("--target-unsafe", type=float, default=0.05, help="highest unsafe-pass rate allowed "
                           "on the calibration part")
    calibrate.add_argument("--seed", type=int, default=0)
    calibrate.add_argument("--test-share", type=float, default=0.4, help="share held out for the error report")
    calibrate.add_argument("--step", type=float, default=0.01, help="threshold grid step")
    calibrate.add_argument("--plot", default=None, help="PNG of unsafe-pass and over-flag rates across thresholds")
    calibrate.add_argument("--report", default=None, help="JSON file with the full calibration report")
    _add_model_args(calibrate)

    models = sub.add_parser("models", help="list the models the registry knows")
    models.add_argument("--models-file", default=None)

    serve = sub.add_parser("serve", help="run the HTTP service (POST /v1/verify, /v1/verify/batch, /metrics ...)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--token-file", default=None, help="file whose first line is the bearer token "
                       "(default: the VERIFIER_TOKEN env var; neither: no auth)")
    serve.add_argument("--batch-window-ms", type=float, default=5.0, help="how long to gather model pairs")
    serve.add_argument("--max-batch-pairs", type=int, default=64, help="pairs per model call")
    serve.add_argument("--max-batch-tokens", type=int, default=16384, help="estimated tokens per model call")
    serve.add_argument("--max-queue", type=int, default=256, help="answers in progress before 429")
    serve.add_argument("--timeout-ms", type=int, default=10000, help="default deadline per answer")
    serve.add_argument("--workers", type=int, default=4, help="threads for the CPU phases (prepare, finish)")
    serve.add_argument("--model-workers", type=int, default=None, help="processes each holding a copy of the "
                       "model, scoring batches side by side; 0: the model runs in the server process (default: "
                       "one per core up to 4 on CPU, 0 on a GPU or a single core)")
    serve.add_argument("--model-threads", type=int, default=None, help="torch threads per model worker "
                       "(default: the cores shared out among the workers)")
    serve.add_argument("--grace-s", type=float, default=30.0, help="how long in-flight requests may finish "
                       "after SIGTERM")
    serve.add_argument("--torch-threads", type=int, default=None, help="torch intra-op threads (default: torch's "
                       "choice; 1 is much faster on a CPU shared with other busy processes)")
    _add_model_args(serve)
    return parser


def _open_input(name: str):
    if name == "-":
        return sys.stdin
    path = Path(name)
    if not path.is_file():
        raise SystemExit(f"verifier: input file {name!r} does not exist")
    return path.open(encoding="utf-8")


def _make_verifier(args: argparse.Namespace):
    from verifier.decision_log import DecisionLog
    from verifier.pipeline import Verifier

    log = DecisionLog(args.decision_log, include_text=args.log_text) if args.decision_log else None
    return Verifier(args.model, device=args.device, models_file=args.models_file, policy=args.policy,
                    decision_log=log)


def cmd_check(args: argparse.Namespace) -> int:
    from verifier.pretty import render
    from verifier.schema import VerifyRequest

    with _open_input(args.input) as fh:
        raw = fh.read()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        print(f"verifier: {args.input} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
              file=sys.stderr)
        return 2
    try:
        request = VerifyRequest.model_validate(data)
    except ValidationError as exc:
        print(f"verifier: invalid input: {explain(exc)}", file=sys.stderr)
        return 2
    report = _make_verifier(args).verify_request(request)
    if args.pretty:
        print(render(request, report, color=sys.stdout.isatty()))
    else:
        print(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2))
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from verifier.audit_cli import cmd_audit as run

    return run(args, _make_verifier)


def cmd_report(args: argparse.Namespace) -> int:
    from verifier.audit_cli import cmd_report as run

    return run(args)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from verifier.calibrate import run

    return run(args)


def cmd_models(args: argparse.Namespace) -> int:
    from models.registry import available_models

    for name, spec in available_models(args.models_file).items():
        print(f"{name:16} {spec.kind:13} {spec.path or '':30} {spec.description}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import logging

    from verifier.service import (
        BatchSettings,
        Limits,
        ServiceSettings,
        create_app,
        read_token,
        serve,
    )
    from verifier.service.runners import default_model_workers

    try:
        settings = ServiceSettings(
            batch=BatchSettings(window_ms=args.batch_window_ms, max_pairs=args.max_batch_pairs,
                                max_tokens=args.max_batch_tokens),
            limits=Limits(max_queue=args.max_queue), default_timeout_ms=args.timeout_ms, workers=args.workers,
            token=read_token(args.token_file), log_text=args.log_text, model_workers=args.model_workers or 0,
            model_threads=args.model_threads,
        )
    except ValueError as exc:
        print(f"verifier: {exc}", file=sys.stderr)
        return 2
    if settings.token is None and args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"verifier: warning: serving on {args.host} without a bearer token; set VERIFIER_TOKEN or "
              "--token-file", file=sys.stderr)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.torch_threads:
        import torch

        torch.set_num_threads(args.torch_threads)
    verifier = _make_verifier(args)
    if args.model_workers is None:
        settings = dataclasses.replace(settings, model_workers=default_model_workers(verifier.model))
    serve(create_app(verifier, settings), args.host, args.port, grace_s=args.grace_s)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = {"check": cmd_check, "audit": cmd_audit, "models": cmd_models, "serve": cmd_serve,
               "report": cmd_report, "calibrate": cmd_calibrate}[args.command]
    try:
        return handler(args)
    except ModelLoadError as exc:
        print(f"verifier: {exc}", file=sys.stderr)
        return 3
    except InputError as exc:
        print(f"verifier: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
