// Which file "Open kernel" and "Open result" should open. `hiera/runResults` names the engine's own copy
// of the result (under .hiera/ls/results/<job>/ or .hiera/runs/), but the server re-creates those files
// beside the module through a workspace edit, and that copy is the one the user works with. Pure apart
// from the injected file access, so it is unit-tested.
import * as path from 'node:path';

export interface FileAccess {
  /** Names of the entries of a folder; [] when it cannot be read. */
  list(dir: string): Promise<string[]>;
  /** A file's text; undefined when it cannot be read. */
  read(file: string): Promise<string | undefined>;
}

/**
 * The copy of `enginePath` that the server created beside `modulePath`, or undefined when there is none.
 *
 * The server names it after the module (`<stem>_hiera.cu`, `<stem>_<Class>_hiera.py`, `<stem>_hiera_2.cpp`
 * when the first name was taken), so a name can't be predicted: a file counts when it sits in the module's
 * folder, starts with the module's stem, has the same extension and holds exactly the engine copy's text.
 * A file the user has since edited, or one from another run, is therefore never taken for it.
 */
export async function deliveredCopy(enginePath: string, modulePath: string, fs: FileAccess): Promise<string | undefined> {
  const dir = path.dirname(modulePath);
  if (path.dirname(enginePath) === dir) {
    return enginePath;
  }
  const text = await fs.read(enginePath);
  if (text === undefined) {
    return undefined;
  }
  const ext = path.extname(enginePath);
  const moduleName = path.basename(modulePath);
  const stem = path.basename(modulePath, path.extname(modulePath));
  const names = (await fs.list(dir))
    .filter((n) => n !== moduleName && n.startsWith(`${stem}_`) && path.extname(n) === ext && n.includes('_hiera'))
    .sort();
  for (const name of names) {
    const candidate = path.join(dir, name);
    if ((await fs.read(candidate)) === text) {
      return candidate;
    }
  }
  return undefined;
}
