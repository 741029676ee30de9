package harness

import "testing"

func TestPercentEncode(t *testing.T) {
	for _, c := range []struct{ in, keep, want string }{
		{"/work/100%/proj", "", "%2Fwork%2F100%25%2Fproj"},
		{"/work/100%/proj", "/", "/work/100%25/proj"},
		{"/a b/é~._-", "/", "/a%20b/%C3%A9~._-"},
		{"", "", ""},
	} {
		if got := PercentEncode(c.in, c.keep); got != c.want {
			t.Errorf("PercentEncode(%q, %q) = %q, want %q", c.in, c.keep, got, c.want)
		}
	}
	for _, bad := range []string{"%", "%2", "%2G", "a%g0", "%%20"} {
		if got, ok := PercentDecode(bad); ok {
			t.Errorf("PercentDecode(%q) = %q, accepted", bad, got)
		}
	}
	if got, ok := PercentDecode("%2fa%2Fb"); !ok || got != "/a/b" {
		t.Errorf("PercentDecode of either case = %q, %v", got, ok)
	}
}

func FuzzPercentRoundTrip(f *testing.F) {
	f.Add("/work/100%/proj", "/")
	f.Add("\x00\xff%", "")
	f.Fuzz(func(t *testing.T, s, keep string) {
		if !keepsNoPercent(keep) {
			return
		}
		if dec, ok := PercentDecode(PercentEncode(s, keep)); !ok || dec != s {
			t.Fatalf("PercentDecode(PercentEncode(%q, %q)) = %q, %v", s, keep, dec, ok)
		}
	})
}

// keepsNoPercent: a '%' kept as it is cannot be told from an escape.
func keepsNoPercent(keep string) bool {
	for i := 0; i < len(keep); i++ {
		if keep[i] == '%' {
			return false
		}
	}
	return true
}
