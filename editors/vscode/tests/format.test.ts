import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMs, spaceTitle } from '../src/results/format';

describe('formatMs', () => {
  it('writes times as hiera-ls does (four significant digits, ms or µs or s), never 8.594e+04', () => {
    // the same values as tests/test_ls_units.py test_cpu_words_and_readable_durations
    assert.deepEqual([8.2213, 0.3333, 85940, 16.56, 500 / 1000].map(formatMs), ['8.221 ms', '333.3 µs', '85.94 s', '16.56 ms', '500 µs']);
  });
});

describe('spaceTitle', () => {
  it('reads CPU spaces as C++ and GPU spaces as CUDA', () => {
    assert.equal(spaceTitle('pure_cuda', 'cpu (x86_64)'), 'native C++');
    assert.equal(spaceTitle('cuda_libraries', 'cpu'), 'C++ libraries');
    assert.equal(spaceTitle('pure_cuda', 'cuda:0 (NVIDIA H200)'), 'pure CUDA');
    assert.equal(spaceTitle('mystery', 'cpu'), 'mystery');
  });
});
