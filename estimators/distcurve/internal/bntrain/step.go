package bntrain

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/pueval/pueval/estimators/distcurve/internal/sgemm"
)

// work holds one batch's activations and gradients, feature-major with
// row stride B (the batch size); a batch of nb < B examples uses the first
// nb columns.
type work struct {
	B     int
	x     []float32   // standardised input, in x B
	z     [][]float32 // per hidden layer: pre-normalisation, then (in place) the normalised xhat
	a     [][]float32 // per layer: its output after BN, ReLU and dropout (hidden) or the raw output
	mask  [][]float32 // per hidden layer: dropout factor 0 or 1/(1-rate)
	mu    [][]float32 // batch mean per unit
	istd  [][]float32 // 1/sqrt(var + eps) per unit
	da    [][]float32 // gradient w.r.t. a (same shapes)
	dz    []float32   // scratch: gradient w.r.t. z, largest layer
	grads [][]float32 // per parameter slice, as Model.params
	y     []float32
}

func newWork(m *Model, B int) *work {
	w := &work{B: B, x: make([]float32, m.Layers[0].In*B), y: make([]float32, B)}
	maxOut := 0
	for k, l := range m.Layers {
		w.a = append(w.a, make([]float32, l.Out*B))
		w.da = append(w.da, make([]float32, l.Out*B))
		if m.hidden(k) {
			w.z = append(w.z, make([]float32, l.Out*B))
			w.mask = append(w.mask, make([]float32, l.Out*B))
			w.mu = append(w.mu, make([]float32, l.Out))
			w.istd = append(w.istd, make([]float32, l.Out))
		}
		maxOut = max(maxOut, l.Out)
	}
	w.dz = make([]float32, maxOut*B)
	for _, p := range m.params() {
		w.grads = append(w.grads, make([]float32, len(p)))
	}
	return w
}

// input writes the standardised curves of the batch into w.x (columns)
// and the targets into w.y.
func (w *work) input(m *Model, curves [][]float64, alphas []float64) {
	nb := len(curves)
	for r, c := range curves {
		for i, v := range c {
			w.x[i*w.B+r] = float32((v - m.Mean[i]) / m.Scale[i])
		}
		if alphas != nil {
			w.y[r] = float32(alphas[r])
		}
	}
	for i := range m.Layers[0].In {
		clear(w.x[i*w.B+nb : (i+1)*w.B])
	}
}

// forward runs the batch's first nb columns. In training mode it uses the
// batch statistics, updates the running ones and applies dropout masks
// drawn from rng; otherwise it uses the running statistics and no dropout.
func (w *work) forward(m *Model, nb int, train bool, cfg *Config, rng *rand.Rand) {
	prev := w.x
	for k := range m.Layers {
		l := &m.Layers[k]
		out := w.a[k]
		if !m.hidden(k) {
			sgemm.Gemm(false, false, l.Out, nb, l.In, l.W, l.In, prev, w.B, 0, out, w.B)
			for o := range l.Out {
				for r := range nb {
					out[o*w.B+r] += l.B[o]
				}
			}
			return
		}
		z := w.z[k]
		sgemm.Gemm(false, false, l.Out, nb, l.In, l.W, l.In, prev, w.B, 0, z, w.B)
		if train {
			w.batchNorm(k, l, nb, cfg)
			w.dropout(k, l.Out, nb, cfg.Dropout, rng)
		} else {
			for o := range l.Out {
				s := l.Gamma[o] / float32(math.Sqrt(float64(l.RunVar[o])+m.BNEps))
				for r := range nb {
					out[o*w.B+r] = max(s*(z[o*w.B+r]-l.RunMean[o])+l.Beta[o], 0)
				}
			}
		}
		prev = out
	}
}

// batchNorm normalises z with the batch statistics (z becomes xhat), then
// applies gamma, beta and ReLU into a; the running statistics move towards
// the batch's.
func (w *work) batchNorm(k int, l *Layer, nb int, cfg *Config) {
	z, a, B := w.z[k], w.a[k], w.B
	mom := float32(cfg.BNMomentum)
	for o := range l.Out {
		row := z[o*B : o*B+nb]
		var s float64
		for _, v := range row {
			s += float64(v)
		}
		mu := s / float64(nb)
		var ss float64
		for _, v := range row {
			d := float64(v) - mu
			ss += d * d
		}
		v := ss / float64(nb)
		istd := float32(1 / math.Sqrt(v+cfg.BNEps))
		w.mu[k][o], w.istd[k][o] = float32(mu), istd
		g, b := l.Gamma[o], l.Beta[o]
		arow := a[o*B : o*B+nb]
		for r, zv := range row {
			xh := (zv - float32(mu)) * istd
			row[r] = xh
			arow[r] = max(g*xh+b, 0)
		}
		l.RunMean[o] = mom*l.RunMean[o] + (1-mom)*float32(mu)
		l.RunVar[o] = mom*l.RunVar[o] + (1-mom)*float32(v)
	}
}

// dropout zeroes each unit with probability rate and scales the kept ones
// by 1/(1 - rate); the factor is kept in mask for the backward pass. The
// draws go row by row: at rate 0.5 one bit of rng.Uint64 per unit (low bit
// first, a 1 drops), otherwise one rng.Float64 per unit (below rate drops).
func (w *work) dropout(k, out, nb int, rate float64, rng *rand.Rand) {
	a, mask, B := w.a[k], w.mask[k], w.B
	keep := float32(1 / (1 - rate))
	var bits uint64
	left := 0
	for o := range out {
		for r := range nb {
			drop := false
			switch {
			case rate == 0.5:
				if left == 0 {
					bits, left = rng.Uint64(), 64
				}
				drop = bits&1 == 1
				bits >>= 1
				left--
			case rate > 0:
				drop = rng.Float64() < rate
			}
			f := keep
			if drop {
				f = 0
			}
			mask[o*B+r] = f
			a[o*B+r] *= f
		}
	}
}

// backward computes the gradients of the mean absolute error over the nb
// examples into w.grads, and returns the sum of absolute errors.
func (w *work) backward(m *Model, nb int) float64 {
	nl := len(m.Layers)
	B := w.B
	out, dout := w.a[nl-1], w.da[nl-1]
	var sumAbs float64
	for r := range nb {
		d := out[r] - w.y[r]
		sumAbs += math.Abs(float64(d))
		switch {
		case d > 0:
			dout[r] = 1 / float32(nb)
		case d < 0:
			dout[r] = -1 / float32(nb)
		default:
			dout[r] = 0
		}
	}
	gi := len(w.grads)
	for k := nl - 1; k >= 0; k-- {
		l := &m.Layers[k]
		prev := w.x
		if k > 0 {
			prev = w.a[k-1]
		}
		var dz []float32
		if !m.hidden(k) {
			gi -= 2
			dz = w.da[k]
			gb := w.grads[gi+1]
			for o := range l.Out {
				var s float32
				for r := range nb {
					s += dz[o*B+r]
				}
				gb[o] = s
			}
		} else {
			gi -= 3
			dz = w.dz[:l.Out*B]
			w.bnBackward(k, l, nb, dz, w.grads[gi+1], w.grads[gi+2])
		}
		sgemm.Gemm(false, true, l.Out, l.In, nb, dz, B, prev, B, 0, w.grads[gi], l.In)
		if k > 0 {
			sgemm.Gemm(true, false, l.In, nb, l.Out, l.W, l.In, dz, B, 0, w.da[k-1], B)
		}
	}
	return sumAbs
}

// bnBackward turns w.da[k] (gradient w.r.t. the layer's output) into dz
// (w.r.t. the pre-normalisation z) through dropout, ReLU and batch
// normalisation in training mode, and writes dgamma and dbeta:
// dxhat = dy gamma, dz = istd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
func (w *work) bnBackward(k int, l *Layer, nb int, dz, dgamma, dbeta []float32) {
	B := w.B
	da, mask, xhat, a := w.da[k], w.mask[k], w.z[k], w.a[k]
	inv := 1 / float32(nb)
	for o := range l.Out {
		var sdy, sdyx float32
		d := dz[o*B : o*B+nb]
		for r := range nb {
			i := o*B + r
			dy := da[i] * mask[i]
			if a[i] <= 0 { // ReLU's zero side (dropped units have dy = 0 already)
				dy = 0
			}
			d[r] = dy
			sdy += dy
			sdyx += dy * xhat[i]
		}
		dgamma[o], dbeta[o] = sdyx, sdy
		g, is := l.Gamma[o], w.istd[k][o]
		mdx, mdxx := g*sdy*inv, g*sdyx*inv
		for r := range nb {
			d[r] = is * (g*d[r] - mdx - xhat[o*B+r]*mdxx)
		}
	}
}

// adamVec, where the CPU has a vector version (adam_amd64.go), does the
// Adam step on a prefix of the slices and returns its length.
var adamVec = func(w, g, m, v []float32, c *[6]float32) int { return 0 }

// adam applies one Adam step (Keras's form) to every parameter, in
// parallel over chunks (element-wise, so the split does not change bits).
func adam(params, grads, ms, vs [][]float32, step int64, cfg *Config) {
	b1, b2 := cfg.Beta1, cfg.Beta2
	lrT := float32(cfg.LR * math.Sqrt(1-math.Pow(b2, float64(step))) / (1 - math.Pow(b1, float64(step))))
	c := [6]float32{float32(b1), float32(1 - b1), float32(b2), float32(1 - b2), lrT, float32(cfg.Eps)}
	const chunk = 1 << 16
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, sgemm.Threads))
	for p := range params {
		for lo := 0; lo < len(params[p]); lo += chunk {
			hi := min(lo+chunk, len(params[p]))
			sem <- struct{}{}
			wg.Go(func() {
				adamChunk(params[p][lo:hi], grads[p][lo:hi], ms[p][lo:hi], vs[p][lo:hi], &c)
				<-sem
			})
		}
	}
	wg.Wait()
}

func adamChunk(w, g, m, v []float32, c *[6]float32) {
	for i := adamVec(w, g, m, v, c); i < len(w); i++ {
		gi := g[i]
		m[i] = c[0]*m[i] + c[1]*gi
		v[i] = c[2]*v[i] + c[3]*(gi*gi)
		w[i] -= c[4] * (m[i] / (float32(math.Sqrt(float64(v[i]))) + c[5]))
	}
}
