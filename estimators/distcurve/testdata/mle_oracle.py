"""A parametric oracle for DistCurve's training recipe (doc.go, "Accuracy").

It asks how well the class prior can be estimated on the recipe's examples by
an estimator that knows far more than the network: the recipe's Beta family
and its constraints, and the raw samples rather than their distance curve.
For each example (the recipe: a0 ~ U(2, 100), b0 = a0 U(1, 10),
a1 = a0 (1 + u), b1 = b0 (1 + v), u, v ~ Beta(.5, .5); |M| ~ U{1000..9999},
|C| ~ U{100..4999}, alpha ~ U(0.01, 1); C ~ Beta(a1, b1),
M ~ alpha Beta(a1, b1) + (1 - alpha) Beta(a0, b0)) it fits (a0, b0, u, v,
alpha) by maximum likelihood on C and M together (L-BFGS-B, u and v in
[0, 1], 9 starts) and records |alpha_hat - alpha| with the pair's Yang
distance 2 TV / (1 + TV) (TV by the trapezoid rule on 200,001 points).

Maximum likelihood is not the Bayes rule for absolute error, so this is not a
strict lower bound; where the two Betas nearly coincide it does worse than
answering the prior's median. Run with Debian's python3-numpy and
python3-scipy:

    python3 mle_oracle.py 1 700          # draws as the recipe's prior gives them
    python3 mle_oracle.py 2 250 --low    # only pairs with distance < 0.4
    python3 mle_oracle.py 3 250 --low
    python3 mle_oracle.py --table        # the table of mle_oracle.txt

The recipe stratifies its examples uniformly over the distance; the table
weights the ten distance tenths equally in the same way.
"""
import glob
import sys

import numpy as np
from scipy import optimize, special


def logbeta(x, a, b):
    return (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - special.betaln(a, b)


def tv(a0, b0, a1, b1):
    x = np.linspace(1e-6, 1 - 1e-6, 200001)
    return 0.5 * np.trapz(np.abs(np.exp(logbeta(x, a0, b0)) - np.exp(logbeta(x, a1, b1))), x)


def nll(th, c, m):
    la0, lb0, u, v, al = th
    a0, b0 = np.exp(la0), np.exp(lb0)
    a1, b1 = a0 * (1 + u), b0 * (1 + v)
    lc = logbeta(c, a1, b1).sum()
    lm = np.logaddexp(np.log(al) + logbeta(m, a1, b1), np.log1p(-al) + logbeta(m, a0, b0)).sum()
    return -(lc + lm)


def run(seed, n, low):
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n:
        a0 = rng.uniform(2, 100)
        b0 = a0 * rng.uniform(1, 10)
        u = rng.beta(.5, .5)
        v = rng.beta(.5, .5)
        a1, b1 = a0 * (1 + u), b0 * (1 + v)
        t = tv(a0, b0, a1, b1)
        d = 2 * t / (1 + t)
        if low and d >= 0.4:
            continue
        nm = rng.integers(1000, 10000)
        nc = rng.integers(100, 5000)
        al = rng.uniform(0.01, 1)
        z = rng.random(nm) < al
        m = np.where(z, rng.beta(a1, b1, nm), rng.beta(a0, b0, nm))
        c = rng.beta(a1, b1, nc)
        m = np.clip(m, 1e-12, 1 - 1e-12)
        c = np.clip(c, 1e-12, 1 - 1e-12)
        mu, s2 = c.mean(), c.var()  # start a1, b1 at the moments of C
        k = mu * (1 - mu) / s2 - 1
        A1, B1 = mu * k, (1 - mu) * k
        best = None
        for al0 in (0.1, 0.5, 0.9):
            for uv in (0.1, 0.5, 0.9):
                x0 = [np.log(A1 / (1 + uv)), np.log(B1 / (1 + uv)), uv, uv, al0]
                r = optimize.minimize(nll, x0, args=(c, m), method='L-BFGS-B',
                                      bounds=[(np.log(.5), np.log(400)), (np.log(.5), np.log(4000)),
                                              (0, 1), (0, 1), (1e-4, 1 - 1e-4)])
                if best is None or r.fun < best.fun:
                    best = r
        rows.append((d, al, best.x[4]))
    np.save('mle-%d%s.npy' % (seed, '-low' if low else ''), np.array(rows))


def table():
    rows = np.vstack([np.load(f) for f in sorted(glob.glob('mle-*.npy'))])
    err = np.abs(rows[:, 1] - rows[:, 2])
    print('distance   examples  MLE MAE   prior-median MAE')
    bands, capped = [], []
    for i in range(10):
        s = (rows[:, 0] >= i / 10) & (rows[:, 0] < (i + 1) / 10)
        med = np.abs(rows[s, 1] - 0.505).mean()
        bands.append(err[s].mean())
        capped.append(min(err[s].mean(), med))
        print('[%.1f, %.1f)  %5d    %.4f    %.4f' % (i / 10, (i + 1) / 10, s.sum(), err[s].mean(), med))
    print('equal weight per tenth: MLE %.4f; the better of MLE and the prior median per tenth %.4f'
          % (np.mean(bands), np.mean(capped)))


if __name__ == '__main__':
    if sys.argv[1:] == ['--table']:
        table()
    else:
        run(int(sys.argv[1]), int(sys.argv[2]), '--low' in sys.argv[3:])
