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

// embedviz.sinusoidal.frequencies: w_i = base^(-2i/D) for the ceil(D/2) (sin, cos) pairs
export function frequencies(dModel, base) {
  const out = new Float64Array(Math.floor((dModel + 1) / 2));
  for (let i = 0; i < out.length; i++) out[i] = Math.pow(base, (-2.0 * i) / dModel);
  return out;
}

// embedviz.sinusoidal.wavelengths: 2*pi / w_i, positions per full turn of each pair
export function wavelengths(dModel, base) {
  return Array.from(frequencies(dModel, base), (w) => (2.0 * Math.PI) / w);
}

// embedviz.sinusoidal.pair_dims: columns 2i, 2i + 1 of each pair, the odd D's missing last cosine left out
export function pairDims(pairs, dModel) {
  const out = [];
  for (const i of pairs) {
    if (2 * i < dModel) out.push(2 * i);
    if (2 * i + 1 < dModel) out.push(2 * i + 1);
  }
  return out;
}

// embedviz.sinusoidal.sinusoidal_rows(positions, D, base, dims=dims).T: z of shape (C, P), dimension rows
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
