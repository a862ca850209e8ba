/** Image references as a node lists them (pure, table-tested): "python:3.11" is docker.io/library/python:3.11. */
export function canonicalImage(ref: string): string {
  const [path, digest] = ref.split("@") as [string, string | undefined];
  const first = path.split("/")[0] ?? "";
  const hasRegistry = path.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost");
  let name = hasRegistry ? path : `docker.io/${path.includes("/") ? path : `library/${path}`}`;
  const last = name.slice(name.lastIndexOf("/") + 1);
  if (!digest && !last.includes(":")) name += ":latest";
  return digest ? `${name}@${digest}` : name;
}

/** Whether a node's status lists the image; undefined when the node is not known. */
export function nodeHasImage(node: { status?: { images?: { names?: string[] }[] } } | undefined, ref: string): boolean | undefined {
  if (!node) return undefined;
  const want = canonicalImage(ref);
  return (node.status?.images ?? []).some((i) => (i.names ?? []).some((n) => canonicalImage(n) === want));
}
