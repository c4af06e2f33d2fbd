// The smallest TrustSuite adapter, in Go: fxamacker/cbor on the cbor family.
// One JSON line introduces the adapter; then each request line gets one
// reply line with the same id. Build it, then grade it with the downloaded
// binary (docs/adopting.md):
//
//	go mod tidy && go build -o adapter . && trustsuite run --adapter ./adapter --expected expected.json
//
// (CI builds it offline in GOPATH mode against Debian's
// golang-github-fxamacker-cbor-dev 2.4.0, whose package path is this one:
// Examples/adapters/test.sh.)
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"

	"github.com/fxamacker/cbor"
)

type request struct {
	ID    string `json:"id"`
	Input struct {
		CBORHex     string `json:"cborHex"`
		Mode        string `json:"mode"`
		TagValidity bool   `json:"tagValidity"`
	} `json:"input"`
}

func answer(r request) map[string]any {
	if (r.Input.Mode != "" && r.Input.Mode != "wellFormed") || r.Input.TagValidity {
		return map[string]any{"id": r.ID, "result": "unsupported"}
	}
	data, err := hex.DecodeString(r.Input.CBORHex)
	if err == nil {
		var value any
		err = cbor.Unmarshal(data, &value)
	}
	if err != nil {
		return map[string]any{"id": r.ID, "result": "invalid", "error": err.Error()}
	}
	return map[string]any{"id": r.ID, "result": "valid"}
}

// version is the library's, set at build time: go build -ldflags "-X main.version=2.4.0".
var version = "unknown"

func main() {
	out := json.NewEncoder(os.Stdout)
	_ = out.Encode(map[string]any{"adapter": "fxamacker-cbor-quickstart", "version": version, "families": []string{"cbor"}})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			os.Exit(2)
		}
		_ = out.Encode(answer(r))
	}
}
