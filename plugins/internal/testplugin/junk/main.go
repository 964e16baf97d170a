// Command junk writes to stdout before the handshake, as a careless plugin
// (or a library's init) would.
package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	fmt.Fprintln(os.Stderr, "junk: I print a greeting on stdout")
	fmt.Println("Hello from junk! Loading configuration...")
	time.Sleep(30 * time.Second)
}
