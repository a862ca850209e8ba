// Original file: proto/coreweave/sandbox/v1/volume.proto


export interface DeleteVolumeRequest {
  'volume_id'?: (string);
  'allow_missing'?: (boolean);
  'force'?: (boolean);
}

export interface DeleteVolumeRequest__Output {
  'volume_id'?: (string);
  'allow_missing'?: (boolean);
  'force'?: (boolean);
}
