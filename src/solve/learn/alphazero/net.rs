//! The policy/value network of `az:FILE`: a small multilayer perceptron,
//! written out in plain Rust. It reads a game's observation vector and gives
//! a logit per numbered action (the policy, a softmax over the legal ones)
//! and a value in [-1, 1] for the player who observes (tanh).
//!
//! Hand-written rather than taken from candle or burn: a network of two
//! hidden layers of 64 to 128 units evaluated one position at a time on the
//! CPU is a few matrix-vector products, which plain loops do about as fast,
//! and a tensor crate would add minutes to every build of gdl for that. The
//! gradients are checked against finite differences in the tests below.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The shape of a network: inputs, hidden layers, actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: Vec<usize>,
    pub actions: usize,
}

impl Shape {
    /// The dense layers as (inputs, outputs): the hidden ones, then the
    /// policy head and the value head, both reading the last hidden layer.
    fn layers(&self) -> Vec<(usize, usize)> {
        let mut dims = Vec::new();
        let mut from = self.inputs;
        for &h in &self.hidden {
            dims.push((from, h));
            from = h;
        }
        dims.push((from, self.actions));
        dims.push((from, 1));
        dims
    }

    /// How many weights and biases.
    pub fn parameters(&self) -> usize {
        self.layers().iter().map(|(i, o)| i * o + o).sum()
    }

    /// The largest shape a file may hold, so that a damaged one cannot ask
    /// for more memory than any game needs.
    pub fn is_reasonable(&self) -> bool {
        self.inputs > 0
            && self.actions > 0
            && !self.hidden.is_empty()
            && self.hidden.len() <= 8
            && self.hidden.iter().all(|&h| (1..=4096).contains(&h))
            && self.parameters() <= 64 << 20
    }
}

/// A network: its shape and its parameters, layer after layer, each a
/// weight matrix stored input-major (`w[i * out + o]`) then its biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    shape: Shape,
    params: Vec<f32>,
}

/// What one forward pass leaves for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Each layer's input: the transformed observation, then each hidden
    /// layer's activations (after ReLU).
    acts: Vec<Vec<f32>>,
    pub logits: Vec<f32>,
    pub value: f32,
}

/// The observation as the first layer reads it: counts squeezed by a
/// logarithm (a Kalah pit of 40 seeds is not 40 times a pit of 1), 0 and 1
/// left nearly as they are.
fn squash(x: f32) -> f32 {
    x.signum() * x.abs().ln_1p()
}

impl Net {
    /// A network of `shape` with random weights (He initialisation), drawn from `seed`.
    pub fn new(shape: Shape, seed: u64) -> Net {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = Vec::with_capacity(shape.parameters());
        for (i, o) in shape.layers() {
            let scale = (2.0 / i as f32).sqrt();
            for _ in 0..i * o {
                // Uniform with the variance of N(0, scale²).
                params.push((rng.random::<f32>() * 2.0 - 1.0) * scale * 3f32.sqrt());
            }
            params.extend(std::iter::repeat_n(0.0, o));
        }
        Net { shape, params }
    }

    /// A network of `shape` with these parameters; `None` when their
    /// number does not fit the shape.
    pub fn from_parts(shape: Shape, params: Vec<f32>) -> Option<Net> {
        (params.len() == shape.parameters()).then_some(Net { shape, params })
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// The logits and the value of `obs`, with what backpropagation needs.
    pub fn forward(&self, obs: &[f32], trace: &mut Trace) {
        let layers = self.shape.layers();
        let hidden = self.shape.hidden.len();
        trace.acts.resize(hidden + 1, Vec::new());
        trace.acts[0].clear();
        trace.acts[0].extend(obs.iter().map(|&x| squash(x)));
        let mut at = 0;
        for (l, &(i, o)) in layers.iter().enumerate().take(hidden) {
            let (before, after) = trace.acts.split_at_mut(l + 1);
            dense(&self.params[at..at + i * o + o], i, o, &before[l], &mut after[0]);
            for h in after[0].iter_mut() {
                *h = h.max(0.0);
            }
            at += i * o + o;
        }
        let last = &trace.acts[hidden];
        let (i, o) = layers[hidden];
        dense(&self.params[at..at + i * o + o], i, o, last, &mut trace.logits);
        at += i * o + o;
        let mut v = Vec::with_capacity(1);
        dense(&self.params[at..at + i + 1], i, 1, last, &mut v);
        trace.value = v[0].tanh();
    }

    /// Adds to `grad` (one entry per parameter) the gradient of the loss of
    /// the pass in `trace` against a target: cross-entropy between the
    /// softmax of the logits over `legal` and `target` (one probability per
    /// entry of `legal`), plus the squared error of the value against `z`.
    /// Returns the two losses.
    pub fn backward(&self, trace: &Trace, legal: &[u32], target: &[f32], z: f32, grad: &mut [f32]) -> (f32, f32) {
        let layers = self.shape.layers();
        let hidden = self.shape.hidden.len();
        let probs = masked_softmax(&trace.logits, legal);
        let mut d_logits = vec![0.0; self.shape.actions];
        let mut policy_loss = 0.0;
        for ((&a, &p), &t) in legal.iter().zip(&probs).zip(target) {
            d_logits[a as usize] = p - t;
            if t > 0.0 {
                policy_loss -= t * p.max(1e-12).ln();
            }
        }
        let v = trace.value;
        let value_loss = (v - z) * (v - z);
        let d_value = [2.0 * (v - z) * (1.0 - v * v)];

        // Where each layer's parameters start.
        let mut starts = Vec::with_capacity(layers.len());
        let mut at = 0;
        for &(i, o) in &layers {
            starts.push(at);
            at += i * o + o;
        }
        let last = &trace.acts[hidden];
        let (i, o) = layers[hidden];
        let mut d_h = vec![0.0; i];
        dense_back(&self.params, grad, starts[hidden], i, o, last, &d_logits, &mut d_h);
        dense_back(&self.params, grad, starts[hidden + 1], i, 1, last, &d_value, &mut d_h);
        for l in (0..hidden).rev() {
            let (i, o) = layers[l];
            // Through the ReLU: nothing passes where the unit was off.
            for (d, &a) in d_h.iter_mut().zip(&trace.acts[l + 1]) {
                if a <= 0.0 {
                    *d = 0.0;
                }
            }
            let mut d_in = vec![0.0; i];
            dense_back(&self.params, grad, starts[l], i, o, &trace.acts[l], &d_h, &mut d_in);
            d_h = d_in;
        }
        (policy_loss, value_loss)
    }
}

/// `out = x · W + b` for one dense layer whose parameters are `p`.
fn dense(p: &[f32], i: usize, o: usize, x: &[f32], out: &mut Vec<f32>) {
    let (w, b) = p.split_at(i * o);
    out.clear();
    out.extend_from_slice(&b[..o]);
    for (k, &xk) in x.iter().enumerate().take(i) {
        // Observations are mostly zeros (one-hot cells, empty slots).
        if xk != 0.0 {
            for (h, &wk) in out.iter_mut().zip(&w[k * o..(k + 1) * o]) {
                *h += xk * wk;
            }
        }
    }
}

/// The backward pass of one dense layer: adds its weights' and biases'
/// gradients to `grad` (at `start`) and `d_out`'s effect on its inputs to `d_in`.
#[allow(clippy::too_many_arguments)]
fn dense_back(
    params: &[f32],
    grad: &mut [f32],
    start: usize,
    i: usize,
    o: usize,
    x: &[f32],
    d_out: &[f32],
    d_in: &mut [f32],
) {
    let w = &params[start..start + i * o];
    let (gw, gb) = grad[start..start + i * o + o].split_at_mut(i * o);
    for (g, &d) in gb.iter_mut().zip(d_out) {
        *g += d;
    }
    for k in 0..i {
        let xk = x[k];
        let row = &w[k * o..(k + 1) * o];
        let mut sum = 0.0;
        for (&wk, &d) in row.iter().zip(d_out) {
            sum += wk * d;
        }
        d_in[k] += sum;
        if xk != 0.0 {
            for (g, &d) in gw[k * o..(k + 1) * o].iter_mut().zip(d_out) {
                *g += xk * d;
            }
        }
    }
}

/// The softmax of `logits` over the actions `legal`, in their order.
pub fn masked_softmax(logits: &[f32], legal: &[u32]) -> Vec<f32> {
    let top = legal
        .iter()
        .map(|&a| logits[a as usize])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut probs: Vec<f32> = legal.iter().map(|&a| (logits[a as usize] - top).exp()).collect();
    let sum: f32 = probs.iter().sum();
    for p in &mut probs {
        *p /= sum;
    }
    probs
}

/// Adam over a network's parameters, with L2 weight decay.
#[derive(Clone, Debug)]
pub struct Adam {
    pub learning_rate: f32,
    pub weight_decay: f32,
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    pub fn new(parameters: usize, learning_rate: f32, weight_decay: f32) -> Adam {
        Adam {
            learning_rate,
            weight_decay,
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
            steps: 0,
        }
    }

    /// One step along `grad` (the mean gradient of a batch).
    pub fn step(&mut self, net: &mut Net, grad: &[f32]) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps = self.steps.saturating_add(1);
        let c1 = 1.0 - B1.powi(self.steps);
        let c2 = 1.0 - B2.powi(self.steps);
        for (((p, &g), m), v) in net.params.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            let g = g + self.weight_decay * *p;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= self.learning_rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(net: &Net, obs: &[f32], legal: &[u32], target: &[f32], z: f32) -> f32 {
        let mut t = Trace::default();
        net.forward(obs, &mut t);
        let probs = masked_softmax(&t.logits, legal);
        let ce: f32 = probs.iter().zip(target).map(|(p, t)| -t * p.ln()).sum();
        ce + (t.value - z) * (t.value - z)
    }

    #[test]
    fn gradients_match_finite_differences() {
        let shape = Shape {
            inputs: 5,
            hidden: vec![7, 6],
            actions: 4,
        };
        let mut net = Net::new(shape.clone(), 3);
        // Biases away from zero, so that the check sees them too.
        for (k, p) in net.params.iter_mut().enumerate() {
            *p += 0.01 * (k % 5) as f32;
        }
        let obs = [1.0, 0.0, 3.0, -2.0, 0.5];
        let legal = [0, 2, 3];
        let target = [0.2, 0.5, 0.3];
        let z = -0.4;
        let mut t = Trace::default();
        net.forward(&obs, &mut t);
        let mut grad = vec![0.0; shape.parameters()];
        net.backward(&t, &legal, &target, z, &mut grad);
        let eps = 1e-3;
        let mut checked = 0;
        for (k, &analytic) in grad.iter().enumerate() {
            let keep = net.params[k];
            net.params[k] = keep + eps;
            let up = loss(&net, &obs, &legal, &target, z);
            net.params[k] = keep - eps;
            let down = loss(&net, &obs, &legal, &target, z);
            net.params[k] = keep;
            let numeric = (up - down) / (2.0 * eps);
            assert!(
                (numeric - analytic).abs() <= 2e-3 + 2e-2 * numeric.abs(),
                "parameter {k}: backprop {analytic} against finite differences {numeric}"
            );
            if analytic != 0.0 {
                checked += 1;
            }
        }
        // Many parameters take part (some ReLUs are off, an input is 0).
        assert!(checked > shape.parameters() / 3, "only {checked} nonzero gradients");
    }

    #[test]
    fn adam_fits_a_policy_and_a_value() {
        let shape = Shape {
            inputs: 2,
            hidden: vec![16, 16],
            actions: 3,
        };
        let mut net = Net::new(shape.clone(), 1);
        let mut adam = Adam::new(shape.parameters(), 0.01, 0.0);
        let data = [([1.0, 0.0], 2u32, 1.0f32), ([0.0, 1.0], 0, -1.0)];
        let legal = [0, 1, 2];
        let mut t = Trace::default();
        for _ in 0..300 {
            let mut grad = vec![0.0; shape.parameters()];
            for (obs, best, z) in &data {
                let target: Vec<f32> = legal.iter().map(|&a| f32::from(u8::from(a == *best))).collect();
                net.forward(obs, &mut t);
                net.backward(&t, &legal, &target, *z, &mut grad);
            }
            adam.step(&mut net, &grad);
        }
        for (obs, best, z) in &data {
            net.forward(obs, &mut t);
            let probs = masked_softmax(&t.logits, &legal);
            assert!(probs[*best as usize] > 0.9, "{probs:?}");
            assert!((t.value - z).abs() < 0.1, "{} against {z}", t.value);
        }
    }

    #[test]
    fn the_softmax_is_over_the_legal_actions_only() {
        let probs = masked_softmax(&[5.0, 1.0, 1.0, 100.0], &[1, 2]);
        assert_eq!(probs, vec![0.5, 0.5]);
    }
}
