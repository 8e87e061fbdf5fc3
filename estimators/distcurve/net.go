package distcurve

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Network is the estimator network: the input curve is standardised
// feature by feature, z = (x - Mean)/Scale, then passes through dense layers
// with ReLU between them; the last layer has one linear output, clipped to
// [0, 1] by [Network.Predict].
type Network struct {
	Mean, Scale []float64 // input standardisation, one entry per input
	Layers      []Layer
}

// Layer is a dense layer y = W x + B, W stored row-major (Out rows of In).
type Layer struct {
	In, Out int
	W, B    []float64
}

// Inputs is the network's input width (len(Mean)).
func (n *Network) Inputs() int { return len(n.Mean) }

// Validate checks the shapes and that every parameter is finite.
func (n *Network) Validate() error {
	if n == nil || len(n.Layers) == 0 {
		return errors.New("distcurve: network has no layers")
	}
	in := len(n.Mean)
	if in == 0 || len(n.Scale) != in {
		return fmt.Errorf("distcurve: network: %d means, %d scales", len(n.Mean), len(n.Scale))
	}
	for i, s := range n.Scale {
		if !(s > 0) || math.IsInf(s, 0) || math.IsNaN(n.Mean[i]) || math.IsInf(n.Mean[i], 0) {
			return fmt.Errorf("distcurve: network: input %d mean %v scale %v", i, n.Mean[i], s)
		}
	}
	for k, l := range n.Layers {
		if l.In != in || l.Out < 1 || len(l.W) != l.In*l.Out || len(l.B) != l.Out {
			return fmt.Errorf("distcurve: network: layer %d shape %dx%d (input %d, %d weights, %d biases)", k, l.Out, l.In, in, len(l.W), len(l.B))
		}
		for _, v := range l.W {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("distcurve: network: layer %d has a non-finite weight", k)
			}
		}
		for _, v := range l.B {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("distcurve: network: layer %d has a non-finite bias", k)
			}
		}
		in = l.Out
	}
	if in != 1 {
		return fmt.Errorf("distcurve: network: %d outputs, want 1", in)
	}
	return nil
}

// Raw is the unclipped network output for x (len(x) == Inputs()).
func (n *Network) Raw(x []float64) float64 {
	cur := make([]float64, len(x))
	for i, v := range x {
		cur[i] = (v - n.Mean[i]) / n.Scale[i]
	}
	for k, l := range n.Layers {
		next := make([]float64, l.Out)
		for o := range l.Out {
			s := l.B[o]
			row := l.W[o*l.In : (o+1)*l.In]
			for i, w := range row {
				s += float64(w * cur[i])
			}
			if k < len(n.Layers)-1 && s < 0 {
				s = 0
			}
			next[o] = s
		}
		cur = next
	}
	return cur[0]
}

// Predict is the network's alpha for a curve: Raw clipped to [0, 1].
func (n *Network) Predict(curve []float64) (float64, error) {
	if len(curve) != n.Inputs() {
		return 0, fmt.Errorf("%w: curve of %d points, network takes %d", ErrInput, len(curve), n.Inputs())
	}
	for i, v := range curve {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: curve[%d] = %v", ErrInput, i, v)
		}
	}
	return min(max(n.Raw(curve), 0), 1), nil
}

// Weight-file format (little-endian): the 8-byte magic "PUDCNET1", uint32
// number of inputs, uint32 number of layers, uint32 output width of each
// layer, then float32 values: Mean, Scale, and for each layer W (row-major)
// then B.
var netMagic = [8]byte{'P', 'U', 'D', 'C', 'N', 'E', 'T', '1'}

// MarshalBinary writes the weight file; parameters are rounded to float32.
func (n *Network) MarshalBinary() ([]byte, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Write(netMagic[:])
	u32 := func(v int) { _ = binary.Write(&buf, binary.LittleEndian, uint32(v)) }
	f32 := func(xs []float64) {
		for _, x := range xs {
			_ = binary.Write(&buf, binary.LittleEndian, math.Float32bits(float32(x)))
		}
	}
	u32(n.Inputs())
	u32(len(n.Layers))
	for _, l := range n.Layers {
		u32(l.Out)
	}
	f32(n.Mean)
	f32(n.Scale)
	for _, l := range n.Layers {
		f32(l.W)
		f32(l.B)
	}
	return buf.Bytes(), nil
}

// UnmarshalBinary reads a weight file written by MarshalBinary.
func (n *Network) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	var magic [8]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || magic != netMagic {
		return errors.New("distcurve: not a DistCurve network file (bad magic)")
	}
	var in, nl uint32
	if err := binary.Read(r, binary.LittleEndian, &in); err != nil {
		return fmt.Errorf("distcurve: network file: %w", err)
	}
	if err := binary.Read(r, binary.LittleEndian, &nl); err != nil {
		return fmt.Errorf("distcurve: network file: %w", err)
	}
	const maxWidth, maxLayers = 1 << 16, 64
	if in == 0 || in > maxWidth || nl == 0 || nl > maxLayers {
		return fmt.Errorf("distcurve: network file: %d inputs, %d layers", in, nl)
	}
	outs := make([]uint32, nl)
	if err := binary.Read(r, binary.LittleEndian, outs); err != nil {
		return fmt.Errorf("distcurve: network file: %w", err)
	}
	readF := func(k int) ([]float64, error) {
		raw := make([]uint32, k)
		if err := binary.Read(r, binary.LittleEndian, raw); err != nil {
			return nil, fmt.Errorf("distcurve: network file: %w", err)
		}
		out := make([]float64, k)
		for i, b := range raw {
			out[i] = float64(math.Float32frombits(b))
		}
		return out, nil
	}
	var m Network
	var err error
	if m.Mean, err = readF(int(in)); err != nil {
		return err
	}
	if m.Scale, err = readF(int(in)); err != nil {
		return err
	}
	prev := int(in)
	for _, o := range outs {
		if o == 0 || o > maxWidth {
			return fmt.Errorf("distcurve: network file: layer width %d", o)
		}
		l := Layer{In: prev, Out: int(o)}
		if l.W, err = readF(l.In * l.Out); err != nil {
			return err
		}
		if l.B, err = readF(l.Out); err != nil {
			return err
		}
		m.Layers = append(m.Layers, l)
		prev = l.Out
	}
	if r.Len() != 0 {
		return fmt.Errorf("distcurve: network file: %d trailing bytes", r.Len())
	}
	if err := m.Validate(); err != nil {
		return err
	}
	*n = m
	return nil
}
