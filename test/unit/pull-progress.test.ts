import { describe, expect, it } from "vitest";
import { layoutProgress, pullReason, readManifest } from "../../core/pull-progress.js";
import { insecureRef } from "../../runtime/local/image-store.js";

const layers = [
  { digest: "sha256:aaa", size: 3_000_000 },
  { digest: "sha256:bbb", size: 1_000_000 },
];

describe("pull progress", () => {
  it.each([
    [
      {
        image: "docker.io/library/python:3.11",
        phase: "pulling",
        bytesDone: 1_234_567,
        bytesTotal: 4_000_000,
        layersDone: 1,
        layersTotal: 2,
      },
      "pulling image docker.io/library/python:3.11: 1.2 MB of 4.0 MB, 1 of 2 layers",
    ],
    [{ image: "x:1", phase: "pulling", bytesDone: 0, layersDone: 0 }, "pulling image x:1: 0.0 MB, 0 layers"],
    [
      { image: "x:1", phase: "unpacking", bytesDone: 4_000_000, bytesTotal: 4_000_000, layersDone: 2, layersTotal: 2 },
      "unpacking image x:1 (4.0 MB, 2 layers)",
    ],
  ] as const)("%o reads %s", (p, want) => {
    expect(pullReason(p)).toBe(want);
  });

  it("counts whole layers and the bytes written so far, partial files included, never past the total", () => {
    const files = new Map([
      ["/t/layout/blobs/sha256/aaa", 3_000_000],
      ["/t/layout/blobs/sha256/bbb", 400_000],
      ["/t/layout/oci-put-blob123", 200_000],
      ["/t/layout/index.json", 300],
      ["/t/layout/oci-layout", 30],
    ]);
    expect(layoutProgress(files, layers)).toEqual({ bytesDone: 3_600_000, layersDone: 1 });
    expect(layoutProgress(new Map([["/t/layout/blobs/sha256/aaa", 9_000_000]]), layers)).toEqual({ bytesDone: 3_000_000, layersDone: 1 });
    expect(layoutProgress(new Map(), layers)).toEqual({ bytesDone: 0, layersDone: 0 });
    expect(layoutProgress(new Map([["/t/x", 5]]), [])).toEqual({ bytesDone: 5, layersDone: 0 });
  });

  it("reads a manifest's layers, follows an index to this platform's manifest, and refuses what it cannot read", () => {
    expect(readManifest({ schemaVersion: 2, layers: [...layers, { digest: 1 }] }, { os: "linux", architecture: "amd64" })).toEqual({
      layers,
    });
    const index = {
      mediaType: "application/vnd.oci.image.index.v1+json",
      manifests: [
        { digest: "sha256:arm", platform: { os: "linux", architecture: "arm64" } },
        { digest: "sha256:amd", platform: { os: "linux", architecture: "amd64" } },
      ],
    };
    expect(readManifest(index, { os: "linux", architecture: "amd64" })).toEqual({ manifest: "sha256:amd" });
    expect(readManifest(index, { os: "linux", architecture: "s390x" })).toBeUndefined();
    expect(readManifest("nope", { os: "linux", architecture: "amd64" })).toBeUndefined();
    expect(readManifest({ config: {} }, { os: "linux", architecture: "amd64" })).toBeUndefined();
  });

  it("reaches a registry over plain HTTP only where the operator named it", () => {
    expect(insecureRef("docker://127.0.0.1:5000/a/b:1", ["127.0.0.1:5000"])).toBe(true);
    expect(insecureRef("docker://127.0.0.1:5001/a/b:1", ["127.0.0.1:5000"])).toBe(false);
    expect(insecureRef("docker://127.0.0.1:5000/a/b:1", [])).toBe(false);
    expect(insecureRef("docker-archive:/x.tar:a", ["127.0.0.1:5000"])).toBe(false);
  });
});
