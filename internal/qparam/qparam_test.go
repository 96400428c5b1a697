package qparam

import (
	"errors"
	"testing"

	"github.com/valyala/fasthttp"
)

// hostile are values that strconv accepts, or turns into NaN, an
// infinity or an out-of-range figure; none is a parameter's number.
var hostile = []string{
	"", "NaN", "nan", "+Inf", "-Inf", "Inf", "inf", "infinity", "1e309", "1e3", "-1", "+1",
	"-0", "99999999999999999999999", "1" + string(make([]byte, 30)), "0x10", "1_0", " 1", "1 ",
	"1.", ".5", "1.2.3", "٣", "0", "501",
}

func TestRejects(t *testing.T) {
	in := Int{Name: "limit", Min: 1, Max: 500}
	num := Number{Name: "dpi", Min: 9, Max: 300}
	for _, v := range hostile {
		if n, err := in.Parse([]byte(v)); err == nil {
			t.Errorf("Int %q = %d", v, n)
		} else if want := "limit: must be an integer between 1 and 500"; err.Error() != want {
			t.Errorf("Int %q: %q, want %q", v, err, want)
		}
		if f, err := num.Parse([]byte(v)); err == nil {
			t.Errorf("Number %q = %v", v, f)
		} else if want := "dpi: must be a number between 9 and 300"; err.Error() != want {
			t.Errorf("Number %q: %q, want %q", v, err, want)
		}
	}
	var e *Error
	if _, err := in.Parse([]byte("NaN")); !errors.As(err, &e) || e.Name != "limit" {
		t.Errorf("not an *Error: %v", err)
	}
}

func TestAccepts(t *testing.T) {
	in := Int{Name: "limit", Min: 1, Max: 500}
	for v, want := range map[string]int64{"1": 1, "50": 50, "500": 500, "007": 7} {
		if n, err := in.Parse([]byte(v)); err != nil || n != want {
			t.Errorf("Int %q = %d, %v", v, n, err)
		}
	}
	num := Number{Name: "dpi", Min: 9, Max: 300}
	for v, want := range map[string]float64{"9": 9, "72": 72, "90.5": 90.5, "300": 300, "300.0": 300} {
		if f, err := num.Parse([]byte(v)); err != nil || f != want {
			t.Errorf("Number %q = %v, %v", v, f, err)
		}
	}
}

func TestFrom(t *testing.T) {
	var a fasthttp.Args
	a.Parse("dpi=&limit=20")
	if f, err := (Number{Name: "dpi", Min: 9, Max: 300}).From(&a, 72); err == nil {
		t.Errorf("empty dpi = %v", f)
	}
	if n, err := (Int{Name: "limit", Min: 1, Max: 500}).From(&a, 50); err != nil || n != 20 {
		t.Errorf("limit = %d, %v", n, err)
	}
	if n, err := (Int{Name: "other", Min: 1, Max: 5}).From(&a, 3); err != nil || n != 3 {
		t.Errorf("absent = %d, %v", n, err)
	}
}
