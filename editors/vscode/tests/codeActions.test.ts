import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findOptimizeAction } from '../src/codeActions';
import { guardCommandRegistration, type CommandRegistrar } from '../src/serverCommands';

describe('findOptimizeAction', () => {
  const optimize = { title: 'Optimize with HIERA', command: 'hiera.optimize', arguments: ['file:///m.py', 'Model'] };

  it('finds a code action carrying the hiera.optimize command among others', () => {
    const found = findOptimizeAction([
      { title: 'Organize imports', command: { title: 'x', command: 'python.sortImports' } },
      { title: 'Optimize Model with HIERA', command: optimize },
    ]);
    assert.equal(found?.command?.command, 'hiera.optimize');
    assert.deepEqual(found?.command?.arguments, ['file:///m.py', 'Model']);
  });

  it('prefers the plain action over the fixed-space variants, whatever their order', () => {
    const fixed = { ...optimize, title: 'Optimize with HIERA in a fixed space: pure CUDA', arguments: ['file:///m.py', 'Model', { space: 'pure_cuda' }] };
    const found = findOptimizeAction([
      { title: fixed.title, command: fixed },
      { title: 'Optimize with HIERA', command: optimize },
    ]);
    assert.equal(found?.title, 'Optimize with HIERA');
    assert.deepEqual(found?.command?.arguments, ['file:///m.py', 'Model']);
  });

  it('accepts a bare Command', () => {
    assert.equal(findOptimizeAction([optimize])?.command?.command, 'hiera.optimize');
  });

  it('falls back to the title for an action whose command is not resolved yet', () => {
    const found = findOptimizeAction([{ title: 'Optimize with HIERA', edit: { kind: 'edit' } }]);
    assert.equal(found?.title, 'Optimize with HIERA');
    assert.equal(found?.command, undefined);
    assert.deepEqual(found?.edit, { kind: 'edit' });
  });

  it('skips disabled actions and returns nothing when there is no match', () => {
    assert.equal(findOptimizeAction([{ title: 'Optimize with HIERA', command: optimize, disabled: { reason: 'no class' } }]), undefined);
    assert.equal(findOptimizeAction([{ title: 'Extract method', command: 'refactor.extract' }]), undefined);
    assert.equal(findOptimizeAction(undefined), undefined);
  });
});

describe('guardCommandRegistration', () => {
  it('keeps the client from registering the commands the extension owns', () => {
    const registered: string[][] = [];
    const feature: CommandRegistrar = {
      register: (data) => void registered.push(data.registerOptions.commands),
    };
    guardCommandRegistration(feature);
    feature.register({
      id: '1',
      registerOptions: { commands: ['hiera.optimize', 'hiera.cancel', 'hiera.profile', 'hiera.showResults', 'hiera.profileKernel'] },
    });
    assert.deepEqual(registered, [['hiera.optimize', 'hiera.profile', 'hiera.profileKernel']]);
  });
});
