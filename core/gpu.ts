/** GPU models as users name them, against the model labels nodes carry. */

const tokens = (s: string) =>
  s
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);

/**
 * A GPU model as users write it against a node's model label: the whole label, or a run of its
 * words. "H100" and "h100-80gb" match "NVIDIA-H100-80GB-HBM3" and "H100_NVLINK_80GB"; "H10" does not.
 */
export function gpuTypeMatches(asked: string, label: string): boolean {
  const a = tokens(asked),
    l = tokens(label);
  if (!a.length) return false;
  for (let i = 0; i + a.length <= l.length; i++) if (a.every((t, j) => l[i + j] === t)) return true;
  return false;
}
