// The closed-form formulas a live figure redraws in the browser: a second copy of the Python core, kept small.
// Each function names its Python reference; tests/e2e/test_live_formulas.py evaluates both at a grid of settings
// and compares them to 1e-9 (float64). The core stays the reference: change it there first, then here.

// embedviz.downsample.stride_for: the smallest step that keeps ceil(n / step) <= budget
export function strideFor(n, budget) {
  return Math.ceil(n / budget);
}

// embedviz.downsample.strided_indices: every step-th index of range(n)
export function stridedIndices(n, budget) {
  const step = strideFor(n, budget);
  const out = [];
  for (let i = 0; i < n; i += step) out.push(i);
  return out;
}

// embedviz.positions.sinusoidal.frequencies: w_i = base^(-2i/D) for the ceil(D/2) (sin, cos) pairs
export function frequencies(dModel, base) {
  const out = new Float64Array(Math.floor((dModel + 1) / 2));
  for (let i = 0; i < out.length; i++) out[i] = Math.pow(base, (-2.0 * i) / dModel);
  return out;
}

// embedviz.positions.sinusoidal.pair_dims: columns 2i, 2i + 1 of each pair, the odd D's missing last cosine left out
export function pairDims(pairs, dModel) {
  const out = [];
  for (const i of pairs) {
    if (2 * i < dModel) out.push(2 * i);
    if (2 * i + 1 < dModel) out.push(2 * i + 1);
  }
  return out;
}

// embedviz.positions.sinusoidal.sinusoidal_rows(positions, D, base, dims=dims).T: z of shape (C, P), dimension rows
export function sinusoidalColumns(positions, dModel, base, dims) {
  const omega = frequencies(dModel, base);
  return dims.map((d) => {
    const w = omega[d >> 1];
    const row = new Array(positions.length);
    for (let j = 0; j < positions.length; j++) {
      const angle = positions[j] * w;
      row[j] = d % 2 === 0 ? Math.sin(angle) : Math.cos(angle); // even columns sine, odd ones cosine
    }
    return row;
  });
}

// embedviz.app.sinusoidal_view.encoding_view: the heatmap's cells within the budget (positions x pairs)
export function encodingView(numPositions, dModel, base, cellBudget, pairBudget) {
  const positions = stridedIndices(numPositions, cellBudget);
  const numPairs = Math.floor((dModel + 1) / 2);
  const pairStep = strideFor(numPairs, pairBudget);
  const pairs = [];
  for (let i = 0; i < numPairs; i += pairStep) pairs.push(i);
  const dims = pairDims(pairs, dModel);
  return {
    z: sinusoidalColumns(positions, dModel, base, dims), positions, dims,
    posStep: positions.length > 1 ? positions[1] : 1, pairStep,
  };
}

// embedviz.downsample.log_spaced_indices: every index below dense, then geometric steps to n - 1 (np.geomspace,
// rounded half to even as np.round), sorted and unique
export function logSpacedIndices(n, budget, dense) {
  const out = [];
  if (n <= budget) {
    for (let i = 0; i < n; i++) out.push(i);
    return out;
  }
  dense = Math.min(dense, Math.floor(budget / 2));
  const seen = new Set();
  for (let i = 0; i < dense; i++) seen.add(i);
  const count = budget - dense, start = Math.max(dense, 1), stop = n - 1;
  const logStart = Math.log10(start), step = (Math.log10(stop) - logStart) / (count - 1);
  for (let k = 0; k < count; k++) {
    const v = k === 0 ? start : k === count - 1 ? stop : Math.pow(10, logStart + k * step);
    seen.add(roundHalfEven(v));
  }
  return Array.from(seen).sort((a, b) => a - b);
}

function roundHalfEven(v) {
  const r = Math.round(v);
  return Math.abs(v - Math.trunc(v)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// embedviz.positions.sinusoidal.distance_vs_gap: ||PE(s + k) - PE(s)|| per start s (rows) and gap k, from the encodings
export function distanceVsGap(dModel, gaps, starts, base) {
  const w = frequencies(dModel, base), odd = dModel % 2 === 1;
  return starts.map((s) => {
    const sinA = w.map((wi) => Math.sin(s * wi)), cosA = w.map((wi) => Math.cos(s * wi)); // PE(s), once per start
    return gaps.map((k) => {
      let d2 = 0;
      for (let i = 0; i < w.length; i++) {
        const b = (s + k) * w[i];
        const ds = Math.sin(b) - sinA[i], dc = Math.cos(b) - cosA[i];
        d2 += odd && i === w.length - 1 ? ds * ds : ds * ds + dc * dc; // the odd last column is a sine only
      }
      return Math.sqrt(d2);
    });
  });
}

// embedviz.positions.sinusoidal.distance_levels: (typical sqrt(D), bound 2 sqrt(ceil(D/2))) at large gaps
export function distanceLevels(dModel) {
  return [Math.sqrt(dModel), 2.0 * Math.sqrt(Math.floor((dModel + 1) / 2))];
}

// embedviz.rope.rotary.inverse_frequencies: w_i = 1 / theta^(2i/d) for the d/2 pairs of a head
export function ropeInverseFrequencies(headDim, theta) {
  const out = new Float64Array(headDim / 2);
  for (let i = 0; i < out.length; i++) out[i] = 1.0 / Math.pow(theta, (2 * i) / headDim);
  return out;
}

// embedviz.rope.rotary.wavelengths: positions each pair needs for one full turn, 2 pi / w_i
export function wavelengths(invFreq) {
  return Float64Array.from(invFreq, (w) => (2 * Math.PI) / w);
}

// embedviz.rope.rotary.pair_of_dimension: half [0..d/2-1, 0..d/2-1], interleaved [0, 0, 1, 1, ...]
export function pairOfDimension(headDim, pairing) {
  const half = headDim / 2, out = [];
  for (let d = 0; d < headDim; d++) out.push(pairing === "half" ? d % half : d >> 1);
  return out;
}

// embedviz.rope.rotary.dimension_cos(positions, d, theta, pairing).T: cos(m w_pair(d)), z of shape (d, T), dimension rows
export function dimensionCosRows(positions, headDim, theta, pairing) {
  const w = ropeInverseFrequencies(headDim, theta);
  return pairOfDimension(headDim, pairing).map((i) => {
    const row = new Float64Array(positions.length);
    for (let j = 0; j < positions.length; j++) row[j] = Math.cos(positions[j] * w[i]);
    return row;
  });
}

// embedviz.rope.rotary.decay_curve: mean over pairs of cos(distance * w_i), aligned q and k
export function decayCurve(headDim, theta, distances) {
  const w = ropeInverseFrequencies(headDim, theta);
  return Float64Array.from(distances, (d) => {
    let sum = 0;
    for (let i = 0; i < w.length; i++) sum += Math.cos(d * w[i]);
    return sum / w.length;
  });
}

// embedviz.app.rope_view.angle_heatmap: cos of each dimension's angle at every step-th position of the window
export function angleHeatmapView(headDim, theta, window, pairing, positionBudget) {
  const positions = stridedIndices(window, positionBudget);
  return { z: dimensionCosRows(positions, headDim, theta, pairing), positions,
    pair: pairOfDimension(headDim, pairing), step: positions.length > 1 ? positions[1] - positions[0] : 1 };
}

// embedviz.app.rope_view._distances: 1..maxDistance, every one below dense, log-spaced above
export function ropeDistances(maxDistance, dense) {
  return logSpacedIndices(maxDistance + 1, 2 * dense, dense).slice(1);
}

// embedviz.app.sinusoidal_view.distance_curves: the gaps (log-spaced past dense, gap 0 left out) and their distances
export function distanceCurves(numPositions, dModel, base, starts, curvePoints, dense) {
  const gaps = logSpacedIndices(Math.max(numPositions, 2), curvePoints, dense).slice(1);
  const [typical, bound] = distanceLevels(dModel);
  return { gaps, distances: distanceVsGap(dModel, gaps, starts, base), typical, bound };
}

// embedviz.rope.scaling.compute(d, theta, scaling, seq_len).inv_freq for the Context extension methods, d the
// rotary dimension; p = {factor, original, beta_fast, beta_slow, truncate, low_freq_factor, high_freq_factor,
// short_factor, long_factor} as embedviz.rope.context_extension.build_scaling fills a scaling dict (inputs checked there)
export function scaledInverseFrequencies(dim, theta, method, p, contextLength) {
  const w = ropeInverseFrequencies(dim, theta), s = p.factor, L = p.original;
  if (method === "linear") return w.map((x) => x / s);
  if (method === "dynamic") { // _ntk_base: theta grows only past the trained length; one pair ignores the base
    const length = contextLength == null ? L : Math.max(contextLength, L);
    return dim <= 2 ? w : ropeInverseFrequencies(dim, theta * Math.pow(s * length / L - (s - 1), dim / (dim - 2)));
  }
  if (method === "yarn") { // a ramp over the pair index between the pairs turning beta_fast and beta_slow times
    const at = (turns) => (dim * Math.log(L / (turns * 2 * Math.PI))) / (2 * Math.log(theta));
    // beta_fast, beta_slow and truncate as Python resolved them (embedviz.rope.scaling.yarn_betas: a config's 0 or
    // none is the paper's default there)
    let low = at(p.beta_fast), high = at(p.beta_slow);
    if (p.truncate) { low = Math.floor(low); high = Math.ceil(high); }
    low = Math.max(low, 0);
    high = Math.min(high, dim - 1);
    if (low === high) high += 0.001;
    return w.map((x, i) => {
      const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
      return (x / s) * ramp + x * (1 - ramp);
    });
  }
  if (method === "llama3") { // keep the short wavelengths, divide the long ones by s, blend in between
    const lo = p.low_freq_factor, hi = p.high_freq_factor;
    return w.map((x) => {
      const wavelen = (2 * Math.PI) / x;
      if (wavelen >= L / hi && wavelen <= L / lo) {
        const smooth = (L / wavelen - lo) / (hi - lo);
        return ((1 - smooth) * x) / s + smooth * x;
      }
      return wavelen > L / lo ? x / s : x;
    });
  }
  if (method === "longrope") { // one searched factor per pair: long_factor past the trained length
    const ext = contextLength && contextLength > L ? p.long_factor : p.short_factor;
    return w.map((x, i) => x / ext[i]);
  }
  throw new Error("no browser formula for the method " + method);
}

// embedviz.rope.context_extension.classify_pairs: kept (after = before), interpolated (after = before / factor),
// blended, up to rtol; factor defaults to the largest before / after ratio
export function classifyPairs(before, after, factor, rtol = 1e-6) {
  const ratio = Array.from(before, (b, i) => b / after[i]);
  const f = factor ?? (ratio.length ? Math.max(...ratio) : 1.0);
  const kind = (r) => (Math.abs(r - 1) <= rtol ? "kept" : Math.abs(r - f) <= rtol * f ? "interpolated" : "blended");
  return ratio.map(kind);
}
