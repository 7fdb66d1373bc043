/** Minimal `--flag value` / positional argument parsing shared by the command scripts. */
export interface ParsedArgs { positional: string[]; flags: Record<string, string | true> }

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2);
      if (inline !== undefined) flags[name] = inline;
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
      else flags[name] = true;
    } else positional.push(a);
  }
  return { positional, flags };
}

/** Runs a command body, printing `error: message` and exiting 1 on failure. */
export async function runCommand(body: () => Promise<void>): Promise<void> {
  try {
    await body();
    process.exit(0);
  } catch (err) {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

/** True when the arguments ask for help (`--help`, `-h` or `help` as the command). */
export function helpRequested(argv: string[]): boolean {
  return argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
}
