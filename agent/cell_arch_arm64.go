package main

const (
	auditArch  = 0xc00000b7 // AUDIT_ARCH_AARCH64
	sysSeccomp = 277
	sysSetns   = 268
)
