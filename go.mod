module github.com/fleetcom/fleetcom

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/adrg/xdg v0.5.3
	github.com/creack/pty v1.1.24
	github.com/google/go-cmp v0.7.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.26.0 // indirect
)
