"""What a row kernel accumulates along a row, and how two partial results combine.

A plain accumulator is one float (sum, max, min). Two patterns that the lowering writes as two dependent
reductions (two reads of the row) have an online form that needs one read:

- softmax / log-softmax / logsumexp: `max(x)`, then `sum(exp(x - max))`: a running maximum m and a sum s
  rescaled whenever m grows (s * exp(m_old - m_new)): the pair (m, s) combines the same way.
- layer/group/instance norm, var, std: `sum(x)`, then `sum((x - sum(x)/n)^2)`: Welford's running count,
  mean and centered sum of squares, combined by Chan's formula.

A row that stays in registers keeps the exact two-pass form (its second pass reads registers, not
memory); rows that are streamed from memory use the online forms, so softmax and layer norm read the row
twice (statistics, then the output) instead of three times.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.agents.expert.ir import Binary, Const, Expr, Reduce, Unary

PLAIN = ("sum", "max", "min")


@dataclass(frozen=True)
class Acc:
    kind: str  # sum | max | min | softmax | welford
    x: Expr  # the per-element value accumulated
    reds: tuple[Reduce, ...]  # the reductions it yields (softmax: max, sum of exp; welford: sum, centered squares)

    @property
    def comps(self) -> int:
        return {"softmax": 2, "welford": 3}.get(self.kind, 1)


def identity(acc: Acc) -> list[str]:
    if acc.kind == "softmax":
        return ["(-INFINITY)", "0.0f"]
    if acc.kind == "welford":
        return ["0.0f", "0.0f", "0.0f"]
    return [{"sum": "0.0f", "max": "(-INFINITY)", "min": "INFINITY"}[acc.kind]]


def update(acc: Acc, a: list[str], vals: list[str], ind: str) -> list[str]:
    """Statements folding the values of one vector (its lanes) into the accumulator a."""
    if acc.kind == "sum":
        return [f"{ind}{a[0]} += {' + '.join(vals)};"] if len(vals) > 1 else [f"{ind}{a[0]} += {vals[0]};"]
    if acc.kind in ("max", "min"):
        f = "fmaxf" if acc.kind == "max" else "fminf"
        return [f"{ind}{a[0]} = {f}({a[0]}, {v});" for v in vals]
    if acc.kind == "softmax":
        m, s = a
        out = [f"{ind}{{", f"{ind}    float mn = {m};"]
        out += [f"{ind}    mn = fmaxf(mn, {v});" for v in vals]
        terms = " + ".join(f"expf({v} - mn)" for v in vals)
        # The first vector raises m from -inf: the old sum is 0, and exp(-inf - mn) would be 0 too, but
        # -inf - -inf is NaN when the whole vector is -inf; the select keeps s exact.
        out += [f"{ind}    {s} = ({m} == mn ? {s} : {s} * expf({m} - mn)) + {terms};",
                f"{ind}    {m} = mn;", f"{ind}}}"]
        return out
    n, mean, m2 = a
    k = len(vals)
    out = [f"{ind}{{", f"{ind}    const float vm = ({' + '.join(vals)}) * {1.0 / k!r}f;" if k > 1 else
           f"{ind}    const float vm = {vals[0]};"]
    if k > 1:
        out.append(f"{ind}    const float vq = " + " + ".join(f"({v} - vm) * ({v} - vm)" for v in vals) + ";")
    out += _chan(n, mean, m2, f"{float(k)!r}f", "vm", "vq" if k > 1 else "0.0f", ind + "    ")
    out.append(f"{ind}}}")
    return out


def _chan(n: str, mean: str, m2: str, nb: str, mb: str, m2b: str, ind: str) -> list[str]:
    """Chan et al.'s pairwise update of (n, mean, m2) with (nb, mb, m2b); an empty side changes nothing."""
    return [f"{ind}const float nn = {n} + {nb};",
            f"{ind}const float f = nn > 0.0f ? {nb} / nn : 0.0f;",
            f"{ind}const float dl = {mb} - {mean};",
            f"{ind}{mean} += dl * f;",
            f"{ind}{m2} += {m2b} + dl * dl * {n} * f;",
            f"{ind}{n} = nn;"]


def combine(acc: Acc, a: list[str], b: list[str], ind: str) -> list[str]:
    """Statements folding the partial result b (same layout) into a."""
    if acc.kind == "sum":
        return [f"{ind}{a[0]} += {b[0]};"]
    if acc.kind in ("max", "min"):
        return [f"{ind}{a[0]} = {'fmaxf' if acc.kind == 'max' else 'fminf'}({a[0]}, {b[0]});"]
    if acc.kind == "softmax":
        (m, s), (mb, sb) = a, b
        return [f"{ind}{{", f"{ind}    const float mn = fmaxf({m}, {mb});",
                f"{ind}    {s} = ({m} == mn ? {s} : {s} * expf({m} - mn))"
                f" + ({mb} == mn ? {sb} : {sb} * expf({mb} - mn));",
                f"{ind}    {m} = mn;", f"{ind}}}"]
    return [f"{ind}{{", *_chan(a[0], a[1], a[2], b[0], b[1], b[2], ind + "    "), f"{ind}}}"]


def results(acc: Acc, a: list[str]) -> list[tuple[Reduce, str]]:
    """Each reduction the accumulator yields, as a C expression of its components."""
    if acc.kind == "softmax":
        return [(acc.reds[0], a[0]), (acc.reds[1], a[1])]
    if acc.kind == "welford":
        return [(acc.reds[0], f"({a[1]} * {a[0]})"), (acc.reds[1], a[2])]
    return [(acc.reds[0], a[0])]


def _softmax_input(r: Reduce) -> Reduce | None:
    """The max reduction m when r is sum(exp(X - m)) with m = max(X)."""
    e = r.x
    if r.op != "sum" or not (isinstance(e, Unary) and e.op == "exp"):
        return None
    d = e.x
    if not (isinstance(d, Binary) and d.op == "sub" and isinstance(d.b, Reduce) and d.b.op == "max"):
        return None
    return d.b if d.b.x == d.a else None


def _welford_input(r: Reduce) -> Reduce | None:
    """The sum reduction s when r is sum((X - s/n)^2) with s = sum(X)."""
    sq = r.x
    if r.op != "sum" or not (isinstance(sq, Binary) and sq.op == "mul" and sq.a == sq.b):
        return None
    xc = sq.a
    if not (isinstance(xc, Binary) and xc.op == "sub" and isinstance(xc.b, Binary) and xc.b.op == "div"):
        return None
    s, n = xc.b.a, xc.b.b
    if not (isinstance(s, Reduce) and s.op == "sum" and s.x == xc.a and isinstance(n, Const)):
        return None
    return s if n.value == float(s.x.shape[-1]) else None


def plan_accumulators(passes: list[list[Reduce]], online: bool) -> list[list[Acc]]:
    """The reduction passes as accumulators; with `online`, a second-pass reduction that has an online form
    joins its first-pass partner (and a pass left empty disappears)."""
    accs = [[Acc(r.op, r.x, (r,)) for r in p] for p in passes]
    if not online:
        return accs
    for k in range(1, len(accs)):
        for acc in list(accs[k]):
            r = acc.reds[0]
            for kind, partner in (("softmax", _softmax_input(r)), ("welford", _welford_input(r))):
                if partner is None:
                    continue
                slot = next((i for i, a in enumerate(accs[k - 1]) if a.kind in PLAIN and a.reds == (partner,)), None)
                if slot is None:
                    continue
                accs[k - 1][slot] = Acc(kind, partner.x, (partner, r))
                accs[k].remove(acc)
                break
    return [p for p in accs if p]
