// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface BuildContextObject {
  'location'?: (string);
  'bucket'?: (string);
  'key'?: (string);
  'version_id'?: (string);
}

export interface BuildContextObject__Output {
  'location'?: (string);
  'bucket'?: (string);
  'key'?: (string);
  'version_id'?: (string);
}
