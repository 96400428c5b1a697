package ports

import (
	"net"
	"testing"
)

func TestBaseAvoidsEphemeralAndBusyPorts(t *testing.T) {
	ephLo, ephHi := Ephemeral()
	if ephLo < 1 || ephHi < ephLo {
		t.Fatalf("ephemeral range %d-%d", ephLo, ephHi)
	}
	offs := []int{0, 1, 2, 100}
	for range 20 {
		base := Base(t, 20000, 5000, offs)
		if base < 20000 || base >= 25000 {
			t.Fatalf("base %d outside [20000, 25000)", base)
		}
		for _, off := range offs {
			if p := base + off; p >= ephLo && p <= ephHi {
				t.Fatalf("port %d in the ephemeral range %d-%d", p, ephLo, ephHi)
			}
		}
	}
	// A window that straddles the ephemeral range's start gives only
	// bases whose every port lies below it.
	for range 20 {
		base := Base(t, ephLo-200, 400, offs)
		if base+100 >= ephLo {
			t.Fatalf("base %d: port %d is in the ephemeral range %d-%d", base, base+100, ephLo, ephHi)
		}
	}
	// A busy port and one in the ephemeral range are refused.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	busy := l.Addr().(*net.TCPAddr).Port
	if free(busy, []int{0}, 0, 0) {
		t.Errorf("port %d is listened on, yet free says so", busy)
	}
	if free(busy+1, []int{0}, busy+1, busy+1) {
		t.Errorf("port %d is in the ephemeral range given, yet free says so", busy+1)
	}
}
