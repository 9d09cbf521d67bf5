import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { deliveredCopy, type FileAccess } from '../src/results/delivered';

/** An in-memory folder tree: absolute path -> text. */
function memoryFs(files: Record<string, string>): FileAccess {
  return {
    list: (dir) => Promise.resolve(Object.keys(files).filter((f) => path.dirname(f) === dir).map((f) => path.basename(f))),
    read: (file) => Promise.resolve(files[file]),
  };
}

const MODULE = '/ws/models/gemm.py';
const ENGINE_CU = '/ws/.hiera/ls/results/optimize-1/gemm_hiera.cu';

describe('deliveredCopy', () => {
  it('finds the copy beside the module that holds the same text', async () => {
    const fs = memoryFs({ [MODULE]: 'class Model', [ENGINE_CU]: 'kernel v1', '/ws/models/gemm_hiera.cu': 'kernel v1' });
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, fs), '/ws/models/gemm_hiera.cu');
  });

  it('follows the server to another name: class-named results and numbered ones', async () => {
    const fs = memoryFs({
      [ENGINE_CU]: 'kernel v2',
      '/ws/models/gemm_hiera.cu': 'kernel v1',
      '/ws/models/gemm_Model_hiera_2.cu': 'kernel v2',
    });
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, fs), '/ws/models/gemm_Model_hiera_2.cu');
  });

  it('matches the extension: a CPU run delivers a .cpp', async () => {
    const engineCpp = ENGINE_CU.replace(/\.cu$/, '.cpp');
    const fs = memoryFs({ [engineCpp]: 'cpu kernel', '/ws/models/gemm_hiera.cu': 'cpu kernel', '/ws/models/gemm_hiera.cpp': 'cpu kernel' });
    assert.equal(await deliveredCopy(engineCpp, MODULE, fs), '/ws/models/gemm_hiera.cpp');
  });

  it('gives up when the copy was edited, is gone, or belongs to another module', async () => {
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, memoryFs({ [ENGINE_CU]: 'k', '/ws/models/gemm_hiera.cu': 'k edited' })), undefined);
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, memoryFs({ [ENGINE_CU]: 'k' })), undefined);
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, memoryFs({ [ENGINE_CU]: 'k', '/ws/models/other_hiera.cu': 'k' })), undefined);
    assert.equal(await deliveredCopy(ENGINE_CU, MODULE, memoryFs({ '/ws/models/gemm_hiera.cu': 'k' })), undefined, 'engine copy unreadable');
  });

  it('keeps a path that already is beside the module', async () => {
    assert.equal(await deliveredCopy('/ws/models/gemm_hiera.cu', MODULE, memoryFs({})), '/ws/models/gemm_hiera.cu');
  });
});
