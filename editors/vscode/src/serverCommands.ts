// vscode-languageclient registers every command the server advertises (`executeCommandProvider`) as a
// VS Code command of the same id. hiera-ls advertises `hiera.cancel` and `hiera.showResults`, which this
// extension also contributes with its own behaviour (cancel before a server is up; open the results
// view). Registering an id twice throws, and the client would fail to start, so those ids are filtered
// out of the client's registration; the extension forwards them to the server itself when needed.
import type { ExecuteCommandOptions } from 'vscode-languageclient';

export const CLIENT_OWNED_COMMANDS: readonly string[] = ['hiera.cancel', 'hiera.showResults'];

export function withoutClientOwned(commands: readonly string[] | undefined): string[] | undefined {
  return commands?.filter((c) => !CLIENT_OWNED_COMMANDS.includes(c));
}

/** The part of vscode-languageclient's ExecuteCommandFeature that is patched. */
export interface CommandRegistrar {
  register(data: { id: string; registerOptions: ExecuteCommandOptions }): void;
}

/** Makes the feature skip the client-owned ids, for both static and dynamic registration. */
export function guardCommandRegistration(feature: CommandRegistrar): void {
  const register = feature.register.bind(feature);
  feature.register = (data) =>
    register({ ...data, registerOptions: { ...data.registerOptions, commands: withoutClientOwned(data.registerOptions.commands) ?? [] } });
}
