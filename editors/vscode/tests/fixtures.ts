// A `hiera/runResults` answer shaped like docs/protocol.md §3, for the results-view tests.
import type { RunResults } from '../src/protocol';

export function sampleResults(): RunResults {
  return {
    run_id: 'run-42',
    status: 'finished',
    task: '/ws/models/gemm_relu.py',
    device: 'NVIDIA H200',
    backend: 'expert',
    reference_ms: 2.0,
    best: {
      candidate_id: 'c-2-1',
      speedup: 2.5,
      candidate_ms: 0.8,
      round: 2,
      space: 'pure_cuda',
      direction: 'M',
      paths: { py: '/ws/.hiera/runs/run-42/best.py', cu: '/ws/.hiera/runs/run-42/best.cu' },
    },
    candidates: 5,
    rounds: [
      {
        round: 2,
        space: 'pure_cuda',
        scores: { C: 0.1, P: 0.2, M: 0.9, R: 0.3, T: 0.4 },
        direction: 'M',
        strategy: 'tile for shared memory',
        rationale: 'memory bound',
        outcomes: [
          { candidate_id: 'c-2-2', index: 2, status: 'build_failed', reason: 'nvcc: error', speedup: null, candidate_ms: null },
          { candidate_id: 'c-2-1', index: 1, status: 'valid', reason: '', speedup: 2.5, candidate_ms: 0.8 },
        ],
      },
      {
        round: 1,
        space: 'libraries_pytorch',
        scores: { C: 0.7, P: 0.1, M: 0.2, R: 0.1, T: 0.1 },
        direction: 'C',
        strategy: 'fuse epilogue',
        rationale: 'launch overhead',
        outcomes: [
          { candidate_id: 'c-1-1', index: 1, status: 'valid', reason: '', speedup: 1.25, candidate_ms: 1.6 },
          { candidate_id: 'c-1-2', index: 2, status: 'incorrect', reason: 'max abs err 3e-2', speedup: null, candidate_ms: 1.0 },
          { candidate_id: 'c-1-3', index: 3, status: 'valid', reason: '', speedup: 1.0, candidate_ms: 2.0 },
        ],
      },
    ],
    tokens: { prompt: 0, completion: 0 },
    seconds: { total: 93 },
    cost_usd: null,
    // Deliberately out of order: the view must sort by round, then index.
    chart: [
      { candidate_id: 'c-2-2', round: 2, index: 2, status: 'build_failed', valid: false, candidate_ms: null, speedup: null },
      { candidate_id: 'c-1-1', round: 1, index: 1, status: 'valid', valid: true, candidate_ms: 1.6, speedup: 1.25 },
      { candidate_id: 'c-1-3', round: 1, index: 3, status: 'valid', valid: true, candidate_ms: 2.0, speedup: 1.0 },
      { candidate_id: 'c-1-2', round: 1, index: 2, status: 'incorrect', valid: false, candidate_ms: 1.0, speedup: null },
      { candidate_id: 'c-2-1', round: 2, index: 1, status: 'valid', valid: true, candidate_ms: 0.8, speedup: 2.5 },
    ],
    compile_ms: { default: 1.5, 'max-autotune': null },
    profile: '/ws/.hiera/runs/run-42/best.ncu-rep',
  };
}
