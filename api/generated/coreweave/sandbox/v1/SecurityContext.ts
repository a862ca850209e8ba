// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface SecurityContext {
  'run_as_user'?: (number);
  'run_as_group'?: (number);
  'privileged'?: (boolean);
  'allow_privilege_escalation'?: (boolean);
  'read_only_root_filesystem'?: (boolean);
  'capabilities_add'?: (string)[];
  'capabilities_drop'?: (string)[];
  'seccomp_profile'?: (string);
  '_run_as_user'?: "run_as_user";
  '_run_as_group'?: "run_as_group";
  '_privileged'?: "privileged";
  '_allow_privilege_escalation'?: "allow_privilege_escalation";
  '_read_only_root_filesystem'?: "read_only_root_filesystem";
}

export interface SecurityContext__Output {
  'run_as_user'?: (number);
  'run_as_group'?: (number);
  'privileged'?: (boolean);
  'allow_privilege_escalation'?: (boolean);
  'read_only_root_filesystem'?: (boolean);
  'capabilities_add'?: (string)[];
  'capabilities_drop'?: (string)[];
  'seccomp_profile'?: (string);
  '_run_as_user'?: "run_as_user";
  '_run_as_group'?: "run_as_group";
  '_privileged'?: "privileged";
  '_allow_privilege_escalation'?: "allow_privilege_escalation";
  '_read_only_root_filesystem'?: "read_only_root_filesystem";
}
