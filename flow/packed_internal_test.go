package flow

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestPackedCommitHoldsNoPointer: the packed log is worth keeping only while
// the collector has nothing to look at in it (no eager zeroing of a large
// pointer-holding block, no scan, no write barrier): a field that holds a
// pointer — a string, a slice, an interface — belongs in the arena, named
// from the commit by number.
func TestPackedCommitHoldsNoPointer(t *testing.T) {
	typ := reflect.TypeOf(packedCommit{})
	var check func(t reflect.Type, at string)
	check = func(ty reflect.Type, at string) {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				check(ty.Field(i).Type, at+"."+ty.Field(i).Name)
			}
		case reflect.Array:
			check(ty.Elem(), at+"[]")
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Float32, reflect.Float64:
		default:
			t.Errorf("packedCommit%s is a %s: it holds a pointer", at, ty.Kind())
		}
	}
	check(typ, "")
	if size := unsafe.Sizeof(packedCommit{}); size > 64 {
		t.Errorf("a packed commit is %d bytes; it was 64", size)
	}
}
