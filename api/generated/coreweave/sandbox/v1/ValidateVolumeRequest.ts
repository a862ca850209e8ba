// Original file: proto/coreweave/sandbox/v1/volume.proto


export interface ValidateVolumeRequest {
  'volume_id'?: (string);
}

export interface ValidateVolumeRequest__Output {
  'volume_id'?: (string);
}
