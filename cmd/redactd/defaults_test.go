package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
)

// TestDefaultOptions: `defaults set` applies the same option rules as the
// HTTP layer and the engine (contract.Options.Validate) and names the
// flag, with the term's index, in a refusal.
func TestDefaultOptions(t *testing.T) {
	set := func(v string) rawFlag { return rawFlag{set: true, val: v} }
	long := strings.Repeat("é", 200)
	cases := []struct {
		name             string
		cats, incl, excl rawFlag
		want             jobs.Options
		err              string // "" means accepted
	}{
		{name: "unset keeps nil"},
		{name: "null keeps nil", cats: set("null"), incl: set(" null ")},
		{name: "empty saves none", excl: set("[]"), want: jobs.Options{Excluded: []string{}}},
		{name: "checked, deduplicated and trimmed", cats: set(`["Person","Email","Person"]`), incl: set(`["  ` + long + ` "]`),
			want: jobs.Options{Categories: []page.Category{page.Person, page.Email}, Included: []string{long}}},
		{name: "unknown category", cats: set(`["SSN"]`), err: `--categories: unknown category "SSN"`},
		{name: "blank term", incl: set(`["a","  "]`), err: "--include[1]: empty term"},
		{name: "long term", excl: set(`["` + strings.Repeat("é", 257) + `"]`), err: "--exclude[0]: longer than 256 characters"},
		{name: "control character", excl: set(`["a\u0007"]`), err: "--exclude[0]: contains control characters"},
		{name: "too many terms", incl: set(`["a","b","c"]`), err: "--include: at most 2 terms"},
		{name: "not JSON", incl: set(`[Falcon]`), err: "--include: must be a JSON array of strings"},
		{name: "empty flag", cats: set(``), err: "--categories: must be a JSON array of strings"},
		{name: "invalid UTF-8", excl: set("[\"\xff\"]"), err: "--exclude: must be a JSON array of strings"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := defaultOptions(c.cats, c.incl, c.excl, 2)
			if c.err == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("got %#v, want %#v", got, c.want)
				}
				return
			}
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err = %v, want a usage error containing %q", err, c.err)
			}
		})
	}
}
