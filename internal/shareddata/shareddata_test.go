package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	t.Setenv(Env, "")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// This package is two levels below the repository root.
	want := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(wd))), "shared", "data")
	if got := Dir(); got != want {
		t.Errorf("Dir() = %s, want %s (../shared/data beside the checkout)", got, want)
	}
	t.Setenv(Env, "/elsewhere/data")
	if got := Path("ner", "x.txt"); got != "/elsewhere/data/ner/x.txt" {
		t.Errorf("Path with %s set = %s", Env, got)
	}
}
