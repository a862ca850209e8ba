// Original file: proto/coreweave/sandbox/v1/volume.proto


export interface PvcVolumeSource {
  'runner_id'?: (string);
  'namespace'?: (string);
  'claim_name'?: (string);
  'sub_path'?: (string);
}

export interface PvcVolumeSource__Output {
  'runner_id'?: (string);
  'namespace'?: (string);
  'claim_name'?: (string);
  'sub_path'?: (string);
}
