// Types of the messages hiera-ls exchanges with the client beyond plain LSP (docs/protocol.md §2–§3).
// Pure: no `vscode` import, so the modules that shape this data can be unit-tested in Node.

export const JOB_STATUS_NOTIFICATION = 'hiera/jobStatus';
export const RUN_RESULTS_REQUEST = 'hiera/runResults';

/** Title of the code action hiera-ls offers on a module class. */
export const OPTIMIZE_ACTION_TITLE = 'Optimize with HIERA';
/** Server command behind that code action. */
export const OPTIMIZE_COMMAND = 'hiera.optimize';

export type JobState = 'queued' | 'running' | 'finished' | 'failed' | 'cancelled';

/**
 * How a figure compares with eager by the 95% interval of its speedup (contracts/verdict.py, the one rule; its port
 * is results/verdict.ts): the whole interval above 1, straddling 1, below 1, or no verdict because the evaluator
 * found the two sides not timed alike ('unstable', its flag says how).
 */
export type Verdict = 'faster' | 'level' | 'slower' | 'unstable';

export interface JobStatus {
  jobId: string;
  state: JobState;
  runId: string | null;
  round: number | null;
  /** The run's number of rounds, once the engine said (servers before this field: absent). */
  rounds?: number | null;
  index: number | null;
  of: number | null;
  /** The best so far while running; at the end the run's one figure (its re-timing's where re-timed). */
  bestSpeedup: number | null;
  message: string;
  /** The candidate being timed again on its own before the run reports it (null otherwise). */
  retiming?: string | null;
  /** At the end of an optimize job: the best's verdict and its own pair (candidate and eager ms). */
  verdict?: Verdict | null;
  bestMs?: number | null;
  referenceMs?: number | null;
  retimed?: boolean | null;
  /** The pair's timing spread (0.02 = ±2%), and the server's words for the figure (contracts/verdict.py). */
  spread?: number | null;
  /** '1.4× faster than eager', '88× slower than eager', 'level with eager', 'unstable timing: …'. */
  headline?: string | null;
  /** The interval of the figure: '2.1–5.6× at 95%' ('1.0×, 0.80–1.3× at 95%' when level). */
  uncertainty?: string | null;
  /** Each flag the engine set on the best, in words ('flagged: over 10× — check before trusting'). */
  warnings?: string[] | null;
  /** The best's share of the task's speed of light, in the server's words ('62% of speed of light, memory-bound'). */
  speedOfLight?: string | null;
  /** Whether result files were written beside the module. */
  delivered?: boolean | null;
  /** The sentence that tells the job's end (the server leaves the toast to the extension). */
  summary?: string | null;
}

export type Direction = 'C' | 'P' | 'M' | 'R' | 'T';
export const DIRECTIONS: readonly Direction[] = ['C', 'P', 'M', 'R', 'T'];

export type CandidateStatus =
  | 'valid'
  | 'build_failed'
  | 'space_violation'
  | 'runtime_error'
  | 'timeout'
  | 'incorrect'
  | 'suspect';

/** A re-timing of a candidate (the engine times the best again before it reports it), with its own pair. */
export interface Retime {
  status: string;
  candidate_ms: number | null;
  reference_ms: number | null;
  speedup: number | null;
}

/** One batch size a candidate was checked on beside get_inputs()'s (contracts/shapes.py ShapeCheck). */
export interface ShapeCheck {
  batch: number;
  status: string;
  reason: string;
  candidate_ms: number | null;
  reference_ms: number | null;
}

/** What a candidate was found valid on at other batch sizes; covers: the batch range its exported file serves. */
export interface Shapes {
  batch: number;
  checks: ShapeCheck[];
  covers: [number, number] | null;
}

export interface Outcome {
  candidate_id: string;
  index: number;
  status: string;
  reason: string;
  speedup: number | null;
  candidate_ms: number | null;
  shapes?: Shapes | null;
  /** Its first pair's verdict and the interval it is read from (older engines: absent). */
  verdict?: Verdict | null;
  low?: number | null;
  high?: number | null;
  confidence?: number | null;
  retime?: Retime | null;
}

export interface RoundDecision {
  round: number;
  space: string;
  scores: Partial<Record<Direction, number>>;
  direction: string;
  strategy: string;
  rationale: string;
  outcomes: Outcome[];
  /** The space as it reads on the run's device ("native C++" on the CPU). */
  space_title?: string;
  /** The round's kept best: its re-timing's figure where it was re-timed. */
  best?: { candidate_id: string; speedup: number; retimed: boolean } | null;
  /** A round a stop cut short (its deadline, a cancel): its outcomes are the candidates it finished. */
  partial?: boolean;
}

/**
 * A time against the task's speed of light (contracts/speed_of_light.py): the least time this device could take,
 * from the bytes that must move and the FLOPs that must be done over its measured ceilings; fraction = bound / time.
 */
export interface SpeedOfLight {
  bound: 'memory' | 'compute' | 'launch';
  bytes: number;
  flops: number;
  ceiling: string;
  fraction: number;
  bound_ms: number;
  time_ms: number;
  notes: string[];
}

/** A run that stopped spending its budget at its speed of light (contracts/runrecord.py StoppedEarly). */
export interface StoppedEarly {
  round: number;
  fraction: number;
  bound: string;
  candidates_saved: number;
  seconds_saved: number;
}

export interface BestCandidate {
  candidate_id: string;
  speedup: number;
  candidate_ms: number;
  round: number;
  space: string;
  direction: string;
  paths: { py: string; cu: string | null };
  /** The eager time of the same pair as candidate_ms (speedup = reference_ms / candidate_ms). */
  reference_ms?: number | null;
  retimed?: boolean;
  /** The pair's spread (the larger of its two timings'), and each timing's own. */
  spread?: number | null;
  candidate_spread?: number | null;
  reference_spread?: number | null;
  verdict?: Verdict | null;
  /** The interval of the speedup the verdict is read from: at `confidence` (0.95), or the quartile range (null). */
  low?: number | null;
  high?: number | null;
  confidence?: number | null;
  /** Why the best was not written beside the module (its verdict in words with its interval), else null. */
  not_delivered?: string | null;
  /** The engine's flags on the best, as it wrote them ("excessive_speedup: 17.0x ..."); `warnings` has the words. */
  flags?: string[];
  /** A re-timed best's first pair. */
  first?: { speedup: number; candidate_ms: number; reference_ms: number } | null;
  shapes?: Shapes | null;
  space_title?: string;
  /** The server's words for the figure (contracts/verdict.py), shown as they are. */
  headline?: string;
  uncertainty?: string;
  warnings?: string[];
  /** Why this candidate is the reported best ("r2c1, timed again on its own (its first pair read 1.50×)"). */
  why?: string;
  /** Its time against the task's speed of light; null where the device's ceilings or the graph give no bound. */
  speed_of_light?: SpeedOfLight | null;
  /** The server's words for it: '62% of speed of light, memory-bound', and what the bound is made of. */
  speed_of_light_text?: string | null;
  speed_of_light_detail?: string | null;
}

export interface ChartEntry {
  candidate_id: string;
  round: number;
  index: number;
  status: string;
  valid: boolean;
  candidate_ms: number | null;
  speedup: number | null;
  reference_ms?: number | null;
  /** Its re-timing, drawn on this candidate rather than as another one. */
  retime?: Retime | null;
}

/** Result of `hiera/runResults`: the optimize object of §2 plus chart data. */
export interface RunResults {
  run_id: string;
  /** 'finished' | 'stopped' | 'failed' per §2, 'running', or 'ended' (its engine is gone); kept open. */
  status: string;
  /** Why a stopped run stopped: 'deadline' | 'interrupted' | 'terminated' | 'backend'; null otherwise. */
  stop_reason?: string | null;
  /** The run's deadline in seconds from its start, or null. */
  deadline_s?: number | null;
  /** What the deadline left out, in words; empty or absent when nothing was. */
  left_out?: string[];
  task: string;
  /** The device ("cpu", "cuda:0"); older engines wrote its name in it too ("cuda:0 (NVIDIA H200)"). */
  device: string;
  /** The device's name ("NVIDIA H200"); null or absent from older engines. */
  device_name?: string | null;
  backend: string;
  reference_ms: number | null;
  best: BestCandidate | null;
  candidates: number;
  rounds: RoundDecision[];
  tokens?: { prompt: number; completion: number };
  seconds?: Partial<Record<'build' | 'verify' | 'time' | 'profile' | 'model' | 'total', number>>;
  cost_usd?: number | null;
  chart: ChartEntry[];
  compile_ms: { default: number | null; 'max-autotune': number | null };
  profile: string | null;
  /** The files the server created beside the module for this run (servers before this field: absent). */
  delivered?: { py: string | null; cu: string | null };
  /** Wall seconds by phase (engine/phases.py), summing to the run's wall time; absent from older engines. */
  phases?: Record<string, number>;
  /** What became of the profiles the run asked for (contracts/runrecord.py Profiling); absent from older engines. */
  profiling?: {
    asked: boolean;
    reference: boolean;
    rounds: number;
    rounds_profiled: number;
    skipped: Record<string, number>;
    failed: number;
    off: string | null;
  } | null;
  /** The precision policy every figure was judged at: 'fp32' | 'tf32' | 'bf16' | 'fp16'; absent from older engines. */
  precision?: string | null;
  /** Its tolerance (contracts/precision.py tolerance_json: rtol, atol, what they meet); absent from older engines. */
  tolerance?: Record<string, unknown> | null;
  /** Set when the run stopped spending its budget because its best reached its speed of light. */
  stopped_early?: StoppedEarly | null;
}

export type RunResultsParams = { runId: string } | { uri: string };

const JOB_STATES: readonly string[] = ['queued', 'running', 'finished', 'failed', 'cancelled'];

/** Guards the notification before the status bar trusts it: a malformed message is dropped, not rendered. */
export function isJobStatus(value: unknown): value is JobStatus {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const v = value as Record<string, unknown>;
  return typeof v.jobId === 'string' && typeof v.state === 'string' && JOB_STATES.includes(v.state);
}

export function isTerminal(state: JobState): boolean {
  return state === 'finished' || state === 'failed' || state === 'cancelled';
}
