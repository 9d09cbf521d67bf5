// Finds hiera-ls's "Optimize with HIERA" action among the code actions VS Code returns for the cursor.
// Pure, with structural types: `vscode.executeCodeActionProvider` yields both `Command`s and
// `CodeAction`s, told apart by whether `command` is a string.
import { OPTIMIZE_ACTION_TITLE, OPTIMIZE_COMMAND } from './protocol';

export interface CommandLike {
  title: string;
  command: string;
  arguments?: unknown[];
}

export interface CodeActionLike {
  title: string;
  command?: CommandLike;
  edit?: unknown;
  disabled?: { reason: string };
}

export interface FoundAction<E> {
  title: string;
  command: CommandLike | undefined;
  edit: E | undefined;
}

function isCommand(item: CommandLike | CodeActionLike): item is CommandLike {
  return typeof item.command === 'string';
}

/**
 * The action titled exactly "Optimize with HIERA": hiera-ls also offers "Optimize with HIERA in a fixed
 * space: …" variants with the same command, and VS Code does not keep the server's order. Failing that,
 * the first action running `hiera.optimize`. Actions another extension contributes at the same place are
 * ignored, as are disabled ones.
 */
export function findOptimizeAction<E = unknown>(
  items: readonly (CommandLike | CodeActionLike)[] | undefined,
): FoundAction<E> | undefined {
  const candidates = (items ?? []).map((item) =>
    isCommand(item)
      ? { title: item.title, command: item, edit: undefined, disabled: false }
      : { title: item.title, command: item.command, edit: item.edit as E | undefined, disabled: item.disabled !== undefined },
  );
  const usable = candidates.filter((c) => !c.disabled);
  const hit =
    usable.find((c) => c.title === OPTIMIZE_ACTION_TITLE) ?? usable.find((c) => c.command?.command === OPTIMIZE_COMMAND);
  return hit === undefined ? undefined : { title: hit.title, command: hit.command, edit: hit.edit };
}
