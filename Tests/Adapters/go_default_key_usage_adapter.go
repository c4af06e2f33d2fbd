// A test adapter with the bug class the vector
// attestation-certificate-extension::eku-app-attest-only isolates: it checks
// an attestation's x5c chain with Go's crypto/x509 Certificate.Verify and
// VerifyOptions that leave KeyUsages empty — which Go reads as "the leaf
// must allow TLS server authentication" — against the vector's anchors (or,
// with none, Apple's App Attestation root as the caller would configure
// it), and checks nothing else. Standard library only; a minimal CBOR
// reader for the object's definite-length items.
package main

import (
	"bufio"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"
)

type item struct {
	kind  byte // major type
	value uint64
	bytes []byte
	array []item
	keys  []item
	vals  []item
}

func readItem(b []byte, depth int) (item, []byte, error) {
	if len(b) == 0 || depth > 16 {
		return item{}, nil, errors.New("truncated")
	}
	major, info, rest := b[0]>>5, b[0]&31, b[1:]
	var n uint64
	switch {
	case info < 24:
		n = uint64(info)
	case info <= 27:
		size := 1 << (info - 24)
		if len(rest) < size {
			return item{}, nil, errors.New("truncated")
		}
		for _, c := range rest[:size] {
			n = n<<8 | uint64(c)
		}
		rest = rest[size:]
	default:
		return item{}, nil, errors.New("indefinite or reserved length")
	}
	it := item{kind: major, value: n}
	switch major {
	case 2, 3:
		if uint64(len(rest)) < n {
			return item{}, nil, errors.New("truncated")
		}
		it.bytes, rest = rest[:n], rest[n:]
	case 4, 5:
		if n > uint64(len(rest)) {
			return item{}, nil, errors.New("count beyond the data")
		}
		for i := uint64(0); i < n; i++ {
			var err error
			var k item
			if major == 5 {
				if k, rest, err = readItem(rest, depth+1); err != nil {
					return item{}, nil, err
				}
				it.keys = append(it.keys, k)
			}
			var v item
			if v, rest, err = readItem(rest, depth+1); err != nil {
				return item{}, nil, err
			}
			if major == 5 {
				it.vals = append(it.vals, v)
			} else {
				it.array = append(it.array, v)
			}
		}
	case 6:
		return readItem(rest, depth+1)
	}
	return it, rest, nil
}

func (it item) get(key string) (item, bool) {
	for i, k := range it.keys {
		if k.kind == 3 && string(k.bytes) == key {
			return it.vals[i], true
		}
	}
	return item{}, false
}

func pool(pems []interface{}) *x509.CertPool {
	roots := x509.NewCertPool()
	for _, p := range pems {
		text, _ := p.(string)
		for rest := []byte(text); ; {
			var block *pem.Block
			if block, rest = pem.Decode(rest); block == nil {
				break
			}
			if c, err := x509.ParseCertificate(block.Bytes); err == nil {
				roots.AddCert(c)
			}
		}
	}
	return roots
}

func verify(input map[string]interface{}, appleRoot []interface{}) (string, string) {
	raw, err := base64.StdEncoding.DecodeString(fmt.Sprint(input["attestationObject"]))
	if err != nil {
		return "malformedAttestationObject", err.Error()
	}
	object, _, err := readItem(raw, 0)
	if err != nil {
		return "malformedAttestationObject", err.Error()
	}
	stmt, _ := object.get("attStmt")
	x5c, _ := stmt.get("x5c")
	if len(x5c.array) < 2 {
		return "missingCertificates", "x5c holds fewer than two certificates"
	}
	leaf, err := x509.ParseCertificate(x5c.array[0].bytes)
	if err != nil {
		return "certificateChainInvalid", err.Error()
	}
	intermediates := x509.NewCertPool()
	for _, der := range x5c.array[1:] {
		if c, err := x509.ParseCertificate(der.bytes); err == nil {
			intermediates.AddCert(c)
		}
	}
	anchors, ok := input["trustAnchorsPem"].([]interface{})
	if !ok {
		anchors = appleRoot
	}
	when, err := time.Parse(time.RFC3339, fmt.Sprint(input["validationTime"]))
	if err != nil {
		return "malformedAttestationObject", err.Error()
	}
	// The bug: no KeyUsages, so Go demands ExtKeyUsageServerAuth of a leaf that has an EKU.
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool(anchors), Intermediates: intermediates, CurrentTime: when}); err != nil {
		return "certificateChainInvalid", err.Error()
	}
	return "", ""
}

func main() {
	var appleRoot []interface{}
	if len(os.Args) > 1 {
		if data, err := os.ReadFile(os.Args[1]); err == nil {
			appleRoot = []interface{}{string(data)}
		}
	}
	out := bufio.NewWriter(os.Stdout)
	hello, _ := json.Marshal(map[string]interface{}{"adapter": "go-default-key-usage", "version": "1",
		"families": []string{"app-attest-attestation"}, "codes": true})
	fmt.Fprintln(out, string(hello))
	out.Flush()
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	for scanner.Scan() {
		var request struct {
			ID    interface{}            `json:"id"`
			Input map[string]interface{} `json:"input"`
		}
		reply := map[string]interface{}{"result": "valid"}
		if err := json.Unmarshal(scanner.Bytes(), &request); err != nil {
			reply = map[string]interface{}{"result": "invalid", "error": err.Error()}
		} else if code, reason := verify(request.Input, appleRoot); code != "" {
			reply = map[string]interface{}{"result": "invalid", "code": code, "error": reason}
		}
		reply["id"] = request.ID
		line, _ := json.Marshal(reply)
		fmt.Fprintln(out, string(line))
		out.Flush()
	}
}
