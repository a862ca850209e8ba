// Original file: proto/google/rpc/error_details.proto


export interface LocalizedMessage {
  'locale'?: (string);
  'message'?: (string);
}

export interface LocalizedMessage__Output {
  'locale'?: (string);
  'message'?: (string);
}
