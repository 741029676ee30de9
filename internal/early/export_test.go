package early

// For the external tests: the helpers that stand in for the standard
// library's, which this package cannot import.
var (
	Clean     = clean
	Join      = join
	ArgsPrint = argsPrint
)
