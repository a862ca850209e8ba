// Original file: proto/coreweave/sandbox/v1/runtime_class.proto

import type { RuntimeClass as _coreweave_sandbox_v1_RuntimeClass, RuntimeClass__Output as _coreweave_sandbox_v1_RuntimeClass__Output } from '../../../coreweave/sandbox/v1/RuntimeClass.js';

export interface RuntimeClassMapping {
  'runtime_class'?: (_coreweave_sandbox_v1_RuntimeClass);
  'kubernetes_runtime_class_name'?: (string);
  'node_default'?: (boolean);
  'target'?: "kubernetes_runtime_class_name"|"node_default";
}

export interface RuntimeClassMapping__Output {
  'runtime_class'?: (_coreweave_sandbox_v1_RuntimeClass__Output);
  'kubernetes_runtime_class_name'?: (string);
  'node_default'?: (boolean);
  'target'?: "kubernetes_runtime_class_name"|"node_default";
}
