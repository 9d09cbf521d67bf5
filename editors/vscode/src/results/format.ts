// Numbers and words as the editor writes them, the same way hiera-ls writes them (hiera_ls/wording.py), so
// that the hover, the status bar and the results view print one figure identically. Pure.

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

export function formatSpeedup(x: number): string {
  return `${x.toFixed(2)}×`;
}

const GPU_SPACES: Record<string, string> = { pure_cuda: 'pure CUDA', cuda_libraries: 'CUDA libraries', libraries_pytorch: 'libraries + PyTorch' };
const CPU_SPACES: Record<string, string> = { pure_cuda: 'native C++', cuda_libraries: 'C++ libraries', libraries_pytorch: 'libraries + PyTorch' };

export function isCpu(device: string | null | undefined): boolean {
  return (device ?? '').trim().toLowerCase().startsWith('cpu');
}

/** A space as it reads on the run's device: a CPU run has no CUDA in it. */
export function spaceTitle(space: string, device: string | null | undefined, fromServer?: string): string {
  return fromServer ?? (isCpu(device) ? CPU_SPACES : GPU_SPACES)[space] ?? space;
}
