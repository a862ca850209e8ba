module hangar.dev/netinit

go 1.23

require (
	github.com/google/nftables v0.3.0
	github.com/mdlayher/netlink v1.7.3-0.20250113171957-fbb4dce95f42
	golang.org/x/sys v0.28.0
)

require (
	github.com/google/go-cmp v0.6.0 // indirect
	github.com/mdlayher/socket v0.5.0 // indirect
	golang.org/x/net v0.33.0 // indirect
	golang.org/x/sync v0.6.0 // indirect
)
