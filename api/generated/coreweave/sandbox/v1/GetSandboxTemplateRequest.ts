// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto


export interface GetSandboxTemplateRequest {
  'sandbox_template_id'?: (string);
  'show_deleted'?: (boolean);
}

export interface GetSandboxTemplateRequest__Output {
  'sandbox_template_id'?: (string);
  'show_deleted'?: (boolean);
}
