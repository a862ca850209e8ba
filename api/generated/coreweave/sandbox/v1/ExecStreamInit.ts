// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ExecStreamInit {
  'sandbox_id'?: (string);
  'command'?: (string)[];
  'tty'?: (boolean);
  'tty_width'?: (number);
  'tty_height'?: (number);
  'env'?: ({[key: string]: string});
  'container'?: (string);
}

export interface ExecStreamInit__Output {
  'sandbox_id'?: (string);
  'command'?: (string)[];
  'tty'?: (boolean);
  'tty_width'?: (number);
  'tty_height'?: (number);
  'env'?: ({[key: string]: string});
  'container'?: (string);
}
