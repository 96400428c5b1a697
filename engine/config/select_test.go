package config

import (
	"strings"
	"testing"
	"time"
)

func TestSelect(t *testing.T) {
	c := Default()
	c.Data = "/srv/redactd"
	var s struct {
		Data      string
		OutputTTL time.Duration
		Other     int `config:"-"`
	}
	s.Other = 7
	if err := Select(c, &s); err != nil {
		t.Fatal(err)
	}
	if s.Data != "/srv/redactd" || s.OutputTTL != c.OutputTTL || s.Other != 7 {
		t.Fatalf("selected %+v", s)
	}

	var typo struct{ Dataa string }
	if err := Select(c, &typo); err == nil || !strings.Contains(err.Error(), "Dataa is not a setting") {
		t.Fatalf("misspelt field: %v", err)
	}
	var wrong struct{ Data int }
	if err := Select(c, &wrong); err == nil || !strings.Contains(err.Error(), "the setting is string") {
		t.Fatalf("wrong type: %v", err)
	}
	if err := Select(c, s); err == nil {
		t.Fatal("a non-pointer was accepted")
	}
}
