package config

import (
	"fmt"
	"reflect"
)

// Select copies into the struct dst points at every field of c that dst
// names: a component declares the settings it takes as a struct whose
// fields carry Config's field names and types, and cmd/redactd/wire fills
// it. The component then sees its own settings and nothing else, and
// imports nothing of this package.
//
// A field of dst that is not a setting (a metrics registerer, a callback)
// must be tagged `config:"-"`; the caller sets it. Any other field that
// Config lacks, or has with another type, is an error, so a misspelt
// setting fails where the component is wired instead of staying zero.
func Select(c Config, dst any) error {
	dv := reflect.ValueOf(dst)
	if dv.Kind() != reflect.Pointer || dv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("config: Select wants a pointer to a struct, got %T", dst)
	}
	dv = dv.Elem()
	src := reflect.ValueOf(c)
	for i := 0; i < dv.NumField(); i++ {
		f := dv.Type().Field(i)
		if f.Tag.Get("config") == "-" || !f.IsExported() {
			continue
		}
		sf, ok := src.Type().FieldByName(f.Name)
		if !ok {
			return fmt.Errorf("config: %s.%s is not a setting (tag it `config:\"-\"` if the caller sets it)", dv.Type(), f.Name)
		}
		if sf.Type != f.Type {
			return fmt.Errorf("config: %s.%s is %s, the setting is %s", dv.Type(), f.Name, f.Type, sf.Type)
		}
		dv.Field(i).Set(src.FieldByIndex(sf.Index))
	}
	return nil
}
