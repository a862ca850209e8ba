module hangar.dev/agent

go 1.20
