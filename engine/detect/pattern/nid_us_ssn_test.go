package pattern

import "testing"

// No check digit: only the areas, groups and serials the SSA never assigns.
func TestSSN(t *testing.T) {
	checkID(t, validSSN,
		[]string{"123456789", "078051120", "899991234"},
		[]string{"000123456", "666123456", "900123456", "999123456", "123001234", "123450000", "12345678"}, false)
}
