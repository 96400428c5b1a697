package pattern

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/redactd/redactd/engine/detect/gazetteer"
	"github.com/redactd/redactd/engine/detect/view"
	"github.com/redactd/redactd/engine/page"
)

// months maps month names and abbreviations in English, German, French,
// Spanish, Italian, Dutch and Portuguese to the month number.
var months = func() map[string]int {
	m := map[string]int{}
	for i, names := range [12]string{
		"january jan januar jänner jän janvier janv enero ene gennaio gen januari janeiro",
		"february feb febr februar feber février fevrier févr fevr fév fev febrero febbraio februari fevereiro",
		"march mar märz mär maerz mrz mars marzo maart mrt março marco",
		"april apr avril avr abril abr aprile",
		"may mai mayo maggio mag mei maio",
		"june jun juni juin junio giugno giu junho",
		"july jul juli juillet juil julio luglio lug julho",
		"august aug août aout agosto ago augustus",
		"september sep sept septembre septiembre setiembre set settembre sett setembro",
		"october oct oktober okt octobre octubre ottobre ott outubro out",
		"november nov novembre noviembre novembro",
		"december dec dezember dez décembre decembre déc diciembre dic dicembre dezembro",
	} {
		for _, n := range strings.Fields(names) {
			m[n] = i + 1
		}
	}
	return m
}()

// ambiguousMonths are month words that are also everyday words or
// abbreviations ("you may 2", "5 out of 10"): they need a year to count.
var ambiguousMonths = gazetteer.MustWords("dates", "ambiguous-month")

var weekdays = gazetteer.MustWords("dates", "weekday")

// MonthNumber returns the number (1-12) of the lower-case month name or
// abbreviation w, 0 when w is none.
func MonthNumber(w string) int { return months[w] }

// IsWeekday reports whether the lower-case word w is a weekday name or
// abbreviation.
func IsWeekday(w string) bool { return weekdays[w] }

// versionWords before a dotted number make it a version, not a date.
var versionWords = gazetteer.MustWords("dates", "version")

var (
	isoDateTime = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$`)
	clockTime   = regexp.MustCompile(`^(?:[01]?\d|2[0-3])(?:[:.h][0-5]\d(?:[:.][0-5]\d(?:[.,]\d{1,6})?)?(?:z|[+-]\d{2}:?\d{2})?(?:am|pm|a\.m\.|p\.m\.|h|uhr)?|(?:am|pm|a\.m\.|p\.m\.))$`)
)

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// validDate checks a calendar date. y < 100 is a two-digit year.
func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	if y >= 100 && (y < 1000 || y > 2999) {
		return false
	}
	return d <= daysIn(m, y)
}

// parseNumericDate recognises d/m/y, m/d/y and y/m/d with '/', '-' or '.'
// (one kind per date), two- or four-digit years, and the calendar-valid
// month-year forms mm/yyyy and yyyy-mm. It returns a score.
func parseNumericDate(s string) (float32, bool) {
	if len(s) < 6 || len(s) > 10 || !view.IsDigit(s[0]) || !view.IsDigit(s[len(s)-1]) {
		return 0, false
	}
	sep := byte(0)
	for i := 0; i < len(s); i++ {
		if !view.IsDigit(s[i]) {
			sep = s[i]
			break
		}
	}
	if sep != '/' && sep != '-' && sep != '.' {
		return 0, false
	}
	parts := strings.Split(s, string(sep))
	for _, p := range parts {
		if !AllDigits(p) {
			return 0, false
		}
	}
	num := func(p string) int { n, _ := strconv.Atoi(p); return n }
	switch len(parts) {
	case 2:
		a, b := parts[0], parts[1]
		switch {
		case len(a) <= 2 && len(b) == 4 && sep != '-':
			return 0.5, validDate(num(b), num(a), 1)
		case len(a) == 4 && len(b) == 2 && sep == '-':
			return 0.5, validDate(num(a), num(b), 1)
		}
		return 0, false
	case 3:
	default:
		return 0, false
	}
	a, b, c := parts[0], parts[1], parts[2]
	if len(a) == 4 {
		if len(b) > 2 || len(c) > 2 {
			return 0, false
		}
		return 0.85, validDate(num(a), num(b), num(c))
	}
	if len(a) > 2 || len(b) > 2 || (len(c) != 2 && len(c) != 4) {
		return 0, false
	}
	y := num(c)
	ok := validDate(y, num(b), num(a)) || validDate(y, num(a), num(b))
	if len(c) == 4 {
		return 0.85, ok
	}
	if sep == '-' {
		return 0.5, ok
	}
	return 0.6, ok
}

// dayNumber parses a day of the month with an optional ordinal suffix:
// "3", "3rd", "1er", "15.", "1º", "1.º" (Portuguese).
func dayNumber(s string) (int, bool) {
	i := 0
	for i < len(s) && view.IsDigit(s[i]) {
		i++
	}
	if i == 0 || i > 2 {
		return 0, false
	}
	switch s[i:] {
	case "", ".", "st", "nd", "rd", "th", "er", "re", "e", "ème", "eme", "º", "ª", "°", "o", "a", ".º", ".ª", ".°":
	default:
		return 0, false
	}
	d, _ := strconv.Atoi(s[:i])
	return d, d >= 1 && d <= 31
}

// dayRange parses "3-5" or "3–5" (an en dash), returning the larger day.
func dayRange(s string) (int, bool) {
	for _, dash := range []string{"–", "-", "—", "/"} {
		if a, b, ok := strings.Cut(s, dash); ok {
			d1, ok1 := dayNumber(a)
			d2, ok2 := dayNumber(b)
			if ok1 && ok2 && d1 < d2 {
				return d2, true
			}
			return 0, false
		}
	}
	return 0, false
}

// yearNumber parses a four-digit year, or an apostrophe two-digit one.
func yearNumber(s string) (int, bool) {
	if len(s) == 4 && AllDigits(s) {
		y, _ := strconv.Atoi(s)
		return y, y >= 1000 && y <= 2999
	}
	for _, ap := range []string{"'", "’"} {
		if strings.HasPrefix(s, ap) && len(s) == len(ap)+2 && AllDigits(s[len(ap):]) {
			y, _ := strconv.Atoi(s[len(ap):])
			return 2000 + y, true
		}
	}
	return 0, false
}

// dateFinder walks one view; its helpers read words by view index.
type dateFinder struct {
	v   *view.View
	out []page.Span
}

// FindDates finds dates and date-times: numeric dates in any order with
// '/', '-' or '.' (calendar-checked, two- or four-digit years), "04 03
// 2021", ISO 8601 date-times, month names and abbreviations in seven
// languages with days, ordinals, years and ranges ("3rd of March 2021",
// "1 de enero de 2020", "3–5 März 2021"), widened by a weekday before and a
// clock time after. A bare year or weekday name is masked when it belongs
// to such a date or follows a person's life event ("born in 1971", "died
// on Thursday"; lifeEvents); otherwise it is left ("flew on Thursday
// morning", "founded in 1971"): alone it identifies no one and masking it
// would blank out ordinary prose.
func FindDates(v *view.View) []page.Span {
	f := &dateFinder{v: v}
	for k := 0; k < v.Lines(); k++ {
		first, end := v.Line(k)
		for i := first; i < end; {
			i = f.at(i, first, end)
		}
		f.lifeEvents(first, end)
	}
	return f.out
}

// lifeEventWords are the events of a person's life whose date is personal
// data: a year or weekday right after one of them is masked.
var lifeEventWords = gazetteer.MustWords("dates", "life-event")

// lifeEventGlue are the words allowed between a life event and its year
// or weekday ("born in 1971", "died on Thursday", "married, in 1990").
var lifeEventGlue = gazetteer.MustWords("dates", "life-event-glue")

// lifeEvents masks a bare year (1800-2099) or a full weekday name within
// three words after a life event word on the line [first, end).
func (f *dateFinder) lifeEvents(first, end int) {
	for i := first; i < end; i++ {
		if !lifeEventWords[f.cl(i, first, end)] {
			continue
		}
		for j := i + 1; j < end && j <= i+3; j++ {
			w := f.cl(j, first, end)
			if BareYear(w) || weekdays[w] && len(w) > 4 {
				s, e := f.v.Core(j)
				if sp, ok := f.v.Span(s, e, page.Date, 0.6, "date"); ok {
					f.out = append(f.out, sp)
				}
				break
			}
			if !lifeEventGlue[w] {
				break
			}
		}
	}
}

// BareYear reports whether w is a four-digit year from 1800 to 2099.
func BareYear(w string) bool {
	if len(w) != 4 || !AllDigits(w) {
		return false
	}
	return w[:2] == "18" || w[:2] == "19" || w[:2] == "20"
}

// cl is word i's core in lower case with a trailing dot removed ("Mar."),
// or "" outside [first, end).
func (f *dateFinder) cl(i, first, end int) string {
	if i < first || i >= end {
		return ""
	}
	return strings.TrimSuffix(f.v.CoreLower(i), ".")
}

// at looks for a date starting at word i of the line [first, end) and
// returns the index of the next word to look at.
func (f *dateFinder) at(i, first, end int) int {
	v := f.v
	w := v.CoreLower(i)
	if w == "" {
		return i + 1
	}
	// Numeric dates, possibly glued to a label ("DOB:3/4/1990").
	if view.HasDigit(w) {
		cs, ce := v.Core(i)
		s := cs
		if p := strings.IndexAny(v.Text[cs:ce], "0123456789"); p > 0 && strings.IndexByte(":=(#", v.Text[cs+p-1]) >= 0 {
			s = cs + p
		}
		tok := v.Text[s:ce]
		if m := isoDateTime.FindStringSubmatch(tok); m != nil {
			y, _ := strconv.Atoi(m[1])
			mo, _ := strconv.Atoi(m[2])
			d, _ := strconv.Atoi(m[3])
			if validDate(y, mo, d) {
				return f.emit(i, s, ce, 0.9, first, end)
			}
		}
		if score, ok := parseNumericDate(tok); ok && !versionWords[f.cl(i-1, first, end)] {
			return f.emit(i, s, ce, score, first, end)
		}
		if j, ok := f.spaced(i, first, end); ok {
			s, _ := v.Core(i)
			_, e := v.Core(j)
			return f.emit(j, s, e, 0.7, first, end) // emit continues after j
		}
		if sc, ok := gluedMonthDate(v.Lower[s:ce]); ok {
			return f.emit(i, s, ce, sc, first, end)
		}
	}
	// Dates with a month name: the month word anchors the match.
	if mo, ok := months[strings.TrimSuffix(w, ".")]; ok {
		return f.monthDate(i, mo, first, end)
	}
	return i + 1
}

// spaced matches "04 03 2021" and "2021 03 04": three words on one line.
func (f *dateFinder) spaced(i, first, end int) (int, bool) {
	if i+2 >= end {
		return 0, false
	}
	a, b, c := f.v.CoreText(i), f.v.CoreText(i+1), f.v.CoreText(i+2)
	if !AllDigits(a) || !AllDigits(b) || !AllDigits(c) {
		return 0, false
	}
	num := func(p string) int { n, _ := strconv.Atoi(p); return n }
	switch {
	case len(a) <= 2 && len(b) <= 2 && len(c) == 4:
		y := num(c)
		if y >= 1900 && y <= 2100 && (validDate(y, num(b), num(a)) || validDate(y, num(a), num(b))) {
			return i + 2, true
		}
	case len(a) == 4 && len(b) <= 2 && len(c) <= 2:
		y := num(a)
		if y >= 1900 && y <= 2100 && validDate(y, num(b), num(c)) {
			return i + 2, true
		}
	}
	return 0, false
}

// gluedMonthDate matches "15-Mar-2021", "15.März.2021", "2021-mar-15",
// "mar-15-2021" (lower case input).
func gluedMonthDate(w string) (float32, bool) {
	for _, sep := range []string{"-", ".", "/"} {
		p := strings.Split(w, sep)
		if len(p) != 3 {
			continue
		}
		var d, m, y int
		var ok bool
		switch {
		case months[p[1]] > 0:
			m = months[p[1]]
			if len(p[0]) == 4 {
				y, _ = strconv.Atoi(p[0])
				d, ok = dayNumber(p[2])
			} else {
				d, ok = dayNumber(p[0])
				y, _ = strconv.Atoi(p[2])
			}
		case months[p[0]] > 0:
			m = months[p[0]]
			d, ok = dayNumber(p[1])
			y, _ = strconv.Atoi(p[2])
		}
		if ok && AllDigits(strings.TrimLeft(p[2], "0")+"0") && validDate(y, m, d) {
			return 0.85, true
		}
	}
	return 0, false
}

// monthDate matches the forms around a month word at i:
//
//	[weekday,] DAY[-DAY] [of|de|del] MONTH [,] [de|del] [YEAR]
//	[weekday,] MONTH DAY[-DAY][,] [YEAR]
//	MONTH [,] YEAR
func (f *dateFinder) monthDate(i, mo, first, end int) int {
	v := f.v
	mw := strings.TrimSuffix(v.CoreLower(i), ".")
	start, stop := i, i
	day := 0
	// Day before the month.
	j := i - 1
	if c := f.cl(j, first, end); c == "of" || c == "de" || c == "del" || c == "di" {
		j--
	}
	if f.cleanEnd(j, first, end) {
		if d, ok := dayNumber(f.cl(j, first, end)); ok {
			day, start = d, j
		} else if d, ok := dayRange(f.cl(j, first, end)); ok {
			day, start = d, j
		}
	}
	if day > 0 {
		// "3 - 5 March", "3 to 5 March"
		if c := f.cl(start-1, first, end); c == "-" || c == "–" || c == "to" || c == "bis" || c == "au" || c == "al" || c == "a" || c == "tot" {
			if _, ok := dayNumber(f.cl(start-2, first, end)); ok {
				start -= 2
			}
		}
	} else if d, ok := dayNumber(f.cl(i+1, first, end)); ok {
		// Day after the month.
		day, stop = d, i+1
	} else if d, ok := dayRange(f.cl(i+1, first, end)); ok {
		day, stop = d, i+1
	}
	// Year after the month or after the day that follows it.
	year := 0
	k := stop + 1
	if c := f.cl(k, first, end); c == "de" || c == "del" || c == "," {
		k++
	}
	if y, ok := yearNumber(f.cl(k, first, end)); ok {
		year, stop = y, k
	}
	if day == 0 && year == 0 || ambiguousMonths[mw] && year == 0 {
		return i + 1
	}
	if day > 0 && !validDate(max(year, 2000), mo, day) {
		return i + 1
	}
	if day > 0 && year > 0 && !validDate(year, mo, day) {
		return i + 1
	}
	score := float32(0.85)
	if year == 0 || day == 0 {
		score = 0.7
	}
	s, _ := v.Core(start)
	_, e := v.Core(stop)
	return f.emit(stop, s, e, score, first, end)
}

// cleanEnd reports whether word i has no punctuation after its core other
// than a dot ("3." in German dates); "6:" or "6," before a month word is
// no day of it.
func (f *dateFinder) cleanEnd(i, first, end int) bool {
	if i < first || i >= end {
		return false
	}
	_, e := f.v.WordRange(i)
	_, ce := f.v.Core(i)
	return ce == e || f.v.Text[ce:e] == "."
}

// emit records the date [s, e) whose last word is last, widened by a
// weekday before it and a time after it, and returns the next word index.
func (f *dateFinder) emit(last, s, e int, score float32, first, end int) int {
	v := f.v
	fw := v.WordAt(s)
	if weekdays[strings.TrimSuffix(f.cl(fw-1, first, end), ".")] {
		s, _ = v.Core(fw - 1)
	} else if c := f.cl(fw-1, first, end); (c == "the" || c == "le" || c == "den" || c == "el" || c == "il") && weekdays[f.cl(fw-2, first, end)] {
		s, _ = v.Core(fw - 2)
	}
	// Time after the date: "14:56:41", "10:15 am", "at 10:15", "10.15 Uhr".
	j := last + 1
	if c := f.cl(j, first, end); c == "at" || c == "um" || c == "à" || c == "a" || c == "alle" || c == "às" || c == "om" || c == "," || c == "-" {
		j++
	}
	if clockTime.MatchString(f.cl(j, first, end)) && strings.ContainsAny(f.cl(j, first, end), ":.h") {
		_, e = v.Core(j)
		last = j
		if c := f.cl(j+1, first, end); c == "am" || c == "pm" || c == "a.m" || c == "p.m" || c == "uhr" || c == "h" || c == "utc" || c == "gmt" || c == "cet" || c == "cest" || c == "est" || c == "pst" {
			_, e = v.Core(j + 1)
			last = j + 1
		}
	}
	if sp, ok := v.Span(s, e, page.Date, score, "date"); ok {
		f.out = append(f.out, sp)
	}
	return last + 1
}
