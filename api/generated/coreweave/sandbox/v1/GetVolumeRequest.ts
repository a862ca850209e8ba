// Original file: proto/coreweave/sandbox/v1/volume.proto


export interface GetVolumeRequest {
  'volume_id'?: (string);
}

export interface GetVolumeRequest__Output {
  'volume_id'?: (string);
}
