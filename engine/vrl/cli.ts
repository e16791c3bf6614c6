/**
 * `petrel vrl [--program FILE.vrl | 'PROGRAM'] [--input EVENTS.ndjson] [--print-object] [--config-file
 * petrel.toml]`, as VRL's own
 * `vrl` command: runs a VRL program over newline-delimited JSON events, printing one JSON line per event
 * (the program's result, or the resulting event with `--print-object`) or an `error: …` line on a
 * runtime error. A compile error prints VRL's diagnostic to stderr and exits 1; bad usage exits 2.
 * `--input -` (or no `--input`) reads standard input; empty input runs the program once on `{}`.
 * `--config-file` reads Petrel's configuration for its `[enrichment_tables]`, as `petrel start` does.
 */

import {
  compileVrl,
  encodeJson,
  loadVrlLibraries,
  parseJsonText,
  type VrlProgram,
  VrlRuntimeError,
} from "./mod.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { loadConfig } from "../../src/config/config.ts";
import { loadEnrichmentTables } from "./enrichment/registry.ts";

const USAGE =
  "usage: petrel vrl [--program FILE.vrl | PROGRAM] [--input EVENTS.ndjson] [--print-object] [--config-file FILE]";

interface Options {
  /** A program file, or the program's text given as the positional argument. */
  program: { file: string } | { text: string };
  input: string;
  printObject: boolean;
  /** Petrel's config file, for its enrichment tables. */
  configFile?: string;
}

function parseArgs(args: string[]): Options | string {
  let program: Options["program"] | undefined;
  let input = "-";
  let printObject = false;
  let configFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = () => inline ?? args[++i];
    switch (flag) {
      case "--program":
      case "-p":
        program = { file: value() };
        break;
      case "--input":
      case "-i":
        input = value();
        break;
      case "--config-file":
      case "-c":
        configFile = value() ?? "";
        break;
      case "--print-object":
      case "-o":
        printObject = true;
        break;
      case "--help":
      case "-h":
        return USAGE;
      default:
        if (a.startsWith("-") || program) return `unknown argument: ${a}\n${USAGE}`;
        program = { text: a };
    }
  }
  if (!program) return `missing a program (--program FILE or PROGRAM)\n${USAGE}`;
  if (input === undefined) return `missing value for --input\n${USAGE}`;
  if (configFile === "") return `missing value for --config-file\n${USAGE}`;
  return { program, input, printObject, configFile };
}

async function readText(path: string): Promise<string> {
  if (path === "-") return await new Response(Deno.stdin.readable).text();
  return await Deno.readTextFile(path);
}

/** Runs one input line; returns the output line. */
export function runLine(program: VrlProgram, line: string, printObject: boolean): string {
  let event;
  try {
    event = parseJsonText(line);
  } catch (e) {
    return `error: invalid JSON input: ${(e as Error).message}`;
  }
  try {
    const result = program.run(event);
    return encodeJson(printObject ? program.lastEvent : result);
  } catch (e) {
    if (e instanceof VrlRuntimeError) return `error: ${e.message}`;
    throw e;
  }
}

/** Entry point of the `vrl` command; returns the process exit code. */
export async function runVrlCli(args: string[]): Promise<number> {
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    const isHelp = opts === USAGE;
    (isHelp ? console.log : console.error)(opts);
    return isHelp ? 0 : 2;
  }
  let source: string;
  try {
    source = "text" in opts.program ? opts.program.text : await Deno.readTextFile(opts.program.file);
  } catch (e) {
    console.error(
      `error: cannot read program ${"file" in opts.program ? opts.program.file : ""}: ${
        (e as Error).message
      }`,
    );
    return 2;
  }
  await loadVrlLibraries();
  if (opts.configFile !== undefined) {
    try {
      await loadEnrichmentTables((await loadConfig({ configFile: opts.configFile })).enrichment_tables);
    } catch (e) {
      console.error(`error: ${(e as Error).message}`);
      return 2;
    }
  }
  let program: VrlProgram;
  try {
    program = compileVrl(source);
  } catch (e) {
    if (e instanceof PetrelError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
  let text: string;
  try {
    text = await readText(opts.input);
  } catch (e) {
    console.error(`error: cannot read input ${opts.input}: ${(e as Error).message}`);
    return 2;
  }
  const out: string[] = [];
  // VRL's CLI runs a program given no events once, on an empty object.
  if (text.trim() === "") text = "{}";
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    out.push(runLine(program, line, opts.printObject));
    if (out.length >= 1000) {
      await writeOut(out.join("\n") + "\n");
      out.length = 0;
    }
  }
  if (out.length) await writeOut(out.join("\n") + "\n");
  return 0;
}

async function writeOut(s: string): Promise<void> {
  const bytes = new TextEncoder().encode(s);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}

if (import.meta.main) Deno.exit(await runVrlCli(Deno.args));
