package main

const (
	auditArch  = 0xc000003e // AUDIT_ARCH_X86_64
	sysSeccomp = 317
	sysSetns   = 308
)
