package contract

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/page"
)

// TestValidate holds every option rule at its boundary. The HTTP layer,
// the admin CLI and the engine all apply Validate, so this table is the
// one place the rules are pinned.
func TestValidate(t *testing.T) {
	lim := Limits{MaxTerms: 3}
	accented := func(n int) string { return strings.Repeat("é", n) } // 2 bytes each
	cases := []struct {
		name  string
		in    Options
		want  Options // when field is ""
		field string  // the *FieldError's Field; "" means accepted
		msg   string  // the *FieldError's Msg must contain this
	}{
		{name: "nil stays nil", in: Options{}, want: Options{}},
		{name: "empty stays empty", in: Options{Categories: []page.Category{}, Included: []string{}, Excluded: []string{}},
			want: Options{Categories: []page.Category{}, Included: []string{}, Excluded: []string{}}},
		{name: "known categories, duplicates dropped in order", in: Options{Categories: []page.Category{"Email", "Person", "Email", "IBAN", "Person"}},
			want: Options{Categories: []page.Category{"Email", "Person", "IBAN"}}},
		{name: "the NationalID extension is known", in: Options{Categories: []page.Category{"NationalID", "Person"}},
			want: Options{Categories: []page.Category{page.NationalID, page.Person}}},
		{name: "unknown category", in: Options{Categories: []page.Category{"Person", "SSN"}}, field: "pii_categories", msg: `unknown category "SSN" (known: Person, `},
		{name: "category case matters", in: Options{Categories: []page.Category{"person"}}, field: "pii_categories", msg: "unknown category"},
		{name: "long unknown category is cut", in: Options{Categories: []page.Category{page.Category(strings.Repeat("x", 500))}}, field: "pii_categories", msg: `"` + strings.Repeat("x", 40) + `…"`},
		{name: "terms trimmed", in: Options{Included: []string{"  Project Falcon ", "ACME"}, Excluded: []string{" Bob"}},
			want: Options{Included: []string{"Project Falcon", "ACME"}, Excluded: []string{"Bob"}}},
		{name: "max terms", in: Options{Included: []string{"a", "b", "c"}}, want: Options{Included: []string{"a", "b", "c"}}},
		{name: "too many included", in: Options{Included: []string{"a", "b", "c", "d"}}, field: "pii_included_terms", msg: "at most 3 terms"},
		{name: "too many excluded", in: Options{Excluded: []string{"a", "b", "c", "d"}}, field: "pii_excluded_terms", msg: "at most 3 terms"},
		{name: "256 accented characters", in: Options{Included: []string{accented(256)}}, want: Options{Included: []string{accented(256)}}},
		{name: "200 accented characters", in: Options{Excluded: []string{accented(200)}}, want: Options{Excluded: []string{accented(200)}}},
		{name: "257 accented characters", in: Options{Included: []string{"ok", accented(257)}}, field: "pii_included_terms[1]", msg: "longer than 256 characters"},
		{name: "256 characters after trimming", in: Options{Included: []string{"  " + accented(256) + "  "}}, want: Options{Included: []string{accented(256)}}},
		{name: "blank", in: Options{Excluded: []string{"x", " \u00a0 "}}, field: "pii_excluded_terms[1]", msg: "empty term"},
		{name: "empty", in: Options{Included: []string{""}}, field: "pii_included_terms[0]", msg: "empty term"},
		{name: "control character inside", in: Options{Included: []string{"a\x00b"}}, field: "pii_included_terms[0]", msg: "control characters"},
		{name: "control character at the end", in: Options{Excluded: []string{"a", "b\n"}}, field: "pii_excluded_terms[1]", msg: "control characters"},
		{name: "C1 control character", in: Options{Included: []string{"a\u0085b"}}, field: "pii_included_terms[0]", msg: "control characters"},
		{name: "invalid UTF-8", in: Options{Excluded: []string{"a\xffb"}}, field: "pii_excluded_terms[0]", msg: "not valid UTF-8"},
		{name: "categories checked before terms", in: Options{Categories: []page.Category{"Nope"}, Included: []string{""}}, field: "pii_categories", msg: "unknown category"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.in.Validate(lim)
			if c.field == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("got %#v, want %#v", got, c.want)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want *FieldError", err, err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Msg, c.msg) {
				t.Fatalf("err = {%q, %q}, want field %q, message containing %q", fe.Field, fe.Msg, c.field, c.msg)
			}
			if err.Error() != fe.Field+": "+fe.Msg {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

// TestValidateNeverEchoesTerms: terms are often personal data, so no
// refusal may carry one back.
func TestValidateNeverEchoesTerms(t *testing.T) {
	const secret = "Zyxwvutsrq"
	for _, terms := range [][]string{
		{secret + "\x00"},
		{secret + strings.Repeat("é", 300)},
		{secret + "\xff"},
		{secret, secret, secret, secret},
	} {
		_, err := Options{Included: terms}.Validate(Limits{MaxTerms: 3})
		if err == nil {
			t.Fatalf("%q accepted", terms)
		}
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("error %q echoes the term", err)
		}
	}
}

// TestValidateZeroLimits: a caller that forgets the limit refuses terms
// instead of allowing unbounded lists.
func TestValidateZeroLimits(t *testing.T) {
	if _, err := (Options{Included: []string{"a"}}).Validate(Limits{}); err == nil {
		t.Fatal("terms accepted with MaxTerms 0")
	}
	if _, err := (Options{Included: []string{}}).Validate(Limits{}); err != nil {
		t.Fatalf("empty list refused: %v", err)
	}
}
