/**
 * Log sessions on the wire (StreamLogs resume): `ls1.<sandbox id>.<timeline>.<r|t>`, where the
 * timeline is the runtime's (Runtime.logSession: changes when the log restarts) and the last part
 * the stream's format (raw or timestamped), which a resume keeps. Pure, table-tested.
 */
export const logSessionId = (sandboxId: string, epoch: string, timestamps: boolean) =>
  `ls1.${sandboxId}.${epoch}.${timestamps ? "t" : "r"}`;

export function parseLogSession(s: string): { sandboxId: string; epoch: string; timestamps: boolean } | undefined {
  const m = /^ls1\.([A-Za-z0-9-]{1,64})\.([a-f0-9]{1,64})\.([rt])$/.exec(s);
  return m ? { sandboxId: m[1] as string, epoch: m[2] as string, timestamps: m[3] === "t" } : undefined;
}
