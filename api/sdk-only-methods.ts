/**
 * Methods that newer SDK releases define but the contract (proto/) does not. Hangar
 * registers each with a typed UNIMPLEMENTED (reason CWSANDBOX_NOT_IMPLEMENTED); for
 * ConnectSandbox that is what makes the SDK keep using the gateway path for exec, files
 * and logs. test/unit/proto-wire.test.ts fails when the pinned SDK adds one not listed here.
 */
export const SDK_ONLY_METHODS: readonly { path: string; clientStream: boolean; serverStream: boolean }[] = [
  { path: "/coreweave.sandbox.v1.SandboxService/ConnectSandbox", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SandboxService/CreateSandboxFromFile", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SandboxService/GetSandboxBuildLogs", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SettingsService/GetBuildStorageConfig", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SettingsService/UpdateBuildStorageConfig", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SandboxDataPlaneService/Exec", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SandboxDataPlaneService/StreamExec", clientStream: true, serverStream: true },
  { path: "/coreweave.sandbox.v1.SandboxDataPlaneService/StreamLogs", clientStream: false, serverStream: true },
  { path: "/coreweave.sandbox.v1.SandboxDataPlaneService/WriteFile", clientStream: false, serverStream: false },
  { path: "/coreweave.sandbox.v1.SandboxDataPlaneService/ReadFile", clientStream: false, serverStream: false },
];
