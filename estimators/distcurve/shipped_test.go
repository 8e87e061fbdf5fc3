package distcurve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// smallSHA256 and publishedSHA256 are the sha256 of the shipped weight
// files, as the training commands in the package documentation wrote them
// (publishedSHA256 of the gzip'd file); "" means not shipped.
const (
	smallSHA256     = "d5b9c6b39e1f4e28a6cf0ec960331f3fe2b168e4b6d765bef4aa43ae984db8c6"
	publishedSHA256 = "1e78909d9130dd61c1cd5e879aa6b04829b7b3391c40651195158e5aa51135d8"
)

func fileSHA256(t *testing.T, file string) string {
	t.Helper()
	data, err := networkFiles.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TestShippedFiles: each embedded weight file is the one the documented
// command wrote (sha256), and a network not shipped fails with
// ErrNotShipped and a message that says so, rather than loading anything.
func TestShippedFiles(t *testing.T) {
	if got := fileSHA256(t, "network.bin"); got != smallSHA256 {
		t.Errorf("network.bin sha256 %s, want %s", got, smallSHA256)
	}
	n, err := ShippedNetwork(NetPublished)
	if publishedSHA256 == "" {
		if !errors.Is(err, ErrNotShipped) || !strings.Contains(err.Error(), "network-published.bin.gz") {
			t.Fatalf("published network not shipped: got %v, %v; want ErrNotShipped naming the file", n, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := fileSHA256(t, "network-published.bin.gz"); got != publishedSHA256 {
		t.Errorf("network-published.bin.gz sha256 %s, want %s", got, publishedSHA256)
	}
	if len(n.Layers) != 4 || n.Layers[0].Out != 2048 || n.Layers[1].Out != 1024 || n.Layers[2].Out != 512 {
		t.Errorf("published network has %d layers", len(n.Layers))
	}
}

// TestShippedNetworkNames: the default is the small net; an unknown name
// is an error naming the choices.
func TestShippedNetworkNames(t *testing.T) {
	d, err := DefaultNetwork()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ShippedNetwork(NetSmall)
	if err != nil || s != d {
		t.Fatalf("ShippedNetwork(small) = %p, %v; DefaultNetwork %p", s, err, d)
	}
	if _, err := ShippedNetwork("large"); err == nil || !strings.Contains(err.Error(), `"published"`) {
		t.Errorf("unknown name: %v", err)
	}
}

// TestPublishedNetworkHeldOutMAE is TestShippedNetworkHeldOutMAE for the
// published net, on the same 200 fresh curves (seed 1000); the bounds are
// its training command's held-out measurements (package documentation)
// plus the same sampling margins.
func TestPublishedNetworkHeldOutMAE(t *testing.T) {
	if testing.Short() || publishedSHA256 == "" {
		t.Skip("simulates 200 curves; published network not shipped")
	}
	net, err := ShippedNetwork(NetPublished)
	if err != nil {
		t.Fatal(err)
	}
	r := DefaultRecipe(200)
	r.SamplesPerSet = 1
	ex, err := r.Generate(context.Background(), 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	var far []Example
	for _, e := range ex {
		if e.Distance >= 0.8 {
			far = append(far, e)
		}
	}
	all, sep := MAE(net, ex), MAE(net, far)
	t.Logf("held-out MAE on %d curves: %.4f; on the %d with distance >= 0.8: %.4f", len(ex), all, len(far), sep)
	if all > publishedMAEBound {
		t.Errorf("held-out MAE %.4f > %.4f", all, publishedMAEBound)
	}
	if sep > 0.05 {
		t.Errorf("held-out MAE at distance >= 0.8: %.4f > 0.05", sep)
	}
}

// publishedMAEBound is the published net's held-out MAE (training
// command, 2,000 curves: 0.1382) plus 0.025 (2.5 standard errors on 200 curves).
const publishedMAEBound = 0.163
