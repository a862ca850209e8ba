// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ExecRequest {
  'sandbox_id'?: (string);
  'command'?: (string)[];
  'env'?: ({[key: string]: string});
  'max_output_bytes'?: (number);
  'container'?: (string);
}

export interface ExecRequest__Output {
  'sandbox_id'?: (string);
  'command'?: (string)[];
  'env'?: ({[key: string]: string});
  'max_output_bytes'?: (number);
  'container'?: (string);
}
