"""The audit summary as ONE self-contained HTML page: inline CSS, JS and SVG, no external assets.

Everything the page needs to be read is in the static markup (figures, charts, tables, the
answers with their claims highlighted); the small inline script only adds filtering, the
"showing N of M" line and click-to-open evidence, so the page still reads with scripts off.
"""

from __future__ import annotations

from html import escape
from typing import Iterable

from verifier.report_summary import ACTIONS, FAILURE_KINDS, LABELS, Summary

COLORS = {
    "supported": "#2e7d32", "partial": "#f9a825", "unsupported": "#757575", "contradicted": "#c62828",
    "answer": "#2e7d32", "rewrite": "#1565c0", "clarify": "#6a1b9a", "abstain": "#ef6c00", "handoff": "#c62828",
}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:0;color:#1b1b1b;
background:#f6f7f9}
header{background:#1f2937;color:#fff;padding:16px 28px}header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;color:#cbd5e1}
main{padding:20px 28px;max-width:1200px}
section{background:#fff;border:1px solid #e3e6ea;border-radius:8px;padding:14px 18px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 10px}section{overflow-x:auto}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{flex:1;min-width:130px;background:#fff;border:1px solid #e3e6ea;
border-radius:8px;padding:10px 14px}.card b{display:block;font-size:26px}.card span{color:#555}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee}
th{color:#555;font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-size:12px}
.filters{display:flex;gap:8px;margin:0 0 10px;flex-wrap:wrap}.filters input{flex:1;min-width:160px}
article{border-top:1px solid #eee;padding:10px 0}article h3{font-size:13px;margin:0 0 6px;color:#333;
font-weight:600}
.text{font-size:15px}mark.claim{background:none;border-bottom:3px solid;cursor:pointer;padding:0 1px}
mark.claim:hover,mark.claim.open{background:#eef2ff}
mark.lbl-supported{border-color:#2e7d32}mark.lbl-partial{border-color:#f9a825}
mark.lbl-unsupported{border-color:#9e9e9e}mark.lbl-contradicted{border-color:#c62828;background:#fdecea}
svg{max-width:100%}
.ev{display:none;margin:6px 0 6px 14px;padding:8px 10px;border-left:3px solid #cbd5e1;background:#fafafa}
.ev.open{display:block}.ev q{color:#333}.ev .stale{color:#ef6c00}.muted{color:#777}
.legend span{margin-right:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
"""

SCRIPT = """
(function(){
  var list=document.getElementById('answers'); if(!list) return;
  var items=[].slice.call(list.querySelectorAll('article'));
  var act=document.getElementById('f-action'), lab=document.getElementById('f-label'),
      q=document.getElementById('f-text'), shown=document.getElementById('shown');
  function apply(){
    var n=0, text=q.value.toLowerCase();
    items.forEach(function(a){
      var ok=(!act.value||a.dataset.action===act.value)&&(!lab.value||a.dataset.labels.split(' ').indexOf(lab.value)>=0)
        &&(!text||a.textContent.toLowerCase().indexOf(text)>=0);
      a.style.display=ok?'':'none'; if(ok) n++;
    });
    shown.textContent='Showing '+n+' of '+items.length+' answers';
    shown.dataset.shown=n;
  }
  [act,lab,q].forEach(function(el){el.addEventListener('input',apply);});
  list.addEventListener('click',function(e){
    var m=e.target.closest('mark.claim'); if(!m) return;
    var ev=document.getElementById(m.dataset.ev); m.classList.toggle('open'); ev.classList.toggle('open');
  });
  apply();
})();
"""


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0%"


def _bar_chart(chart_id: str, rows: list[tuple[str, int]], total: int) -> str:
    """Horizontal SVG bars, one row per (name, count), scaled to the largest count."""
    width, label_w, row_h = 460, 170, 24
    top = max((v for _, v in rows), default=0) or 1
    parts = [f'<svg id="{chart_id}" role="img" viewBox="0 0 {width} {row_h * len(rows) + 4}" width="{width}">']
    for i, (name, value) in enumerate(rows):
        y = i * row_h + 2
        w = round((width - label_w - 90) * value / top, 1)
        color = COLORS.get(name, "#455a64")
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{escape(name)}</text>'
                     f'<rect x="{label_w}" y="{y + 3}" width="{w}" height="16" rx="3" fill="{color}">'
                     f'<title>{escape(name)}: {value}</title></rect>'
                     f'<text x="{label_w + w + 6}" y="{y + 15}" font-size="12" data-name="{escape(name)}" '
                     f'data-count="{value}">{value} ({_pct(value, total)})</text>')
    parts.append("</svg>")
    return "".join(parts)


def _stacked_bar(chart_id: str, rows: list[tuple[str, int]]) -> str:
    total = sum(v for _, v in rows) or 1
    x, parts = 0.0, [f'<svg id="{chart_id}" role="img" viewBox="0 0 600 28" width="100%">']
    for name, value in rows:
        w = 600 * value / total
        parts.append(f'<rect x="{x:.1f}" y="2" width="{w:.1f}" height="24" fill="{COLORS.get(name, "#455a64")}">'
                     f'<title>{escape(name)}: {value}</title></rect>')
        x += w
    parts.append("</svg>")
    legend = "".join(f'<span><i style="background:{COLORS.get(n, "#455a64")}"></i>{escape(n)} {v} '
                     f'({_pct(v, total)})</span>' for n, v in rows)
    return "".join(parts) + f'<p class="legend">{legend}</p>'


def _card(key: str, value: str | int, caption: str) -> str:
    return f'<div class="card"><b id="stat-{key}" data-value="{escape(str(value))}">{escape(str(value))}</b>' \
           f'<span>{escape(caption)}</span></div>'


def _table(table_id: str, head: list[str], rows: Iterable[list], empty: str) -> str:
    body = "".join("<tr>" + "".join(f'<td class="n">{c}</td>' if isinstance(c, int) else f"<td>{escape(str(c))}</td>"
                                    for c in row) + "</tr>" for row in rows)
    if not body:
        return f'<p class="muted">{escape(empty)}</p>'
    return f'<table id="{table_id}"><tr>' + "".join(f"<th>{escape(h)}</th>" for h in head) + f"</tr>{body}</table>"


def _claim_details(ev_id: str, claim: dict) -> str:
    facts = "".join(
        f'<li>{escape(f.get("kind", ""))} <q>{escape(f.get("text", ""))}</q>: {escape(f.get("status", ""))}'
        + (f' (source {escape(str(f.get("source_id")))} says <q>{escape(f["evidence_text"])}</q>)'
           if f.get("evidence_text") else "") + "</li>"
        for f in claim.get("facts") or [])
    evidence = "".join(
        f'<li>source <b>{escape(str(e.get("source_id")))}</b> {escape(e.get("relation", ""))} '
        f'({e.get("score", 0):.2f}){"" if e.get("current", True) else " <span class=stale>not current</span>"}: '
        f'<q>{escape(e.get("text", ""))}</q></li>'
        for e in claim.get("evidence") or [])
    return (f'<div class="ev" id="{ev_id}"><b>{escape(claim.get("label", ""))}</b> '
            f'({claim.get("score", 0):.2f}) {escape(claim.get("reason", ""))}'
            + (f"<ul>{facts}</ul>" if facts else "")
            + (f"<ul>{evidence}</ul>" if evidence else '<p class="muted">no evidence span</p>') + "</div>")


def _marked_text(record: dict, prefix: str) -> tuple[str, str]:
    """The answer with each claim marked by label (answer text when the audit kept it, else the claims)."""
    claims = record.get("claims") or []
    answer = record.get("answer")
    out, details, cursor = [], [], 0
    for i, claim in enumerate(claims):
        ev_id = f"{prefix}-c{i}"
        label = claim.get("label", "unsupported")
        tip = f'{label}: {claim.get("reason", "")}'
        mark = (f'<mark class="claim lbl-{escape(label)}" data-label="{escape(label)}" data-ev="{ev_id}" '
                f'title="{escape(tip)}" tabindex="0">{escape(claim.get("text", ""))}</mark>')
        start, end = claim.get("start", 0), claim.get("end", 0)
        if isinstance(answer, str) and cursor <= start <= end <= len(answer):
            out.append(escape(answer[cursor:start]) + mark)
            cursor = end
        else:
            out.append((" " if out else "") + mark)
        details.append(_claim_details(ev_id, claim))
    if isinstance(answer, str):
        out.append(escape(answer[cursor:]))
    return "".join(out), "".join(details)


def _answer_article(record: dict) -> str:
    line = record.get("line")
    action = (record.get("decision") or {}).get("action", "")
    labels = " ".join(sorted({c.get("label", "") for c in record.get("claims") or []}))
    text, details = _marked_text(record, f"a{line}")
    question = f'<p class="muted">Q: {escape(record["question"])}</p>' if record.get("question") else ""
    reason = escape((record.get("decision") or {}).get("reason", ""))
    return (f'<article data-action="{escape(action)}" data-labels="{escape(labels)}" data-line="{line}">'
            f'<h3>line {line} · {escape(str(record.get("id") or "no id"))} · '
            f'<span class="badge" style="background:{COLORS.get(action, "#455a64")}">{escape(action)}</span> '
            f'<span class="muted">{reason}</span></h3>{question}<div class="text">{text}</div>{details}</article>')


def render_html(summary: Summary, *, title: str = "Audit report", source_name: str = "") -> str:
    data = summary.to_dict()
    actions = [(a, data["actions"].get(a, 0)) for a in data["actions"]]
    labels = [(k, data["labels"][k]) for k in LABELS]
    failures = [(k, data["failure_kinds"][k]) for k in FAILURE_KINDS]
    answers = summary.browsable()
    options = "".join(f'<option value="{a}">{a}</option>' for a in ACTIONS)
    label_options = "".join(f'<option value="{k}">{k}</option>' for k in LABELS)
    worst = _table("worst-sources", ["source", "problems", "cited", "supports", "contradicts", "not current",
                                     "fact mismatches"],
                   ([s["source_id"], s["problems"], s["cited"], s["supports"], s["contradicts"], s["stale"],
                     s["mismatches"]] for s in data["worst_sources"]), "No source contradicted or outdated a claim.")
    errors = _table("errors", ["line", "id", "error"],
                    ([e["line"] or 0, e["id"] or "", e["error"]] for e in data["error_samples"]), "No input errors.")
    body = f"""<header><h1>{escape(title)}</h1><p>{escape(source_name)}</p></header><main>
<div class="cards">{_card("answers", data["answers"], "answers audited")}{_card("reports", data["reports"], "reports")}
{_card("errors", data["errors"], "input errors")}{_card("claims", data["claims"], "claims")}
{_card("supported", f'{100 * data["supported_ratio"]:.1f}%', "claims supported")}
{_card("passed", data["actions"].get("answer", 0), "answers that may go out")}</div>
<div class="grid" style="margin-top:16px">
<section><h2>Action mix</h2>{_bar_chart("chart-actions", actions, data["reports"])}</section>
<section><h2>Claim labels</h2>{_stacked_bar("chart-labels", labels)}
{_bar_chart("chart-labels-bars", labels, data["claims"])}</section>
</div>
<div class="grid"><section><h2>Most common failure kinds</h2><p class="muted">claims (conflicts: answers)</p>
{_bar_chart("chart-failures", failures, data["claims"])}</section>
<section><h2>Worst sources</h2>{worst}</section></div>
<section><h2>Input errors</h2>{errors}</section>
<section><h2>Answers</h2><p class="muted">{len(answers)} of {data["answers"]} answers kept for browsing, problem
answers first. Click a highlighted claim for its evidence; hover for the reason.</p>
<div class="filters"><select id="f-action"><option value="">every action</option>{options}</select>
<select id="f-label"><option value="">every label</option>{label_options}</select>
<input id="f-text" type="search" placeholder="search text"></div>
<p id="shown" data-shown="">Showing {len(answers)} of {len(answers)} answers</p>
<div id="answers">{"".join(_answer_article(r) for r in answers)}</div></section></main>"""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><style>{CSS}</style></head>'
            f"<body>{body}<script>{SCRIPT}</script></body></html>")
