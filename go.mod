module github.com/fleetcom/fleetcom

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/google/go-cmp v0.7.0
	github.com/ncruces/go-sqlite3 v0.37.0
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
)

require (
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
