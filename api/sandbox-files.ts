/** WriteFile and ReadFile: one file of a sandbox (or of one of its containers), by absolute path. */
import { errors, type FieldViolation } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import type { ReadFileRequest__Output } from "./generated/coreweave/sandbox/v1/ReadFileRequest.js";
import type { WriteFileRequest__Output } from "./generated/coreweave/sandbox/v1/WriteFileRequest.js";
import { sandboxId } from "./spec.js";
import { validPath } from "./spec-text.js";

export const checkContainer = (c: string | undefined, v: FieldViolation[]) => {
  if ((c ?? "").length > 63) v.push({ field: "container", description: "a container name (at most 63 characters)" });
};

/** The validated sandbox id and path of a ReadFile/WriteFile request. */
function fileTarget(req: { sandbox_id?: string; path?: string; container?: string }): { id: string; path: string } {
  const id = sandboxId(req.sandbox_id);
  const v: FieldViolation[] = [];
  const bad = validPath(req.path ?? "");
  if (bad) v.push({ field: "path", description: bad });
  checkContainer(req.container, v);
  if (v.length) throw errors.invalid(v);
  return { id, path: req.path as string };
}

export function createFileHandlers(controller: Controller) {
  return {
    async writeFile(req: WriteFileRequest__Output, ctx: CallContext) {
      const { id, path } = fileTarget(req);
      await controller.writeFile(ctx.tenant, id, path, Buffer.from(req.content ?? Buffer.alloc(0)), ctx.signal, req.container || undefined);
      return {};
    },
    async readFile(req: ReadFileRequest__Output, ctx: CallContext) {
      const { id, path } = fileTarget(req);
      return { content: await controller.readFile(ctx.tenant, id, path, ctx.signal, req.container || undefined) };
    },
  };
}
