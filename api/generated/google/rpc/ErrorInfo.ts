// Original file: proto/google/rpc/error_details.proto


export interface ErrorInfo {
  'reason'?: (string);
  'domain'?: (string);
  'metadata'?: ({[key: string]: string});
}

export interface ErrorInfo__Output {
  'reason'?: (string);
  'domain'?: (string);
  'metadata'?: ({[key: string]: string});
}
