// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface VolumeMount {
  'volume'?: (string);
  'mount_path'?: (string);
  'read_only'?: (boolean);
  'sub_path'?: (string);
}

export interface VolumeMount__Output {
  'volume'?: (string);
  'mount_path'?: (string);
  'read_only'?: (boolean);
  'sub_path'?: (string);
}
