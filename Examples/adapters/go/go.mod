module trustsuite.example/quickstart

go 1.19

require github.com/fxamacker/cbor v1.5.1
