// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto


export interface ListSandboxTemplatesRequest {
  'page_size'?: (number);
  'page_token'?: (string);
  'show_deleted'?: (boolean);
}

export interface ListSandboxTemplatesRequest__Output {
  'page_size'?: (number);
  'page_token'?: (string);
  'show_deleted'?: (boolean);
}
