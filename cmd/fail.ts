/** A startup error: named on stderr, and Hangar exits 2 (a configuration or environment problem, not a crash). */
export function fail(message: string): never {
  process.stderr.write(`hangar: ${message}\n`);
  process.exit(2);
}
