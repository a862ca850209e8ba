// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto


export interface DeleteSandboxTemplateRequest {
  'sandbox_template_id'?: (string);
}

export interface DeleteSandboxTemplateRequest__Output {
  'sandbox_template_id'?: (string);
}
