// Writes docs/fields.md from proto/ and api/field-policy.ts (`make fields`, after `make build`).
import { writeFileSync } from "node:fs";
import { fieldTable } from "../dist/api/field-table.js";
import { loadContractRoot, PROTO_DIR } from "../dist/api/proto.js";

writeFileSync("docs/fields.md", fieldTable(loadContractRoot(PROTO_DIR)));
