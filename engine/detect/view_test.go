package detect

import (
	"context"
	"slices"
	"testing"
)

func TestDetectMatchesDetectView(t *testing.T) {
	p, _ := PageFromText(samplePage)
	for _, d := range allRecs(t) {
		a, err := d.Detect(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		b := d.(ViewDetector).DetectView(PageView(p))
		if !slices.Equal(a, b) {
			t.Errorf("%s: Detect and DetectView differ", d.Name())
		}
	}
}
