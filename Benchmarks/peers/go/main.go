// Timing loops for Benchmarks/compare.sh: fxamacker/cbor as Debian packages
// it (golang-github-fxamacker-cbor-dev), built by compare.sh with Debian's Go
// in GOPATH mode, offline. Output lines, read by the script:
//
//	time DECODER PAYLOAD NS_PER_DECODE   (one round: the mean over ~0.25 s)
//	peak DECODER PAYLOAD KIB             (ru_maxrss after one Unmarshal)
//
// Usage: cbor-go round FILE… | cbor-go peak FILE
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fxamacker/cbor"
)

// round is the time each decoder spends on each payload in one round.
const round = 250 * time.Millisecond

var sink error

// timeIt is the mean nanoseconds per call over one round, after one
// untimed warm-up call and one that sizes the batch between clock reads
// (the first call may pay for faulting pages in, which would size the
// batch to 1 and add a clock read to every call).
func timeIt(body func()) float64 {
	body()
	first := time.Now()
	body()
	batch := 64
	if time.Since(first) > 10*time.Microsecond {
		batch = 1
	}
	calls := 0
	start := time.Now()
	for {
		for i := 0; i < batch; i++ {
			body()
		}
		calls += batch
		if elapsed := time.Since(start); elapsed >= round {
			return float64(elapsed.Nanoseconds()) / float64(calls)
		}
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: cbor-go round FILE… | cbor-go peak FILE")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "round":
		for _, path := range os.Args[2:] {
			data, err := os.ReadFile(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			name := filepath.Base(path)
			fmt.Printf("time fxamacker-valid %s %.1f\n", name, timeIt(func() { sink = cbor.Valid(data) }))
			fmt.Printf("time fxamacker-unmarshal %s %.1f\n", name, timeIt(func() {
				var v interface{}
				sink = cbor.Unmarshal(data, &v)
			}))
		}
	case "peak":
		data, err := os.ReadFile(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var v interface{}
		sink = cbor.Unmarshal(data, &v)
		var usage syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
		fmt.Printf("peak fxamacker-unmarshal %s %d\n", filepath.Base(os.Args[2]), usage.Maxrss)
	}
}
