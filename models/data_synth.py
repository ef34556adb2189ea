"""Synthetic (evidence, claim, label) pairs from reading-comprehension passages.

CMRC2018, DRCD (Traditional), CMRC2019 (filled cloze), XQuAD en + zh and HalluQA: the
answer sentence (or a QA-derived declarative claim) against a 1-3 sentence window or the
passage = entailment; the answer swapped for another same-type span, a changed number or
year, a year taken from elsewhere in the passage ("merged years"), or a negation =
contradiction; a sentence outside the evidence window or another paragraph, or the claim
with an extra detail appended = neutral. Deterministic for a given `random.Random`.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

from models.data_text import split_sents


_ZH_WH = re.compile(
    r"(哪一年|哪年|哪一天|哪天|哪[一]?[个位家座所条部种国支只名本首间]|哪里|哪儿|什么时候|什么地方|什么人|什么|多少[个年人次种名家位座万亿岁米公里平方公里]*|"
    r"几[个年月日次位名种座家岁]|谁|何时|何地|何人|何种|何处|何年|哪些|哪)")
_EN_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")
_ZH_NUM = re.compile(r"\d+(?:\.\d+)?")
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def span_type(a: str) -> str:
    if _YEAR.search(a):
        return "year"
    if re.search(r"\d", a) or re.search(r"[一二三四五六七八九十百千万亿两]+[个年月日次位名种座家岁人]", a):
        return "num"
    if re.search(r"[A-Z][a-z]+", a) or len(a) <= 8:
        return "ent"
    return "other"


def zh_declarative(q: str, a: str) -> str | None:
    """Chinese question + answer -> declarative claim by wh-substitution."""
    q = q.strip().rstrip("?？呢吗嗎。 ").strip()
    ms = list(_ZH_WH.finditer(q))
    if len(ms) != 1 or "为什么" in q or "為什麼" in q or "如何" in q or "怎样" in q or "怎麼" in q:
        return None
    m = ms[0]
    s = q[:m.start()] + a + q[m.end():]
    s = s.replace("是是", "是")
    return s + "。"


def perturb_number(s: str, rng: random.Random, zh: bool) -> str | None:
    nums = list((_ZH_NUM if zh else _EN_NUM).finditer(s))
    if not nums:
        return None
    m = rng.choice(nums)
    raw = m.group().replace(",", "")
    try:
        v = float(raw)
    except ValueError:
        return None
    if _YEAR.fullmatch(raw):
        nv = int(v) + rng.choice([-10, -5, -3, -2, -1, 1, 2, 3, 5, 10])
        new = str(nv)
    elif "." in raw:
        nv = v * rng.choice([0.5, 0.8, 1.3, 1.5, 2, 10])
        new = f"{nv:.{len(raw.split('.')[1])}f}"
    else:
        iv = int(v)
        if iv <= 10:
            nv = rng.choice([x for x in range(1, 13) if x != iv])
        else:
            nv = int(iv * rng.choice([0.5, 0.7, 1.2, 1.5, 2, 3]))
            if nv == iv:
                nv = iv + rng.randint(1, 9)
        new = f"{nv:,}" if ("," in m.group()) else str(nv)
    if new == m.group():
        return None
    return s[:m.start()] + new + s[m.end():]


def swap_year_from_passage(s: str, passage: str, rng: random.Random) -> str | None:
    """Merged years: replace a year in the claim with another year of the passage."""
    ys = list(_YEAR.finditer(s))
    others = sorted({m.group() for m in _YEAR.finditer(passage)} - {m.group() for m in ys})
    if not ys or not others:
        return None
    m = rng.choice(ys)
    return s[:m.start()] + rng.choice(others) + s[m.end():]




def negate_en(s: str) -> str | None:
    m = re.search(r"\b(is|was|are|were|has|had|have|can|will|could|would|should|did|does|do) not\b", s)
    if m:
        return s[:m.end() - 4] + s[m.end():]
    m = re.search(r"\b(is|was|are|were|can|will|could|would|should|has been|have been|had been)\b", s)
    if m:
        return s[:m.end()] + " not" + s[m.end():]
    m = re.search(r"\b([a-z]+ed)\b", s)
    if m and len(m.group(1)) > 4:
        return s[:m.start()] + "never " + s[m.start():]
    return None


_ZH_NEG_PAIRS = [("不是", "是"), ("没有", "有"), ("沒有", "有"), ("不能", "能"), ("不会", "会"), ("不會", "會"),
                 ("并非", "是"), ("並非", "是")]


def negate_zh(s: str) -> str | None:
    for neg, pos in _ZH_NEG_PAIRS:
        i = s.find(neg)
        if i >= 0:
            return s[:i] + pos + s[i + len(neg):]
    m = re.search(r"(?<![于於但就还還总總可正便凡若要或只即乃也都不硬倒])是", s)
    if m:
        return s[:m.start()] + "不是" + s[m.end():]
    m = re.search(r"(?<![没沒所])有(?![些的关關限效])", s)
    if m:
        return s[:m.start()] + ("沒有" if re.search(r"[這們們說為與個]", s) else "没有") + s[m.end():]
    m = re.search(r"(曾|已|被|在|于|於)", s)
    if m and m.group() in "曾已":
        return s[:m.start()] + "未" + s[m.end():]
    return None


def add_detail(s: str, extra: str, zh: bool) -> str:
    """Claim with an extra (unsupported) clause appended."""
    extra = extra.strip().rstrip("。.!！?？")
    if zh:
        return s.rstrip("。") + "，" + ("并且" if rng_bit(s) else "同时") + extra + "。"
    extra = extra[0].lower() + extra[1:] if extra[:1].isupper() and not extra[1:2].isupper() else extra
    return s.rstrip(".") + ", and " + extra + "."


def rng_bit(s: str) -> bool:
    return hashlib.md5(s.encode()).digest()[0] % 2 == 0


def load_squad(path: Path, lang: str, src: str, script: str = ""):
    d = json.loads(path.read_text(encoding="utf-8"))
    items = []
    for art_i, art in enumerate(d["data"]):
        for par_i, par in enumerate(art["paragraphs"]):
            ctx = par["context"]
            qas = []
            for qa in par.get("qas", []):
                if not qa.get("answers"):
                    continue
                a = qa["answers"][0]
                qas.append((qa["question"], a["text"], int(a["answer_start"])))
            items.append({"src": src, "lang": lang, "article": f"{src}:{art_i}", "context": ctx, "qas": qas})
    return items


def load_cmrc2019(path: Path):
    d = json.loads(path.read_text(encoding="utf-8"))
    items = []
    for i, r in enumerate(d["data"]):
        ctx = r["context"]
        for k, ans in enumerate(r["answers"]):
            ctx = ctx.replace(f"[BLANK{k + 1}]", r["choices"][ans])
        if "[BLANK" in ctx:
            continue
        used = set(r["answers"])
        fakes = [c for j, c in enumerate(r["choices"]) if j not in used]
        items.append({"src": "cmrc2019", "lang": "zh", "article": f"cmrc2019:{i}", "context": ctx, "qas": [],
                      "fakes": fakes})
    return items


def load_passages(root: Path) -> list[dict]:
    P = []
    P += load_squad(root / "cmrc2018/cmrc2018_dev.json", "zh", "cmrc2018")
    P += load_squad(root / "cmrc2018/cmrc2018_trial.json", "zh", "cmrc2018")
    P += load_squad(root / "drcd/DRCD_dev.json", "zh", "drcd")
    P += load_squad(root / "drcd/DRCD_test.json", "zh", "drcd")
    P += load_squad(root / "xquad_en_zh/xquad.zh.json", "zh", "xquad_zh")
    P += load_squad(root / "xquad_en_zh/xquad.en.json", "en", "xquad_en")
    P += load_cmrc2019(root / "cmrc2019/cmrc2019_dev.json")
    P += load_cmrc2019(root / "cmrc2019/cmrc2019_trial.json")
    return P


def _window(ctx: str, spans, k: int, rng: random.Random, long_p: float):
    """Evidence for sentence k: itself, a 2-3 sentence window, or the passage."""
    r = rng.random()
    if r < long_p:
        return ctx.strip(), 0, len(spans)
    if r < long_p + 0.25:
        lo, hi = k, k + 1
    else:
        w = rng.choice([2, 3, 3])
        lo = max(0, min(k - rng.randint(0, w - 1), len(spans) - w))
        hi = min(len(spans), lo + w)
    return ctx[spans[lo][0]:spans[hi - 1][1]].strip(), lo, hi


def synth_from_passages(passages: list[dict], rng: random.Random, per_q: int = 3, long_p: float = 0.15) -> list[dict]:
    out = []
    pools: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_article = defaultdict(list)
    all_sents: dict[str, list[str]] = defaultdict(list)
    for i, p in enumerate(passages):
        by_article[p["article"]].append(i)
        for q, a, _ in p["qas"]:
            if 0 < len(a) <= 30:
                pools[(p["lang"], span_type(a))].append(a)
        ctx = p["context"]
        for s, e in split_sents(ctx):
            t = ctx[s:e].strip()
            if 8 <= len(t) <= 200:
                all_sents[p["lang"]].append(t)
    for key in pools:
        pools[key] = sorted(set(pools[key]))

    def other_sentence(p, exclude_text):
        """A sentence on a similar topic that the evidence does not contain."""
        sibs = [j for j in by_article[p["article"]] if passages[j]["context"] != p["context"]]
        for _ in range(4):
            if sibs and rng.random() < 0.7:
                c = passages[rng.choice(sibs)]["context"]
                sp = split_sents(c)
                if sp:
                    s, e = rng.choice(sp)
                    t = c[s:e].strip()
                    if 8 <= len(t) <= 200 and t not in exclude_text:
                        return t
            t = rng.choice(all_sents[p["lang"]])
            if t not in exclude_text:
                return t
        return None

    for p in passages:
        ctx, zh = p["context"], p["lang"] == "zh"
        spans = split_sents(ctx)
        if not spans:
            continue
        items = []  # (sentence index, claim base, answer, answer-in-claim)
        for q, a, st in p["qas"]:
            k = next((i for i, (s, e) in enumerate(spans) if s <= st < e), None)
            if k is None:
                continue
            sent = ctx[spans[k][0]:spans[k][1]].strip()
            decl = zh_declarative(q, a) if zh else None
            base = decl if (decl and rng.random() < 0.5) else sent
            if a not in base:
                continue
            items.append((k, base, a))
        if not p["qas"]:  # cloze passages: sentences with numbers or random sentences
            for k, (s, e) in enumerate(spans):
                t = ctx[s:e].strip()
                if 10 <= len(t) <= 150 and rng.random() < 0.35:
                    items.append((k, t, None))
        seen_k = Counter()
        for k, base, a in items:
            seen_k[k] += 1
            if seen_k[k] > 2:
                continue
            ev, lo, hi = _window(ctx, spans, k, rng, long_p)
            if len(base) > 250:
                continue
            lang = p["lang"]
            src = p["src"]
            kinds = ["entailment"] + rng.sample(["swap", "number", "negation", "merged_year", "outside", "detail"],
                                                k=min(per_q - 1, 6))
            for kind in kinds:
                claim, label = None, None
                if kind == "entailment":
                    claim, label = base, "entailment"
                elif kind == "swap" and a:
                    cands = [x for x in pools.get((lang, span_type(a)), []) if x != a and x not in a and a not in x]
                    same = [x for x in (qa[1] for qa in p["qas"]) if x != a and span_type(x) == span_type(a)
                            and x not in a and a not in x]
                    pick = rng.choice(same) if same and rng.random() < 0.5 else (rng.choice(cands) if cands else None)
                    if pick:
                        claim, label = base.replace(a, pick, 1), "contradiction"
                elif kind == "number":
                    c = perturb_number(base, rng, zh)
                    if c:
                        claim, label = c, "contradiction"
                elif kind == "merged_year":
                    c = swap_year_from_passage(base, ctx, rng)
                    if c:
                        claim, label = c, "contradiction"
                elif kind == "negation":
                    c = negate_zh(base) if zh else negate_en(base)
                    if c:
                        claim, label = c, "contradiction"
                elif kind == "outside":
                    # a sentence of the same passage outside the window, else a sibling paragraph
                    outside = [j for j in range(len(spans)) if j < lo or j >= hi]
                    if outside and rng.random() < 0.5:
                        s, e = spans[rng.choice(outside)]
                        t = ctx[s:e].strip()
                        if 8 <= len(t) <= 200 and t not in ev:
                            claim, label = t, "neutral"
                    if claim is None:
                        t = other_sentence(p, ev)
                        if t:
                            claim, label = t, "neutral"
                elif kind == "detail":
                    t = other_sentence(p, ev)
                    if t and len(t) < 80:
                        claim, label = add_detail(base, t, zh), "neutral"
                if claim and label and claim.strip():
                    out.append({"evidence": ev, "claim": claim, "label": label, "source": f"{src}:{kind}",
                                "lang": lang})
        for fake in p.get("fakes", [])[:2]:
            ev, _, _ = _window(ctx, spans, rng.randrange(len(spans)), rng, 0.5)
            out.append({"evidence": ev, "claim": fake.strip(), "label": "neutral", "source": f"{p['src']}:fake",
                        "lang": "zh"})
    return out


def synth_halluqa(root: Path, rng: random.Random) -> list[dict]:
    rows = json.loads((root / "halluqa/HalluQA.json").read_text(encoding="utf-8"))
    out = []
    for r in rows:
        q = r["Question"].strip()
        best = [r.get(f"Best Answer{i}", "") for i in range(1, 5)]
        best = [b.strip() for b in best if b and b.strip()]
        wrong = [r.get(f"Wrong_Answer{i}", "") for i in range(1, 5)]
        wrong = [w.strip() for w in wrong if w and w.strip()]
        src = (r.get("Source") or "").strip()
        if not best:
            continue
        if src and not re.match(r"https?://|www\.", src) and len(src) > 6:
            ev = src
            sup = best[:2]
        else:
            ev = f"问：{q} 答：{best[0]}"
            sup = best[1:3]
        for b in sup:
            out.append({"evidence": ev, "claim": f"{q} {b}", "label": "entailment", "source": "halluqa", "lang": "zh"})
        for w in rng.sample(wrong, k=min(2, len(wrong))):
            out.append({"evidence": ev, "claim": f"{q} {w}", "label": "contradiction", "source": "halluqa",
                        "lang": "zh"})
    return out


def xquad_crosslingual(root: Path, rng: random.Random, n: int = 600) -> list[dict]:
    """Claim in one language, the whole parallel paragraph in the other."""
    en = load_squad(root / "xquad_en_zh/xquad.en.json", "en", "xquad_en")
    zh = load_squad(root / "xquad_en_zh/xquad.zh.json", "zh", "xquad_zh")
    out = []
    for pe, pz in zip(en, zh):
        for (pa, pb) in ((pe, pz), (pz, pe)):
            for q, a, st in pa["qas"][:2]:
                sp = split_sents(pa["context"])
                k = next((i for i, (s, e) in enumerate(sp) if s <= st < e), None)
                if k is None:
                    continue
                sent = pa["context"][sp[k][0]:sp[k][1]].strip()
                out.append({"evidence": pb["context"], "claim": sent, "label": "entailment",
                            "source": "xquad_xling", "lang": "xl"})
                c = perturb_number(sent, rng, pa["lang"] == "zh")
                if c:
                    out.append({"evidence": pb["context"], "claim": c, "label": "contradiction",
                                "source": "xquad_xling", "lang": "xl"})
    rng.shuffle(out)
    return out[:n]
