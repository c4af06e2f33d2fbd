// TrustSuite adapter for ugorji/go/codec's CBOR handle (family cbor,
// wellFormed mode), as packaged by Debian (golang-github-ugorji-go-codec-dev).
package main

import (
	"fmt"

	"github.com/ugorji/go/codec"
	"trustsuite/adapterlib"
)

// version is set by Adapters/build.sh from the installed Debian package.
var version = "unknown"

// The spec/cbor.md nesting limit of wellFormed mode is 64 arrays or maps;
// the library counts the innermost item as a level too (64 arrays around an
// integer are 65 levels to it), so its MaxDepth is one more.
const maxDepth = 64 + 1

// decode reads one item into an empty interface with the handle's checks
// on (UTF-8 validation, the depth limit); the library's Decode stops after
// the first item, so the adapter compares NumBytesRead with the input's
// length, as a caller that must refuse trailing bytes does.
func decode(data []byte, mode string) error {
	handle := &codec.CborHandle{}
	handle.ValidateUnicode = true
	handle.MaxDepth = maxDepth
	decoder := codec.NewDecoderBytes(data, handle)
	var value interface{}
	if err := decoder.Decode(&value); err != nil {
		return err
	}
	if read := decoder.NumBytesRead(); read != len(data) {
		return fmt.Errorf("%d trailing bytes after the item", len(data)-read)
	}
	return nil
}

func main() {
	adapterlib.Serve("ugorji-codec", version, map[string]adapterlib.Handler{
		"cbor": adapterlib.CBOR([]string{"wellFormed"}, decode),
	})
}
