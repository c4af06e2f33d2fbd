// Package adapterlib speaks TrustSuite's JSON-lines adapter protocol
// (spec/vectors.md, "Adapter protocol") for the Go adapters of Adapters/:
// the hello line, then one reply per request line, in order.
package adapterlib

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
)

// Unsupported is returned by a handler for an input the library cannot express.
type Unsupported struct{ Reason string }

func (u Unsupported) Error() string { return u.Reason }

// Handler answers one request's input: nil means the library accepted it
// (valid), Unsupported means it cannot be asked, any other error is the
// library refusing the input (invalid, its text in "error").
type Handler func(input map[string]interface{}) error

type request struct {
	ID     string                 `json:"id"`
	Family string                 `json:"family"`
	Input  map[string]interface{} `json:"input"`
}

// maxLine bounds one request line (the largest vector is well below it).
const maxLine = 64 << 20

// Serve writes the hello and answers stdin until it ends.
func Serve(name, version string, handlers map[string]Handler) {
	ServeWith(name, version, handlers, nil)
}

// ServeWith is Serve with more hello fields (for example "callerChecks").
func ServeWith(name, version string, handlers map[string]Handler, hello map[string]interface{}) {
	families := make([]string, 0, len(handlers))
	for family := range handlers {
		families = append(families, family)
	}
	line := map[string]interface{}{"adapter": name, "version": version, "families": families}
	for key, value := range hello {
		line[key] = value
	}
	out := json.NewEncoder(os.Stdout)
	_ = out.Encode(line)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), maxLine)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			continue
		}
		_ = out.Encode(answer(req, handlers))
	}
}

func answer(req request, handlers map[string]Handler) map[string]interface{} {
	reply := map[string]interface{}{"id": req.ID}
	handler, ok := handlers[req.Family]
	if !ok {
		reply["result"], reply["error"] = "unsupported", "family "+req.Family+" is not mapped by this adapter"
		return reply
	}
	// A panic in the library is left to crash the process: the runner
	// grades it `error` and restarts the adapter, as a crash in production.
	err := handler(req.Input)
	switch e := err.(type) {
	case nil:
		reply["result"] = "valid"
	case Unsupported:
		reply["result"], reply["error"] = "unsupported", e.Reason
	default:
		reply["result"], reply["error"] = "invalid", truncate(err.Error())
	}
	return reply
}

func truncate(text string) string {
	if len(text) > 500 {
		return text[:500]
	}
	return text
}

// String is a string field of the input ("" when absent).
func String(input map[string]interface{}, key string) string {
	s, _ := input[key].(string)
	return s
}

// Base64 is a standard-base64 field of the input (nil when absent or not base64).
func Base64(input map[string]interface{}, key string) []byte {
	data, err := base64.StdEncoding.DecodeString(String(input, key))
	if err != nil {
		return nil
	}
	return data
}

// CBOR is a cbor-family handler: modes outside `modes` and inputs that set
// tagValidity are unsupported; decode(data, mode) returns nil to accept.
func CBOR(modes []string, decode func(data []byte, mode string) error) Handler {
	return func(input map[string]interface{}) error {
		mode := String(input, "mode")
		if mode == "" {
			mode = "wellFormed"
		}
		known := false
		for _, m := range modes {
			known = known || m == mode
		}
		if !known {
			return Unsupported{"the library has no " + mode + " mode"}
		}
		if tv, _ := input["tagValidity"].(bool); tv {
			return Unsupported{"the library has no option that checks tag content (tagValidity)"}
		}
		data, err := hex.DecodeString(String(input, "cborHex"))
		if err != nil {
			return Unsupported{"cborHex is not hex"}
		}
		return decode(data, mode)
	}
}
