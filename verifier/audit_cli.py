"""The `verifier audit` and `verifier report` subcommands (wired into `verifier.cli`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from verifier.audit_io import FORMATS, AuditInputError, Columns, detect_format
from verifier.audit_store import ResumeError


def add_audit_arguments(audit: argparse.ArgumentParser) -> None:
    audit.add_argument("input", help="JSONL, CSV or Parquet file of answers, or - for JSONL on standard input")
    audit.add_argument("-o", "--output", required=True, help="reports: .jsonl (one per line) or .parquet")
    audit.add_argument("--format", choices=FORMATS, default=None, help="input format (default: from the extension)")
    audit.add_argument("--answer-col", default="answer", help="column (or JSONL key) with the answer")
    audit.add_argument("--sources-col", default="sources", help="column with the sources, a JSON list")
    audit.add_argument("--id-col", default="id", help="column with the answer id")
    audit.add_argument("--question-col", default="question", help="column with the question")
    audit.add_argument("--context-col", default="context", help="column with the context, a JSON object")
    audit.add_argument("--batch-size", type=int, default=None, help="answers per model batch (default: 16; "
                       "128 for GPU actors)")
    audit.add_argument("--checkpoint-every", type=int, default=512, help="records between fsync'd checkpoints "
                       "(the most that is redone after a kill)")
    audit.add_argument("--restart", action="store_true", help="ignore an existing checkpoint and start over")
    audit.add_argument("--include-text", action="store_true", help="copy question and answer text into each "
                       "report (the HTML report then shows the full answer)")
    audit.add_argument("--summary", default=None, help="also write the run summary (counts, rate, cache hit "
                       "rates, peak memory) to this JSON file")
    audit.add_argument("--no-progress", action="store_true")
    audit.add_argument("--engine", choices=("local", "ray"), default="local", help="local (default) or ray: "
                       "Ray Data actors, for a cluster (`pip install 'ray[data]'`)")
    audit.add_argument("--ray-address", default=None, help="Ray cluster address (default: RAY_ADDRESS or a "
                       "local instance)")
    audit.add_argument("--actors", type=int, default=None, help="Ray model actors (default: one per CPU left "
                       "after reading, or one per GPU)")
    audit.add_argument("--gpus-per-actor", type=float, default=0.0, help="give each Ray actor this many GPUs")
    audit.add_argument("--ray-window", type=int, default=2000, help="input records per Ray read task")


def add_report_parser(sub) -> None:
    report = sub.add_parser("report", help="summarise audit output into one self-contained HTML page")
    report.add_argument("input", help="the output of `verifier audit` (.jsonl or .parquet)")
    report.add_argument("-o", "--output", default=None, help="HTML file to write")
    report.add_argument("--json", default=None, help="also write the summary as JSON to this file (- for stdout)")
    report.add_argument("--max-answers", type=int, default=300, help="answers kept for browsing (problems first)")
    report.add_argument("--title", default="Audit report")


def _options(args: argparse.Namespace):
    from verifier.audit import AuditOptions

    if args.batch_size is None:  # a GPU wants far bigger batches than a CPU core
        args.batch_size = 128 if args.engine == "ray" and args.gpus_per_actor > 0 else 16
    for name in ("batch_size", "checkpoint_every", "ray_window"):
        if getattr(args, name) < 1:
            raise AuditInputError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if not Path(args.input).is_file():
        raise AuditInputError(f"input file {args.input!r} does not exist")
    if Path(args.output).resolve() == Path(args.input).resolve():
        raise AuditInputError("-o names the input file; write the reports to another file")
    if not Path(args.output).resolve().parent.is_dir():
        raise AuditInputError(f"the folder of -o {args.output!r} does not exist; create it first")
    columns = Columns(answer=args.answer_col, sources=args.sources_col, id=args.id_col,
                      question=args.question_col, context=args.context_col)
    return AuditOptions(input=args.input, output=args.output, fmt=detect_format(args.input, args.format),
                        columns=columns, model=args.model, engine=args.engine, batch_size=args.batch_size,
                        checkpoint_every=args.checkpoint_every, include_text=args.include_text,
                        restart=args.restart, progress=False if args.no_progress else None)


def cmd_audit(args: argparse.Namespace, make_verifier: Callable[[argparse.Namespace], object]) -> int:
    from verifier.audit import LocalEngine, run_audit, run_audit_file
    from verifier.cache import VerifierCache

    if args.input == "-":
        if args.engine != "local" or not args.output.endswith((".jsonl", ".json")):
            print("verifier: standard input is audited by the local engine into a .jsonl file; save it to a "
                  "file for Parquet output, Ray or resuming", file=sys.stderr)
            return 2
        verifier = make_verifier(args)
        with open(args.output, "w", encoding="utf-8") as out:
            stats = run_audit(verifier, sys.stdin, out, batch_size=args.batch_size or 16,
                              progress=False if args.no_progress else None)
        print(f"verifier: {stats.lines} lines, {stats.ok} reports, {stats.failed} errors -> {args.output}",
              file=sys.stderr)
        return 1 if stats.failed else 0
    try:
        options = _options(args)
        if args.engine == "ray":
            from verifier.ray_engine import RayEngine, RaySettings

            settings = RaySettings(address=args.ray_address, actors=args.actors, gpus_per_actor=args.gpus_per_actor,
                                   window=args.ray_window)

            def factory():
                return RayEngine(options, settings, device=args.device, models_file=args.models_file)
        else:
            def factory():
                verifier = make_verifier(args)
                verifier.cache = VerifierCache()  # shared sources and repeated claims are worked out once
                return LocalEngine(verifier, options)

        summary = run_audit_file(factory, options)
    except (AuditInputError, ResumeError) as exc:
        print(f"verifier: {exc}", file=sys.stderr)
        return 2
    print(summary.line(), file=sys.stderr)
    if args.summary:
        Path(args.summary).write_text(summary.to_json() + "\n", encoding="utf-8")
    return 1 if summary.failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    from verifier.report_html import render_html
    from verifier.report_summary import iter_report_records, summarize

    if not args.output and not args.json:
        print("verifier: say where the report goes: -o report.html and/or --json summary.json", file=sys.stderr)
        return 2
    try:
        summary = summarize(iter_report_records(args.input), max_answers=args.max_answers)
    except (FileNotFoundError, ValueError) as exc:
        print(f"verifier: {exc}", file=sys.stderr)
        return 2
    if args.output:
        Path(args.output).write_text(render_html(summary, title=args.title, source_name=args.input),
                                     encoding="utf-8")
    if args.json:
        text = json.dumps(summary.to_dict(), ensure_ascii=False, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(f"verifier: {summary.answers} answers, {summary.errors} errors, {summary.claims} claims"
          + (f" -> {args.output}" if args.output else ""), file=sys.stderr)
    return 0
