// TrustSuite adapter for duo-labs/webauthn (family app-attest-assertion), as
// packaged by Debian (golang-github-duo-labs-webauthn-dev): an App Attest
// assertion checked with the library's WebAuthn building blocks, as teams
// reuse a WebAuthn library for App Attest.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/duo-labs/webauthn/protocol"
	"github.com/duo-labs/webauthn/protocol/webauthncbor"
	"github.com/duo-labs/webauthn/protocol/webauthncose"
	"github.com/duo-labs/webauthn/webauthn"
	"trustsuite/adapterlib"
)

// version is set by Adapters/build.sh from the installed Debian package.
var version = "unknown"

// assertion is App Attest's assertion object (Apple, "Validating assertions").
type assertion struct {
	Signature         []byte `cbor:"signature"`
	AuthenticatorData []byte `cbor:"authenticatorData"`
}

// launchPolicyFields are the iOS 27 and macOS 27 launch-policy inputs; the library has none.
var launchPolicyFields = []string{"allowedValidationCategories", "minimumBundleVersion", "missingLaunchData", "allowedCodeDirectoryHashes"}

// publicKey reads the vector's key (X9.63 uncompressed point or SPKI DER)
// into the library's COSE EC2 key type.
func publicKey(raw []byte) (webauthncose.EC2PublicKeyData, error) {
	key := webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         1, // P-256
	}
	if len(raw) == 65 && raw[0] == 4 {
		key.XCoord, key.YCoord = raw[1:33], raw[33:]
		return key, nil
	}
	parsed, err := x509.ParsePKIXPublicKey(raw)
	if err != nil {
		return key, err
	}
	ec, ok := parsed.(*ecdsa.PublicKey)
	if !ok || ec.Curve != elliptic.P256() {
		return key, errors.New("public key is not a P-256 key")
	}
	key.XCoord, key.YCoord = ec.X.FillBytes(make([]byte, 32)), ec.Y.FillBytes(make([]byte, 32))
	return key, nil
}

// describe adds the library's error details to its short message.
func describe(err error) error {
	var e *protocol.Error
	if errors.As(err, &e) {
		return fmt.Errorf("%s (%s) %s", e.Type, e.Details, e.DevInfo)
	}
	return err
}

func verify(input map[string]interface{}) error {
	for _, field := range launchPolicyFields {
		if _, ok := input[field]; ok {
			return adapterlib.Unsupported{Reason: "the library has no launch policy (validation category, bundle version)"}
		}
	}
	var object assertion
	if err := webauthncbor.Unmarshal(adapterlib.Base64(input, "assertion"), &object); err != nil {
		return err
	}
	var authData protocol.AuthenticatorData
	if err := authData.Unmarshal(object.AuthenticatorData); err != nil {
		return describe(err)
	}
	appIDHash := sha256.Sum256([]byte(adapterlib.String(input, "appId")))
	if err := authData.Verify(appIDHash[:], nil, false); err != nil {
		return describe(err)
	}
	key, err := publicKey(adapterlib.Base64(input, "publicKey"))
	if err != nil {
		return err
	}
	// nonce = SHA-256(authenticatorData ‖ SHA-256(clientData)); the key signs
	// the nonce with ES256, which the library's Verify hashes once more.
	clientDataHash := sha256.Sum256(adapterlib.Base64(input, "clientData"))
	nonce := sha256.Sum256(append(append([]byte{}, object.AuthenticatorData...), clientDataHash[:]...))
	ok, err := key.Verify(nonce[:], object.Signature)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("signature does not verify")
	}
	// The counter is the caller's: the library's login flow only raises
	// CloneWarning; a verifier following its documentation refuses then.
	previous, _ := input["previousCounter"].(float64)
	authenticator := webauthn.Authenticator{SignCount: uint32(previous)}
	authenticator.UpdateCounter(authData.Counter)
	if authenticator.CloneWarning {
		return fmt.Errorf("CloneWarning: counter %d is not above %d", authData.Counter, authenticator.SignCount)
	}
	return nil
}

func main() {
	adapterlib.ServeWith("duo-labs-webauthn", version,
		map[string]adapterlib.Handler{"app-attest-assertion": verify},
		map[string]interface{}{"callerChecks": []string{"counter"}})
}
