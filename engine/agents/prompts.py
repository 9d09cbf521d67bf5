"""The prompts of the LLM backend: one per role, built from the frozen contract and the run's feedback.

Every system prompt starts with a role marker line (`ROLE: SSDA.space`, ...). Models ignore it; it lets a
scripted test server (tests/fake_llm_server.py) and a person reading a transcript tell the calls apart.

What each prompt carries, and why:
- the contract files (hiera_contract.h, params_semantics.json, groundtruth.py): the only ground truth of
  what to compute and the exact C signature to implement;
- the device and precision policy: what the code runs on and how close it must be;
- the current best candidate, its outcome (status, reason, speedup) and its profile feedback: the paper's
  feedback loop, so a decision is made on measurements, not on guesses;
- the round history: which spaces/directions/strategies were already tried and what they gave;
- the knowledge base for the chosen space: the strategies the planner may pick from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from contracts.profile import Profile
from contracts.vocabulary import Direction, Space
from engine.agents import knowledge
from engine.agents.base import Context, DirectionScores, Strategy
from engine.evaluate.outcome import CandidateKind, Outcome, Precision, Status
from engine.profile.feedback import feedback_text

MARK_SPACE = "SSDA.space"
MARK_DIRECTIONS = "SSDA.directions"
MARK_PLAN = "SPA"
MARK_CODE = "OA"

# Limits on quoted material, in characters: enough for real kernels, bounded for small-context models.
_MAX_SOURCE = 16_000
_MAX_CONTRACT_FILE = 12_000
_MAX_REASON = 2_000
_MAX_FEEDBACK = 6_000


@dataclass(frozen=True)
class Prompt:
    role: str  # usage role: ssda | spa | oa
    marker: str  # the ROLE: line's value
    system: str
    user: str
    schema_name: str | None = None  # JSON replies: the schema requested as response_format
    schema: dict[str, Any] | None = None

    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def clip(text: str, limit: int) -> str:
    """Head and tail of a long text (compiler errors come first, the end of a kernel matters too)."""
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    return f"{text[:head]}\n... [{len(text) - limit} characters omitted] ...\n{text[-tail:]}"


def _system(marker: str, job: str) -> str:
    return (f"ROLE: {marker}\n"
            "You are part of hiera, a system that optimizes PyTorch modules by writing faster kernels "
            "against a frozen C ABI contract. Candidates are compiled, checked for the implementation space, "
            "verified against the reference on fresh random inputs, timed and profiled; only correct ones "
            f"count.\n{job}")


# --- shared sections ----------------------------------------------------------------------------------------

SPACE_RULES = {
    Space.PURE_CUDA: "pure_cuda: CUDA C++ with the CUDA runtime only: kernels, shared memory, warp "
                     "intrinsics, cp.async, inline PTX (mma), CUDA graphs through the runtime API. "
                     "No libraries (no cuBLAS, cuDNN, CUTLASS, CUB, Thrust) and no PyTorch.",
    Space.CUDA_LIBRARIES: "cuda_libraries: pure_cuda plus NVIDIA libraries: cuBLAS/cuBLASLt, cuDNN, CUB, "
                          "Thrust, CUTLASS. No PyTorch/ATen.",
    Space.LIBRARIES_PYTORCH: "libraries_pytorch: everything above plus PyTorch (ATen operators, "
                             "torch.compile, CUDA graphs through torch); PyTorch is usable only from a "
                             "ModelNew Python file, not from the contract's .cu.",
}


def contract_section(ctx: Context) -> str:
    files = ctx.contract_text()
    parts = [f"Task: {ctx.spec.name}"]
    for name in ("hiera_contract.h", "params_semantics.json", "groundtruth.py"):
        if name in files:
            text = _compact_json(files[name]) if name.endswith(".json") else files[name]
            parts.append(f"--- {name} ---\n{clip(text, _MAX_CONTRACT_FILE)}")
    return "\n".join(parts)


def _compact_json(text: str) -> str:
    """One line per top-level entry instead of one per value: a third of the tokens, same content."""
    try:
        obj = json.loads(text)
    except ValueError:
        return text
    if not isinstance(obj, dict):
        return json.dumps(obj)
    lines = []
    for k, v in obj.items():
        if isinstance(v, list) and v:
            lines.append(f'"{k}": [')
            lines += [f"  {json.dumps(x, default=str)}," for x in v]
            lines.append("]")
        else:
            lines.append(f'"{k}": {json.dumps(v, default=str)}')
    return "\n".join(lines)


def device_section(ctx: Context) -> str:
    tol = ctx.precision.tolerance
    low = {"bf16": "bfloat16", "fp16": "float16"}.get(ctx.precision.value)
    policy = ("strict fp32: TF32 is off everywhere, reference included" if ctx.precision is Precision.FP32 else
              f"{ctx.precision.value}: the module computes in {low} (its tensors, or torch.autocast); use the "
              f"{low} tensor cores, but accumulate every sum and product in fp32 (a candidate that accumulates in "
              f"{low} is refused on inputs built to expose it)" if low else
              "tf32 allowed for matmul/conv (reported with the result)")
    info = json.dumps(ctx.device_facts.to_json(), default=str)
    ref = f"{ctx.reference_ms:.4g} ms" if ctx.reference_ms else "not measured yet"
    fp64 = any(t.dtype == "float64" for _, t in ctx.spec.outputs)
    match = (f"float64 outputs must match within atol=rtol={ctx.precision.tolerance_for('float64'):g} (compute in "
             "fp64: anything done in fp32 misses it)" + (f", others within {tol:g}" if not all(
                 t.dtype == "float64" for _, t in ctx.spec.outputs) else "")) if fp64 else \
        f"outputs must match within atol=rtol={tol:g}"
    return (f"Device: {ctx.device} {info}\nPrecision: {policy}; {match}.\n"
            f"Reference (PyTorch eager) time: {ref}.")


def _outcome_lines(o: Outcome) -> list[str]:
    lines = [f"status: {o.status.value}", f"reason: {clip(o.reason, _MAX_REASON)}"]
    if o.speedup is not None:
        lines.append(f"speedup over the reference: {o.speedup:.3f}x")
    if o.candidate and o.reference:
        lines.append(f"times: candidate {o.candidate.median_ms:.4g} ms, reference {o.reference.median_ms:.4g} ms")
    if o.error:
        lines.append(f"worst error at {o.error.where}: expected {o.error.expected:.6g}, got {o.error.got:.6g} "
                     f"({o.error.mismatches}/{o.error.total} mismatches)")
    if o.flags:
        lines.append(f"flags: {', '.join(o.flags)}")
    return lines


def profile_feedback(profile: Profile | None) -> str | None:
    """The profile as the short text of engine/profile/feedback.py, when profiling ran."""
    if profile is None:
        return None
    text = feedback_text(profile)
    return clip(str(text), _MAX_FEEDBACK) if text else None


def parent_section(ctx: Context) -> str:
    if ctx.parent is None:
        lines = ["Current best: none yet; the PyTorch reference (groundtruth.py) is the parent."]
    else:
        p = ctx.parent
        space = p.space.value if p.space else "unspecified"
        lang = {"cuda": "cuda", "cpp": "cpp", "modelnew": "python"}[p.kind.value]
        lines = [f"Current best candidate ({p.kind.value}, space {space}, {p.note or p.origin}):",
                 f"```{lang}\n{clip(p.source, _MAX_SOURCE)}\n```"]
    if ctx.parent_outcome is not None:
        lines.append("Its outcome:")
        lines += [f"  {x}" for x in _outcome_lines(ctx.parent_outcome)]
    feedback = profile_feedback(ctx.parent_profile)
    if feedback:
        lines.append(f"Its profile:\n{feedback}")
    return "\n".join(lines)


def history_section(ctx: Context) -> str:
    if not ctx.history:
        return f"Round {ctx.round} of {ctx.rounds}; no earlier rounds."
    lines = [f"Round {ctx.round} of {ctx.rounds}. Earlier rounds:"]
    for r in ctx.history:
        counts: dict[Status, int] = {}
        first_reason: dict[Status, str] = {}
        for o in r.outcomes:
            counts[o.status] = counts.get(o.status, 0) + 1
            first_reason.setdefault(o.status, o.reason)
        best = f"{r.best_speedup:.3f}x" if r.best_speedup is not None else "no valid candidate"
        summary = ", ".join(f"{n} {s.value}" for s, n in counts.items()) or "no candidates"
        lines.append(f"- round {r.round}: space {r.space.value}, direction {r.direction.value}, "
                     f"strategy {r.strategy}: {summary}; best {best}")
        for s, reason in first_reason.items():
            if s is not Status.VALID:
                lines.append(f"    e.g. {s.value}: {clip(' '.join(reason.split()), 300)}")
    return "\n".join(lines)


def knowledge_section(ctx: Context, space: Space) -> str:
    text = knowledge.as_prompt_text(space, gpu=ctx.on_gpu, tf32=ctx.precision is Precision.TF32)
    return f"Knowledge base: strategies valid in {space.value} on this device, by direction:\n{text}"


def _context_block(ctx: Context) -> str:
    return "\n\n".join([contract_section(ctx), device_section(ctx), parent_section(ctx), history_section(ctx)])


def _json_instruction(example: dict[str, Any]) -> str:
    return ("Reply with one JSON object and nothing else (no code fences, no prose), shaped like:\n"
            + json.dumps(example, indent=1))


# --- SSDA ---------------------------------------------------------------------------------------------------

def space_prompt(ctx: Context) -> Prompt:
    allowed = [s.value for s in ctx.allowed_spaces]
    rules = "\n".join(f"- {SPACE_RULES[s]}" for s in ctx.allowed_spaces)
    where = "a CUDA GPU" if ctx.on_gpu else "the CPU (candidates are C++ with OpenMP against the same ABI)"
    user = "\n\n".join([
        _context_block(ctx),
        f"Implementation spaces you may choose from (nested; the run executes on {where}):\n{rules}",
        "Choose the implementation space for this round. Prefer the smallest space that can reach the best "
        "speed for this workload: libraries usually win on large GEMMs and convolutions, hand-written "
        "kernels on fused pointwise and reduction chains where a library call adds launches and memory "
        "round trips. Use the profile and history: switch spaces when the current one has stopped paying.",
        _json_instruction({"space": " or ".join(allowed),
                           "rationale": "one or two sentences citing the workload/profile"}),
    ])
    schema = {
        "type": "object",
        "properties": {"space": {"type": "string", "enum": allowed}, "rationale": {"type": "string"}},
        "required": ["space", "rationale"],
        "additionalProperties": False,
    }
    return Prompt("ssda", MARK_SPACE, _system(MARK_SPACE, "Your job: choose the implementation space."),
                  user, "hiera_space", schema)


def directions_prompt(ctx: Context, space: Space) -> Prompt:
    dirs = "\n".join(f"- {d.value}: {d.title}" for d in Direction)
    user = "\n\n".join([
        _context_block(ctx),
        f"Chosen implementation space: {SPACE_RULES[space]}",
        knowledge_section(ctx, space),
        f"Score each optimization direction from 0 (no headroom) to 1 (the main bottleneck) for the current "
        f"best implementation in this space:\n{dirs}\nBase every score on evidence: profile metrics when "
        "given, else the workload (operations, shapes, bytes moved versus FLOPs) and the history. "
        "Directions already exhausted in earlier rounds score lower.",
        _json_instruction({
            "scores": {d.value: 0.5 for d in Direction},
            "evidence": {d.value: ["short fact supporting the score"] for d in Direction},
            "rationale": "one sentence: the main bottleneck",
        }),
    ])
    number = {"type": "number"}
    facts = {"type": "array", "items": {"type": "string"}}
    names = [d.value for d in Direction]
    schema = {
        "type": "object",
        "properties": {
            "scores": {"type": "object", "properties": dict.fromkeys(names, number), "required": names,
                       "additionalProperties": False},
            "evidence": {"type": "object", "properties": dict.fromkeys(names, facts), "required": names,
                         "additionalProperties": False},
            "rationale": {"type": "string"},
        },
        "required": ["scores", "evidence", "rationale"],
        "additionalProperties": False,
    }
    return Prompt("ssda", MARK_DIRECTIONS,
                  _system(MARK_DIRECTIONS, "Your job: score the five optimization directions."),
                  user, "hiera_directions", schema)


# --- SPA ----------------------------------------------------------------------------------------------------

def valid_entries(ctx: Context, space: Space) -> list[knowledge.Entry]:
    tf32 = ctx.precision is Precision.TF32
    return [e for d in Direction for e in knowledge.strategies(d, space, gpu=ctx.on_gpu, tf32=tf32)]


def plan_prompt(ctx: Context, space: Space, scores: DirectionScores) -> Prompt:
    best = scores.best()
    keys = [e.key for e in valid_entries(ctx, space)]
    ranked = ", ".join(f"{d}={v}" for d, v in sorted(scores.as_json().items(), key=lambda kv: -kv[1]))
    evidence = "\n".join(f"- {d}: {'; '.join(ev)}" for d, ev in scores.evidence_json().items() if ev)
    user = "\n\n".join([
        _context_block(ctx),
        f"Chosen implementation space: {SPACE_RULES[space]}",
        f"Direction scores: {ranked}. Highest: {best.value} ({best.title})."
        + (f"\nEvidence:\n{evidence}" if evidence else ""),
        knowledge_section(ctx, space),
        f"Plan this round: pick ONE strategy key from the knowledge base above, preferably of direction "
        f"{best.value}, that best attacks the bottleneck, and turn it into 3 to 6 concrete steps a kernel "
        "writer can follow for THIS task (name the tensors, the tile/block sizes, the vector widths). "
        "Use params for the tunable numbers. Do not repeat a strategy that already failed unless the "
        "steps fix the reason it failed.",
        _json_instruction({"strategy": "one key from the knowledge base above",
                           "steps": ["step 1", "step 2", "step 3"],
                           "params": [{"name": "block_threads", "value": "256"}],
                           "rationale": "why this strategy for this bottleneck"}),
    ])
    schema = {
        "type": "object",
        "properties": {
            "strategy": {"type": "string", **({"enum": keys} if keys else {})},
            "steps": {"type": "array", "items": {"type": "string"}},
            "params": {"type": "array", "items": {
                "type": "object", "properties": {"name": {"type": "string"}, "value": {"type": "string"}},
                "required": ["name", "value"], "additionalProperties": False}},
            "rationale": {"type": "string"},
        },
        "required": ["strategy", "steps", "params", "rationale"],
        "additionalProperties": False,
    }
    return Prompt("spa", MARK_PLAN, _system(MARK_PLAN, "Your job: plan one optimization strategy."),
                  user, "hiera_plan", schema)


# --- OA -----------------------------------------------------------------------------------------------------

def candidate_kind(ctx: Context, strategy: Strategy | None) -> CandidateKind:
    """What file the OA writes.

    The contract's .cu is compiled alone, without torch headers, so a strategy that needs PyTorch itself
    (torch.compile, cuDNN autotuning through torch, CUDA graphs through torch) can only be a ModelNew.
    """
    if not ctx.use_contract:
        return CandidateKind.MODELNEW
    if strategy is not None and strategy.space is Space.LIBRARIES_PYTORCH:
        try:
            if knowledge.entry(strategy.name).min_space is Space.LIBRARIES_PYTORCH:
                return CandidateKind.MODELNEW
        except KeyError:
            pass
    return CandidateKind.CUDA if ctx.on_gpu else CandidateKind.CPP


# How each kind is fenced, what it must contain (the reply parser checks it), and the output rules.
CODE_FORMAT: dict[CandidateKind, tuple[tuple[str, ...], str]] = {
    CandidateKind.CUDA: (("cuda", "cu", "cpp", "c++"), "hiera_forward"),
    CandidateKind.CPP: (("cpp", "c++", "cc", "cxx", "c"), "hiera_forward"),
    CandidateKind.MODELNEW: (("python", "py"), "class ModelNew"),
}


def _output_rules(ctx: Context, kind: CandidateKind) -> str:
    if kind is CandidateKind.CUDA:
        return ("Write the complete file cuda_source.cu. It is compiled alone with `nvcc -O3 -std=c++17 "
                "-shared` against hiera_contract.h (no torch headers), so: `#include \"hiera_contract.h\"` and "
                "only CUDA/standard headers; define `extern \"C\" int hiera_forward(...)` with exactly the "
                "declared parameters; launch every kernel on `(cudaStream_t)stream`; do not allocate the "
                "outputs (they are given) and do not modify the inputs; handle any size given in the tensor "
                "views, not only the shapes seen; check launch errors and return 0 on success, non-zero on "
                "failure. Reply with the whole file in one ```cuda code block.")
    if kind is CandidateKind.CPP:
        return ("This run is on the CPU: write the complete C++ file implementing the same ABI. It is "
                "compiled alone with `g++ -O3 -march=native -fopenmp -std=c++17 -shared` against "
                "hiera_contract.h: `#include \"hiera_contract.h\"`; define `extern \"C\" int hiera_forward(...)` "
                "with exactly the declared parameters; the tensor views hold host pointers and `stream` is "
                "NULL; do not allocate the outputs or modify the inputs; return 0 on success. Use OpenMP and "
                "SIMD-friendly loops. Reply with the whole file in one ```cpp code block.")
    device = "CUDA GPU" if ctx.on_gpu else "CPU"
    # A ModelNew is verified at other batch sizes too (pipeline._variants_for) and its file refuses those it was
    # wrong at: told so, as a contract kernel is by its header, it reads the batch instead of fixing it.
    batch = ctx.spec.batch
    sizes = ("" if batch is None else
             f"It is also verified at other batch sizes (dim 0 of every input, from {batch.bounds[0]} to "
             f"{batch.bounds[1]}; {batch.size} in get_inputs()), drawn at random and not announced: read the batch "
             "from the inputs, never fix it. ")
    return ("Write a complete KernelBench solution file: a Python module defining `class ModelNew(nn.Module)` "
            "with the same constructor arguments and forward signature as `Model` in groundtruth.py, "
            "holding the same parameters and buffers under the same names (so the reference's state dict "
            f"loads), and computing the same outputs on the {device}. {sizes}Custom kernels may be compiled with "
            "torch.utils.cpp_extension.load_inline. No test code, no printing. Reply with the whole file in "
            "one ```python code block.")


def code_prompt(ctx: Context, space: Space, strategy: Strategy, variant: int, k: int) -> Prompt:
    kind = candidate_kind(ctx, strategy)
    steps = "\n".join(f"{i}. {s}" for i, s in enumerate(strategy.steps, 1)) or "(no steps given)"
    params = ", ".join(f"{n}={v}" for n, v in strategy.params.items()) or "none"
    user = "\n\n".join([
        _context_block(ctx),
        f"Implementation space (enforced by a static check): {SPACE_RULES[space]}",
        f"Strategy for this round: {strategy.name} (direction {strategy.direction.value}, "
        f"{strategy.direction.title})\n{strategy.description}\nSteps:\n{steps}\nParameters: {params}",
        _variant_hint(variant, k),
        _output_rules(ctx, kind),
    ])
    return Prompt("oa", MARK_CODE, _system(MARK_CODE, "Your job: write one correct, fast candidate."), user)


def unplanned_code_prompt(ctx: Context, space: Space, variant: int, k: int) -> Prompt:
    """The no-planning ablation: one fixed prompt, no direction, no strategy, no knowledge base."""
    kind = candidate_kind(ctx, None)
    user = "\n\n".join([
        _context_block(ctx),
        f"Implementation space (enforced by a static check): {SPACE_RULES[space]}",
        "Write the fastest correct implementation you can.",
        _variant_hint(variant, k),
        _output_rules(ctx, kind),
    ])
    return Prompt("oa", MARK_CODE, _system(MARK_CODE, "Your job: write one correct, fast candidate."), user)


def _variant_hint(variant: int, k: int) -> str:
    # K calls with one prompt at a low temperature return near-copies; naming the variant spreads them
    # over the strategy's tuning space, which is what K candidates are for.
    if k <= 1:
        return "Write one candidate."
    if variant == 0:
        return (f"This is candidate 1 of {k}, written independently: use the configuration you expect to be "
                "fastest.")
    return (f"This is candidate {variant + 1} of {k}, written independently: explore an alternative to the "
            "configuration you would pick first (block size, work per thread, vector width, unrolling, tile "
            f"shape), a different one for each number, so the {k} candidates cover the options.")
