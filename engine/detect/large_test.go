package detect

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// TestLargeInputs runs pathological pages (tens of thousands of
// candidates of one kind) through every recognizer: each must stay
// linear, which shows as this test finishing in about a second.
func TestLargeInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%03d-%03d-%04d ", r.Intn(1000), r.Intn(1000), r.Intn(10000))
		if i%8 == 7 {
			b.WriteByte('\n')
		}
	}
	cases := map[string]string{
		"phones":  b.String(),
		"digits":  strings.Repeat("1 ", 20000),
		"ats":     strings.Repeat("a@b ", 10000),
		"atword":  strings.Repeat("x [at] y [dot] ", 5000),
		"caps":    strings.Repeat("John Smith Inc ", 5000),
		"months":  strings.Repeat("3 March 2021 ", 5000),
		"letters": strings.Repeat("a", 200000),
		"dots":    strings.Repeat("1.", 50000),
	}
	for name, text := range cases {
		p, _ := PageFromText(text)
		t0 := time.Now()
		_, err := Run(context.Background(), p, allRecs(t), Options{Included: []string{"a a a"}, Excluded: []string{"john"}})
		t.Logf("%s: %d words, %v", name, len(p.Words), time.Since(t0))
		if err != nil {
			t.Fatal(err)
		}
	}
}
