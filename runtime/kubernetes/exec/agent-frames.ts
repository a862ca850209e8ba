/**
 * The exec agent's wire format (ADR 0008, agent/main.go): frames of a one-byte kind, a 32-bit
 * command id and a 32-bit length, then the payload. Encoding and parsing only; pure.
 */
export const AGENT_VERSION = "hangar-agent/1";
const HEADER = 9;
const MAX_FRAME = 1 << 20;

export interface Frame {
  kind: string;
  id: number;
  payload: Buffer;
}

export function encodeFrame(kind: string, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const b = Buffer.allocUnsafe(HEADER + payload.length);
  b[0] = kind.charCodeAt(0);
  b.writeUInt32BE(id, 1);
  b.writeUInt32BE(payload.length, 5);
  payload.copy(b, HEADER);
  return b;
}

export const u32 = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};

/**
 * Splits a byte stream into frames; throws on a frame no agent sends (the channel is then dropped).
 * A frame that arrives in pieces (TLS hands over at most 16 KiB at a time) is kept as the list of
 * its pieces and joined once, when the last one is in: joining at every piece copied a 1 MiB frame
 * some 64 times.
 */
export class FrameParser {
  private buf: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes the frame at the head of `buf` needs in all (header + payload); 0 while unknown. */
  private need = 0;
  push(data: Buffer): Frame[] {
    if (this.pending.length) {
      this.pending.push(data);
      this.pendingBytes += data.length;
      if (this.pendingBytes < this.need) return [];
      this.buf = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    } else this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    const out: Frame[] = [];
    this.need = 0;
    while (this.buf.length >= HEADER) {
      const len = this.buf.readUInt32BE(5);
      if (len > MAX_FRAME) throw new Error(`agent frame of ${len} bytes exceeds ${MAX_FRAME}`);
      if (this.buf.length < HEADER + len) {
        // Wait for the rest without copying what is here on every piece.
        this.need = HEADER + len;
        this.pending = [this.buf];
        this.pendingBytes = this.buf.length;
        this.buf = Buffer.alloc(0);
        break;
      }
      out.push({
        kind: String.fromCharCode(this.buf[0] ?? 0),
        id: this.buf.readUInt32BE(1),
        payload: this.buf.subarray(HEADER, HEADER + len),
      });
      this.buf = this.buf.subarray(HEADER + len);
    }
    return out;
  }
}
