// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface PortRange {
  'protocol'?: (string);
  'port'?: (number);
  'end_port'?: (number);
}

export interface PortRange__Output {
  'protocol'?: (string);
  'port'?: (number);
  'end_port'?: (number);
}
