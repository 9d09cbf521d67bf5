// Numbers and words as the editor writes them, the same way hiera-ls writes them (hiera_ls/wording.py and
// contracts/verdict.py), so that the hover, the status bar and the results view print one figure identically.
// Verdicts and their words are not made here: the server sends them (JobStatus.headline, BestCandidate.headline).
// Pure.

/** '1.234 s', '8.221 ms', '333.3 µs': four significant digits in the unit a person reads. */
export function formatMs(ms: number): string {
  const g = (v: number) => String(Number(v.toPrecision(4)));
  if (ms >= 1000) {
    return `${g(ms / 1000)} s`;
  }
  if (ms >= 1) {
    return `${g(ms)} ms`;
  }
  return `${g(ms * 1000)} µs`;
}

/**
 * A ratio's digits (contracts/verdict.py figure_text, ported; tests/data/verdict_rows.json holds rows both
 * test suites check): two decimals, or two significant figures where the pair's spread is wider than the
 * second decimal (8.99 with a ±40% spread reads 9.0, 17.04 reads 17).
 */
export function figureText(x: number, spread?: number | null): string {
  if (spread === undefined || spread === null || x * spread <= 0.01 || x <= 0) {
    return x.toFixed(2);
  }
  // toFixed rounds the exact value half up, as contracts/verdict.py `fixed` does.
  const text = x.toFixed(Math.max(0, 1 - Math.floor(Math.log10(x))));
  const shown = Number(text);
  if (Math.floor(Math.log10(shown)) !== Math.floor(Math.log10(x))) {
    return x.toFixed(Math.max(0, 1 - Math.floor(Math.log10(shown))));
  }
  return text;
}

/**
 * A speedup as every view writes it (contracts/verdict.py ratio_text): '1.40×' at or above eager's speed, and
 * a slowdown by its own size, '88× slower', never '0.01×'.
 */
export function formatRatio(x: number, spread?: number | null): string {
  if (!(Number.isFinite(x) && x > 0)) {
    return '-';
  }
  return x >= 1 ? `${figureText(x, spread)}×` : `${figureText(1 / x, spread)}× slower`;
}

/** A speedup in a table of candidates (no spread of its own there): '1.73×', '88.24× slower'. */
export function formatSpeedup(x: number): string {
  return formatRatio(x);
}

const GPU_SPACES: Record<string, string> = { pure_cuda: 'pure CUDA', cuda_libraries: 'CUDA libraries', libraries_pytorch: 'libraries + PyTorch' };
const CPU_SPACES: Record<string, string> = { pure_cuda: 'native C++', cuda_libraries: 'C++ libraries', libraries_pytorch: 'libraries + PyTorch' };

export function isCpu(device: string | null | undefined): boolean {
  return (device ?? '').trim().toLowerCase().startsWith('cpu');
}

/**
 * A run's device as the views say it: "cuda:0 (NVIDIA H200)" from its two fields (contracts/wording.py
 * device_words); a record from before they were apart holds the whole label in `device`, and reads the same.
 */
export function deviceWords(device: string | null | undefined, name?: string | null): string {
  const text = (device ?? '').trim() || '?';
  return name && !text.includes(`(${name})`) ? `${text} (${name})` : text;
}

/** A space as it reads on the run's device: a CPU run has no CUDA in it. */
export function spaceTitle(space: string, device: string | null | undefined, fromServer?: string): string {
  return fromServer ?? (isCpu(device) ? CPU_SPACES : GPU_SPACES)[space] ?? space;
}
