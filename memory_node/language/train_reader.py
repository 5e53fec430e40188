"""Train the learned reader (``reader.py``) from the corpus folder: one seeded command, a minute or two.

    python -m memory_node.language.train_reader [--out memory_node/language/reader_model]

Reads ``corpus/alfred_train.jsonl``, ``corpus/dev.jsonl`` and ``corpus/writers/*.jsonl`` (the training 75 % of
each writer's file; ``corpus/heldaside`` and ALFRED ``valid_seen`` are never read here). 15 % of the training
records (by a seeded hash of the text) are kept for calibration: the models are fitted on the other 85 %, the
temperature of the intent distribution on the 15 %, and the reliability printed is the 15 %'s.

Models: L2-regularised multinomial logistic regressions fitted with L-BFGS (scipy), intent weighted by the
inverse square root of each intent's frequency so ALFRED's many put / fetch / go lines do not drown the rest.
Slot taggers are trained on tokens with a weight of 0 where the corpus does not know the label (``mask`` in a
record; the colour / attribute / owner / quantity layer outside writers' records).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from .reader import (LAYERS, MODEL_DIR, bio_labels, sentence_dense, sentence_features, token_dense,
                     token_features)
from .request import Intent, Kind

CORPUS = Path(__file__).with_name("corpus")
SEED = "reader-train-2026"
CALIB_FRACTION = 0.15
MIN_COUNT = 2
INTENT_L2 = 1.0
TAG_L2 = 1.0
VALID_INTENTS = {i.value for i in Intent}


def not_trained(corpus: Path = CORPUS) -> frozenset[str]:
    """Writers measured on but not trained on (``corpus/not_trained.txt``: why is said there)."""
    f = corpus / "not_trained.txt"
    if not f.is_file():
        return frozenset()
    return frozenset(ln.strip() for ln in f.read_text(encoding="utf-8").splitlines()
                     if ln.strip() and not ln.lstrip().startswith("#"))


def load_corpus(corpus: Path = CORPUS) -> list[dict]:
    recs = []
    skip = not_trained(corpus)
    files = [corpus / "alfred_train.jsonl", corpus / "dev.jsonl",
             *sorted(f for f in (corpus / "writers").glob("*.jsonl") if f.stem not in skip)]
    for f in files:
        if not f.is_file():
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("intent") not in VALID_INTENTS:
                continue
            r.setdefault("source", f"writer:{f.stem}")
            recs.append(r)
    return recs


def augment(recs: list[dict], seed: str = SEED) -> list[dict]:
    """One copy of each writer's / dev record whose object is said once, with another record's object in its
    place: the words of a thing say what it is, not what is asked of it ("where is the juice?" must not lean
    to goes_where because juice was put away in some training line). Copies carry no colour / owner / ...
    labels (``source`` "aug:...") and follow their original into the fitting or the calibration split
    (copies of calibration records are dropped)."""
    rng = random.Random(seed)
    pool = sorted({r["slots"]["object"] for r in recs if "object" in r.get("slots", {})
                   and not r.get("source", "").startswith("alfred")})
    out = []
    for r in recs:
        v = r.get("slots", {}).get("object")
        if r.get("source", "").startswith("alfred") or not v or r["text"].count(v) != 1 or calibration(r["text"]):
            continue
        new = rng.choice(pool)
        text = r["text"].replace(v, new)
        slots = {k: (new if k == "object" else val) for k, val in r["slots"].items()
                 if k == "object" or k not in ("colour", "attribute", "owner", "quantity") and val in text}
        out.append({**r, "text": text, "slots": slots, "source": f"aug:{r.get('source', '')}", "orig": r["text"]})
    return out


def calibration(text: str) -> bool:
    h = hashlib.sha256(f"{SEED}\x00{text}".encode()).digest()
    return int.from_bytes(h[:8], "big") / 2 ** 64 < CALIB_FRACTION


# ---- spans -> token labels ------------------------------------------------------------------------------


def _find(text: str, value: str, before: int | None, taken: list[tuple[int, int]]) -> tuple[int, int] | None:
    from .normalise import normalise

    for v in (value, normalise(value), value.lower()):
        if not v:
            continue
        hay = text if v is not value.lower() else text.lower()
        hits = []
        k = hay.find(v)
        while k >= 0:
            # whole words only
            if (k == 0 or not hay[k - 1].isalnum()) and (k + len(v) == len(hay) or not hay[k + len(v)].isalnum()):
                hits.append((k, k + len(v)))
            k = hay.find(v, k + 1)
        hits = [h for h in hits if not any(a < h[1] and h[0] < b for a, b in taken)]
        if hits:
            if before is not None:
                prior = [h for h in hits if h[1] <= before]
                return prior[-1] if prior else hits[0]
            return hits[0]
    return None


def token_labels(doc, rec: dict) -> tuple[list[list[str]], list[np.ndarray]]:
    """Per layer: BIO tags and weights for the doc's tokens."""
    text = doc.text
    writer = rec.get("source", "").startswith("writer")
    tags, weights = [], []
    slots = rec.get("slots", {})
    for k, layer in enumerate(LAYERS):
        tg = ["O"] * len(doc)
        w = np.ones(len(doc), dtype=np.float32)
        if k == 1 and not writer:
            w[:] = 0.0
        taken: list[tuple[int, int]] = []
        order = [s for s in layer if s in slots and s not in ("relation", "anchor_relation")] + \
            [s for s in ("relation", "anchor_relation") if s in layer and s in slots]
        for s in order:
            before = None
            if s in ("relation", "anchor_relation"):
                ref = slots.get("destination" if s == "relation" else "anchor")
                loc = _find(text, ref, None, []) if ref else None
                before = loc[0] if loc else None
            loc = _find(text, slots[s], before, taken)
            if loc is None:
                continue
            toks = [t.i for t in doc if t.idx < loc[1] and loc[0] < t.idx + len(t.text)]
            if not toks or any(tg[i] != "O" for i in toks):
                continue
            taken.append(loc)
            for j, i in enumerate(toks):
                tg[i] = ("B-" if j == 0 else "I-") + s
        if k == 0:
            for m in rec.get("mask", []):
                loc = _find(text, m, None, [])
                if loc is None:
                    continue
                for t in doc:
                    if t.idx < loc[1] and loc[0] < t.idx + len(t.text) and tg[t.i] == "O":
                        w[t.i] = 0.0
        tags.append(tg)
        weights.append(w)
    return tags, weights


# ---- multinomial logistic regression --------------------------------------------------------------------


class Design:
    """Sparse feature rows over a vocabulary of features seen at least MIN_COUNT times, plus dense columns."""

    def __init__(self, rows: list[list[str]], dense: np.ndarray, vocab: list[str] | None = None):
        from scipy import sparse

        if vocab is None:
            cnt = Counter(f for r in rows for f in set(r))
            vocab = sorted(f for f, n in cnt.items() if n >= MIN_COUNT)
        self.vocab = vocab
        index = {f: i for i, f in enumerate(vocab)}
        ind, ptr = [], [0]
        for r in rows:
            ind.extend(index[f] for f in r if f in index)
            ptr.append(len(ind))
        self.X = sparse.csr_matrix((np.ones(len(ind), dtype=np.float32), np.array(ind, dtype=np.int64),
                                    np.array(ptr, dtype=np.int64)), shape=(len(rows), len(vocab)))
        self.D = dense.astype(np.float32)


def fit(x: Design, y: np.ndarray, k: int, sw: np.ndarray, l2: float, iters: int = 250,
        mu: np.ndarray | None = None, sd: np.ndarray | None = None) -> dict:
    from scipy.optimize import minimize

    f, d = x.X.shape[1], x.D.shape[1]
    mu = x.D.mean(0) if mu is None else mu
    sd = x.D.std(0) + 1e-6 if sd is None else sd
    dn = ((x.D - mu) / sd).astype(np.float32)
    onehot = np.zeros((len(y), k), dtype=np.float32)
    onehot[np.arange(len(y)), y] = 1.0
    xt = x.X.T.tocsr()
    sw = sw.astype(np.float32)

    def unpack(theta):
        ws = theta[:f * k].reshape(f, k)
        wd = theta[f * k:f * k + d * k].reshape(d, k)
        return ws, wd, theta[f * k + d * k:]

    def loss(theta):
        # the products in float32, as the float32 design is stored (a float64 weight would make scipy upcast the
        # whole sparse matrix on every call: twice the time); L-BFGS keeps its own state in float64
        ws, wd, b = (v.astype(np.float32) for v in unpack(theta))
        z = x.X @ ws + dn @ wd + b
        z -= z.max(1, keepdims=True)
        lse = np.log(np.exp(z).sum(1, keepdims=True))
        logp = z - lse
        val = -(sw * (onehot * logp).sum(1)).sum(dtype=np.float64) + \
            0.5 * l2 * ((ws.astype(np.float64) ** 2).sum() + (wd.astype(np.float64) ** 2).sum())
        g = (np.exp(logp) - onehot) * sw[:, None]
        gws = xt @ g + l2 * ws
        gwd = dn.T @ g + l2 * wd
        return float(val), np.concatenate([np.asarray(gws).ravel(), gwd.ravel(), g.sum(0)]).astype(np.float64)

    theta0 = np.zeros(f * k + d * k + k)
    res = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": iters})
    ws, wd, b = unpack(res.x)
    # fold the dense standardisation into the weights: (D - mu) / sd @ wd = D @ (wd / sd) - (mu / sd) @ wd
    wd_raw = wd / sd[:, None]
    b_raw = b - (mu / sd) @ wd
    return {"ws": ws.astype(np.float32), "wd": wd_raw.astype(np.float32), "b": b_raw.astype(np.float32),
            "iters": int(res.nit)}


def scores(m: dict, x: Design) -> np.ndarray:
    return np.asarray(x.X @ m["ws"]) + x.D @ m["wd"] + m["b"]


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


def fit_temperature(z: np.ndarray, y: np.ndarray) -> float:
    from scipy.optimize import minimize_scalar

    def nll(t):
        p = softmax(z / t)
        return -np.log(p[np.arange(len(y)), y] + 1e-12).mean()

    return float(minimize_scalar(nll, bounds=(0.05, 10.0), method="bounded").x)


def reliability(conf: np.ndarray, ok: np.ndarray, edges=(0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001)) -> list[dict]:
    out = []
    for lo, hi in zip(edges, edges[1:]):
        m = (conf >= lo) & (conf < hi)
        if m.any():
            out.append({"bin": f"{lo:.2f}-{min(hi, 1):.2f}", "n": int(m.sum()), "accuracy": round(float(ok[m].mean()), 3),
                        "mean_conf": round(float(conf[m].mean()), 3)})
    return out


def ece(conf: np.ndarray, ok: np.ndarray, bins: int = 10) -> float:
    e = 0.0
    for k in range(bins):
        m = (conf >= k / bins) & (conf < (k + 1) / bins + (1e-9 if k == bins - 1 else 0))
        if m.any():
            e += m.mean() * abs(ok[m].mean() - conf[m].mean())
    return round(float(e), 4)


# ---- the command ---------------------------------------------------------------------------------------


def parse_all(texts: list[str], batch: int = 500) -> list:
    from .normalise import normalise
    from .parser import read_many

    norm = [normalise(t) or t for t in texts]
    # one process: spaCy's n_process=2 took twice as long here (6,000 lines: 14 s against 7 s)
    return read_many(norm, batch_size=batch)


def _service(rec: dict) -> Kind | None:
    """The kind the service a record was meant for expects (ALFRED's are instructions: ~/plan)."""
    if rec.get("source", "").startswith("alfred"):
        return Kind.command
    return {"ask": Kind.question, "plan": Kind.command}.get(rec.get("service", ""))


ALFRED_WEIGHT = 0.3  # in the policy's calibration: the robot hears people, not task descriptions


def _fit_job(job: tuple) -> dict:
    x, y, k, sw, l2, iters = job
    return fit(x, y, k, sw, l2, iters=iters)


def _fit_many(jobs: list[tuple]) -> list[dict]:
    """``fit`` for each job, two worker processes at a time on a machine with two cores or more, one after
    another otherwise; the same weights either way. The workers are started fresh ("spawn") and sent their
    design: forking a process that already runs threads (spaCy's, BLAS's, a test runner's) can leave the
    child waiting forever on a lock some thread held at the fork."""
    import multiprocessing as mp

    if len(jobs) < 2 or (os.cpu_count() or 1) < 2:
        return [_fit_job(j) for j in jobs]
    with mp.get_context("spawn").Pool(2) as pool:
        return pool.map(_fit_job, jobs, chunksize=1)


def fit_policy(model_dir: Path, recs: list[dict]) -> tuple[list[float], list[dict]]:
    """The weights of ``reading_policy.confidence``: a logistic regression from the evidence of each
    calibration record's combined reading to whether its intent's family is right."""
    from scipy.optimize import minimize

    from . import reading_policy as rp
    from .parser import rules_reading
    from .reader import Reader

    reader = Reader(model_dir).load()
    xs, ys, ws = [], [], []
    for r in recs:
        rule, doc, nparts, _ = rules_reading(r["text"], prefer=_service(r))
        if doc is None or not len(doc):
            continue
        reading = rp.model_reading(reader, rule, doc)
        req, case = rp.decide(rule, reading, doc, nparts, _service(r))
        xs.append(rp.evidence(req, reading, case, _service(r)))
        ys.append(float(rp.family(req.intent.value) == rp.family(r["intent"])))
        ws.append(ALFRED_WEIGHT if r.get("source", "").startswith("alfred") else 1.0)
    x, y, w = np.array(xs), np.array(ys), np.array(ws)

    def loss(theta):
        z = np.clip(x @ theta, -30, 30)
        p = 1 / (1 + np.exp(-z))
        val = -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() + 0.5 * (theta[1:] ** 2).sum()
        g = x.T @ (w * (p - y)) + np.concatenate([[0.0], theta[1:]])
        return val, g

    theta = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x
    conf = 1 / (1 + np.exp(-np.clip(x @ theta, -30, 30)))
    return [round(float(v), 4) for v in theta], reliability(conf, y.astype(bool))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    recs = load_corpus(a.corpus)
    recs += augment(recs)
    print(f"{len(recs)} records: {dict(Counter(r['source'].split(':')[0] for r in recs))}", flush=True)
    docs = parse_all([r["text"] for r in recs])
    print(f"parsed in {time.perf_counter() - t0:.0f} s", flush=True)
    intents = sorted({r["intent"] for r in recs})
    y = np.array([intents.index(r["intent"]) for r in recs])
    is_cal = np.array([calibration(r.get("orig", r["text"])) for r in recs])
    tr, ca = np.where(~is_cal)[0], np.where(is_cal)[0]
    freq = Counter(y[tr].tolist())
    sw = np.array([(len(tr) / (len(freq) * freq[c])) ** 0.5 if c in freq else 1.0 for c in y], dtype=np.float32)

    # intent
    feats = [sentence_features(d) for d in docs]
    dense = np.stack([sentence_dense(d) for d in docs])
    xtr = Design([feats[i] for i in tr], dense[tr])
    xca = Design([feats[i] for i in ca], dense[ca], xtr.vocab)

    # slot taggers' designs: each token of each record, with its tag in each layer
    labelled = [token_labels(d, r) for d, r in zip(docs, recs)]
    tfeats = [token_features(d) for d in docs]
    tdense = [token_dense(d) for d in docs]
    tag_sets = []
    for k, layer in enumerate(LAYERS):
        labs = bio_labels(layer)
        rows, cal_rows = [], []
        for i in range(len(recs)):
            tags, tw = labelled[i][0][k], labelled[i][1][k]
            for j in range(len(tags)):
                if tw[j] <= 0:
                    continue
                (cal_rows if is_cal[i] else rows).append((tfeats[i][j], tdense[i][j], labs.index(tags[j])))
        xt = Design([r[0] for r in rows], np.stack([r[1] for r in rows]))
        xc = Design([r[0] for r in cal_rows], np.stack([r[1] for r in cal_rows]), xt.vocab)
        tag_sets.append((labs, xt, np.array([r[2] for r in rows]), xc, np.array([r[2] for r in cal_rows])))
    print(f"features built at {time.perf_counter() - t0:.0f} s", flush=True)

    # the three fits are independent: two at a time on two cores (each is single-threaded sparse algebra)
    jobs = [(xtr, y[tr], len(intents), sw[tr], INTENT_L2, 250)] + \
        [(xt, yt, len(labs), np.ones(len(yt), dtype=np.float32), TAG_L2, 200) for labs, xt, yt, _, _ in tag_sets]
    im, *tag_models = _fit_many(jobs)
    print(f"fitted at {time.perf_counter() - t0:.0f} s", flush=True)
    zc = scores(im, xca)
    temp = fit_temperature(zc, y[ca])
    pc = softmax(zc / temp)
    conf, ok = pc.max(1), pc.argmax(1) == y[ca]
    report = {"intent_calibration_accuracy": round(float(ok.mean()), 4), "temperature": round(temp, 3),
              "ece_before": ece(softmax(zc).max(1), ok), "ece_after": ece(conf, ok),
              "reliability": reliability(conf, ok)}
    print(f"intent: {len(xtr.vocab)} features, {im['iters']} iterations; calibration split n={len(ca)}: "
          f"{json.dumps(report)}", flush=True)

    # slot taggers
    weights: dict[str, np.ndarray] = {"intent_ws": im["ws"], "intent_wd": im["wd"], "intent_b": im["b"]}
    meta: dict = {"intents": intents, "intent_vocab": xtr.vocab, "temperature": temp}
    for k, ((labs, xt, yt, xc, yc), m) in enumerate(zip(tag_sets, tag_models)):
        pred = scores(m, xc).argmax(1)
        slot_tok = yc != 0
        print(f"tagger {k + 1} ({len(labs)} tags, {len(xt.vocab)} features, {len(yt)} tokens, {m['iters']} it): "
              f"token accuracy on calibration split {float((pred == yc).mean()):.3f}, on slot tokens "
              f"{float((pred[slot_tok] == yc[slot_tok]).mean()) if slot_tok.any() else 0:.3f}", flush=True)
        weights |= {f"tag{k}_ws": m["ws"], f"tag{k}_wd": m["wd"], f"tag{k}_b": m["b"]}
        meta[f"tag{k}_vocab"] = xt.vocab
    meta |= {"trained_on": dict(Counter(r["source"].split(":")[0] for r in recs)), "records": len(recs),
             "calibration": report, "seed": SEED, "train_s": round(time.perf_counter() - t0, 1)}
    a.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out / "weights.npz", **quantise(weights))
    write_meta(a.out, meta)
    meta["policy_calibration"], meta["policy_reliability"] = fit_policy(a.out, [recs[i] for i in ca])
    print(f"combined reading on the calibration split (in-sample for its weights): "
          f"{json.dumps(meta['policy_reliability'])}", flush=True)
    write_meta(a.out, meta)
    size = sum(f.stat().st_size for f in a.out.iterdir())
    print(f"wrote {a.out} ({size / 1e6:.2f} MB) in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


def quantise(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The sparse feature matrices as int8 with one float32 scale per feature row (``<name>_scale``), the
    small dense blocks and biases as float16. A row's scale follows its own largest weight, so a rare
    feature's small weights keep their precision (one scale per label column rounded them ~5x coarser and
    moved 1.5 % of the slot readings); the file is ~3 MB where float16 took ~9 MB of the 10 MB budget."""
    out: dict[str, np.ndarray] = {}
    for k, v in weights.items():
        v = np.asarray(v, dtype=np.float32)
        if k.endswith("_ws"):
            scale = np.maximum(np.abs(v).max(1, keepdims=True), 1e-12) / 127.0
            out[k] = np.round(v / scale).astype(np.int8)
            out[f"{k}_scale"] = scale.astype(np.float32)
        else:
            out[k] = v.astype(np.float16)
    return out


def write_meta(out: Path, meta: dict) -> None:
    """``meta.json`` (what a person reads: intents, calibration, what it was trained on) and the feature
    vocabularies gzipped beside it (``vocab.json.gz``): as plain JSON they were a quarter of the model's
    10 MB budget, gzipped a twentieth. ``mtime=0`` keeps a seeded rebuild byte-identical."""
    vocab = {k: v for k, v in meta.items() if k.endswith("_vocab")}
    rest = {k: v for k, v in meta.items() if k not in vocab}
    (out / "meta.json").write_text(json.dumps(rest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    with open(out / "vocab.json.gz", "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as g:
        g.write(json.dumps(vocab, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


if __name__ == "__main__":
    sys.exit(main())
