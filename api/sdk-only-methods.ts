/**
 * Methods that newer SDK releases define but the contract (proto/) does not. Hangar
 * registers each with a typed UNIMPLEMENTED (reason CWSANDBOX_NOT_IMPLEMENTED); for
 * ConnectSandbox that is what makes the SDK keep using the gateway path for exec, files
 * and logs. test/unit/proto-wire.test.ts fails when the pinned SDK adds one not listed here.
 */
export const SDK_ONLY_METHODS: readonly { path: string; clientStream: boolean; serverStream: boolean }[] = [
  // None: proto/ is the pinned SDK's (1.22.0) contract. A newer SDK's methods go here until proto/ moves.
];
