// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface SelectorBlock {
  'pod_labels'?: ({[key: string]: string});
  'namespace_labels'?: ({[key: string]: string});
}

export interface SelectorBlock__Output {
  'pod_labels'?: ({[key: string]: string});
  'namespace_labels'?: ({[key: string]: string});
}
