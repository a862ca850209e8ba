/**
 * The size limits of requests (counts, lengths, bytes), in one place: the spec converters, the
 * egress rules and the handlers all check against these.
 */
export const LIMITS = {
  tags: 64,
  tagLength: 256,
  args: 4096,
  argvBytes: 256 * 1024,
  env: 1024,
  envBytes: 256 * 1024,
  filesBytes: 16 * 1024 * 1024,
  pathLength: 4096,
  imageLength: 512,
  requestIdLength: 128,
  displayNameLength: 256,
  idLength: 256,
  annotations: 128,
  annotationBytes: 64 * 1024,
  volumes: 32,
  egressRules: 32,
  egressExcepts: 32,
  egressPorts: 32,
  secrets: 64,
  services: 16,
  containers: 16,
};
