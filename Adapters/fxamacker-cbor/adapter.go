// TrustSuite adapter for fxamacker/cbor (family cbor, all three modes), as
// packaged by Debian (golang-github-fxamacker-cbor-dev).
package main

import (
	"github.com/fxamacker/cbor"
	"trustsuite/adapterlib"
)

// version is set by Adapters/build.sh from the installed Debian package.
var version = "unknown"

// The spec/cbor.md nesting limits; fxamacker accepts 4 to 256.
var depth = map[string]int{"wellFormed": 64, "deterministic": 64, "ctap2": 4}

// decModes holds, per mode, the strictest decoding options the library has
// for it. Version 2.4.0 has no decoding option for shortest form or key
// order (its canonical forms are encoder options), so those are not checked.
var decModes = map[string]cbor.DecMode{}

func init() {
	for mode, levels := range depth {
		opts := cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF, MaxNestedLevels: levels}
		if mode != "wellFormed" {
			opts.IndefLength = cbor.IndefLengthForbidden
		}
		if mode == "ctap2" {
			opts.TagsMd = cbor.TagsForbidden
		}
		dm, err := opts.DecMode()
		if err != nil {
			panic(err)
		}
		decModes[mode] = dm
	}
}

// decode is Unmarshal into an empty interface, as a caller decoding
// arbitrary CBOR writes it.
func decode(data []byte, mode string) error {
	var value interface{}
	return decModes[mode].Unmarshal(data, &value)
}

func main() {
	adapterlib.Serve("fxamacker-cbor", version, map[string]adapterlib.Handler{
		"cbor": adapterlib.CBOR([]string{"wellFormed", "deterministic", "ctap2"}, decode),
	})
}
